"""Metric views: a new view is one registration plus its name in a metric, score() untouched."""

from __future__ import annotations

import pytest

from pytest_asrbench import score
from pytest_asrbench.errors import ViewError
from pytest_asrbench.scoring import metrics
from pytest_asrbench.scoring.metrics import METRICS, Metric
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views import MetricView, ViewResult, base, get_view, register_view


def _unspaced_cer(result, config) -> ViewResult:
    """A throwaway view: CER over the normalized texts with spaces removed (Korean's second CER)."""
    from pytest_asrbench.scoring.alignment import align

    errors = length = 0
    for pair in result.pairs:
        ref = pair.normalized_reference.replace(" ", "")
        hyp = pair.normalized_hypothesis.replace(" ", "")
        alignment = align(ref, hyp, "char")
        errors += sum(alignment.count(op) for op in ("substitute", "delete", "insert"))
        length += len(alignment.reference)
    return ViewResult({"unspaced_cer": errors / length if length else None})


@pytest.fixture
def scratch_registry(monkeypatch):
    """The view and metric registries, restored after the test."""
    monkeypatch.setattr(base, "_VIEWS", dict(base._VIEWS))
    monkeypatch.setattr(metrics, "METRICS", dict(METRICS))
    return metrics.METRICS


def test_a_throwaway_view_runs_without_touching_score(scratch_registry):
    register_view(MetricView("unspaced_cer", lambda config, unit: True, _unspaced_cer))
    scratch_registry["wer_plus"] = Metric("wer_plus", "0.1.0", "config", "test metric", views=("unspaced_cer",))
    result = score("the network is down", "the net work is down", "en", metric="wer_plus")
    # WER: "network" -> "net work" is 1 substitution + 1 insertion over 4 words
    assert result.rate == 0.5
    # unspaced, both sides are "thenetworkisdown": no character error
    assert result.details == {"unspaced_cer": 0.0}
    assert "unspaced_cer" not in score("the network is down", "the net work is down", "en").details


def test_a_view_that_does_not_apply_adds_nothing(scratch_registry):
    register_view(MetricView("char_only", lambda config, unit: unit == "char", _unspaced_cer))
    scratch_registry["wer_plus"] = Metric("wer_plus", "0.1.0", "config", "test metric", views=("char_only",))
    assert score("a b", "a c", "en", metric="wer_plus").details == {}


def test_a_view_may_set_the_headline_counts(scratch_registry):
    def perfect(result, config):
        length = result.reference_length
        return ViewResult({"strict": result.rate}, EditCounts(length, 0, 0, 0, length))

    register_view(MetricView("forgive", lambda config, unit: True, perfect, sets_counts=True))
    scratch_registry["lenient"] = Metric("lenient", "0.1.0", "config", "test metric", views=("forgive",))
    result = score("a b c d", "a x c", "en", metric="lenient")
    assert (result.rate, result.hits, result.substitutions, result.deletions) == (0.0, 4, 0, 0)
    assert result.details == {"strict": 0.5}


def test_counts_from_a_view_that_did_not_declare_them_are_refused(scratch_registry):
    def sneaky(result, config):
        return ViewResult({}, EditCounts(result.reference_length, 0, 0, 0, result.reference_length))

    register_view(MetricView("sneaky", lambda config, unit: True, sneaky))
    scratch_registry["m"] = Metric("m", "0.1.0", "config", "test metric", views=("sneaky",))
    with pytest.raises(ViewError, match="does not declare sets_counts"):
        score("a b", "a c", "en", metric="m")


def test_two_views_writing_one_detail_key_are_refused(scratch_registry):
    register_view(MetricView("one", lambda config, unit: True, lambda result, config: ViewResult({"x": 1})))
    register_view(MetricView("two", lambda config, unit: True, lambda result, config: ViewResult({"x": 2})))
    scratch_registry["m"] = Metric("m", "0.1.0", "config", "test metric", views=("one", "two"))
    with pytest.raises(ViewError, match=r"view 'two' writes details \['x'\]"):
        score("a b", "a c", "en", metric="m")


def test_unknown_view_names_the_known_ones(scratch_registry):
    scratch_registry["m"] = Metric("m", "0.1.0", "config", "test metric", views=("nope",))
    with pytest.raises(ViewError, match="unknown metric view 'nope'; known views: .*code_switch"):
        score("a", "a", "en", metric="m")


def test_a_second_view_under_a_taken_name_is_refused(scratch_registry):
    with pytest.raises(ViewError, match="already registered"):
        register_view(MetricView("code_switch", lambda config, unit: True, _unspaced_cer))


def test_every_shipped_metric_names_registered_views():
    for metric in METRICS.values():
        for name in metric.views:
            assert get_view(name).name == name


def test_code_switch_is_a_view_of_stt_wer_only_for_code_switch_languages():
    assert METRICS["stt_wer"].views == ("compounds", "code_switch", "loanwords", "spacing", "cer_views")
    assert METRICS["cer"].views == ("spacing", "cer_views")
    hindi = score("मेरी flight seven बजे है", "मेरी फ़्लाइट 7 बजे है", "hi")
    assert hindi.rate == 0.0 and hindi.details["strict_rate"] == 0.4
    assert "strict_rate" not in score("मेरी flight", "मेरी फ़्लाइट", "hi", metric="cer").details


def test_code_switch_builds_on_the_compounds_counts():
    """de runs both: a turn with a merged compound keeps the merged counts (its regions are
    not rescued), every other turn is rescued from its strict counts."""
    merged = score("die Daten Bank ist eleven", "die Datenbank ist 11", "de")
    assert merged.details["compounds"] and merged.details["code_switch"]["rescued_errors"] == 0
    assert (merged.errors, merged.reference_length, merged.details["strict_rate"]) == (1, 4, 0.6)
    corpus = score(["die Daten Bank ist gut", "wir haben eleven Tickets"],
                   ["die Datenbank ist gut", "wir haben 11 Tickets"], "de")
    assert corpus.rate == 0.0 and corpus.details["code_switch"]["rescued_errors"] == 1
    assert corpus.details["strict_errors"] == 3


def test_a_second_counting_view_must_declare_that_it_builds_on_counts():
    from pytest_asrbench.scoring.views.base import get_view

    assert get_view("code_switch").builds_on_counts and not get_view("compounds").builds_on_counts


# --- profiles: a view may read the pairs with a named normalizer profile ----------------------


def test_english_surface_profile_is_built_from_the_same_tables():
    from pytest_asrbench.normalize.registry import get_config, get_normalizer

    surface = get_normalizer("en", "surface")
    assert [step.name for step in surface.steps] == get_config("en").profiles["surface"].steps
    # the same [options.punctuation] table: $ and % stay, inner ' stays; no number rules
    assert surface("I'm paying $5, twenty-five %!") == "i'm paying $5 twenty-five %"
    assert get_normalizer("en")("I'm paying $5, twenty-five %!") == "i am paying $5 25%"
    assert get_normalizer("en", "surface") is surface  # cached per (language, profile)
    assert get_normalizer("en-GB", "surface") is surface


def test_unknown_profile_names_the_config_and_its_profiles():
    from pytest_asrbench.errors import ConfigError
    from pytest_asrbench.normalize.registry import get_normalizer

    with pytest.raises(ConfigError, match=r"en.toml: no profile 'surfac'; its profiles: surface"):
        get_normalizer("en", "surfac")
    with pytest.raises(ConfigError, match=r"de.toml: no profile 'surface'; its profiles: none"):
        get_normalizer("de", "surface")


def test_a_view_reads_pairs_with_its_profile():
    view = MetricView("surface_probe", lambda config, unit: True,
                      lambda score, config: ViewResult(), profile="surface")
    assert view.normalizer("en")("Twenty five") == "twenty five"
    assert MetricView("default_probe", lambda c, u: True, lambda s, c: ViewResult()).normalizer("en")("Twenty five") == "25"
