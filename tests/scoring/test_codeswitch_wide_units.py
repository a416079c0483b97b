"""A side's list of wide units, built chunk by chunk, says of every token what the side's
per-token :meth:`SideView.unit` says: ``None`` exactly where the unit is the token alone with
the token as its English view."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pytest_asrbench.normalize.registry import get_normalizer
from pytest_asrbench.scoring.views.codeswitch.sides import SideView, Unit
from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for
from tests.scoring.test_codeswitch_could_rescue import errored_token_pairs

ROOT = Path(__file__).resolve().parents[2]


def benchmark():
    spec = importlib.util.spec_from_file_location("codeswitch_benchmark", ROOT / "benchmarks/codeswitch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Sides whose chunks interact or whose English units hold tokens met elsewhere in the side.
EXTRA_SIDES = {
    "hi": ["25 हज़ार seven", "a b c डैश 1 2 3", "I'm not sure not", "twenty five मेरा five", "code कोड seven",
           "मेरा twenty five बजे I'm", "नेटवर्क seven सात 7"],
    "fr": ["I'm not sure merci not", "j'ai twenty two ans two", "il a dit three trois 3", "a las nine nine"],
    "es": ["la reunión es a las nine", "nine a las nine", "I don't know no sé"],
}


@pytest.mark.parametrize("language", ["hi", "de", "nl", "fr", "es", "it"])
def test_wide_units_list_agrees_with_each_tokens_unit(language):
    module = benchmark()
    pairs = module.make_turns(language, 600) + module.make_turns(language, 300, module.varied_vocabulary(language))
    sides = [side for pair in pairs for side in pair] + EXTRA_SIDES.get(language, [])
    rescuer = rescuer_for(language)[0]
    home = get_normalizer(language)
    wide_sides = 0
    for raw in sides:
        tokens = home(raw).split()
        side = SideView(raw, tokens, rescuer.hindi, rescuer.latin_views, rescuer.loanwords, rescuer.detection,
                        rescuer.side_chunks)
        listed = side.wide_units()
        each = SideView(raw, tokens, rescuer.hindi, rescuer.latin_views, rescuer.loanwords, rescuer.detection)
        for index, token in enumerate(tokens):
            unit = each.unit(index)
            if listed[index] is None:
                assert unit == Unit(index, index + 1, (token,)), (raw, index)
            else:
                assert listed[index] == unit, (raw, index)
        wide_sides += any(unit is not None for unit in listed)
    assert wide_sides > len(sides) / 10  # the sides do hold wide units


@pytest.mark.parametrize("language", ["hi", "fr", "es"])
def test_a_region_whose_units_lie_within_it_is_not_widened(language):
    from pytest_asrbench import score
    from pytest_asrbench.scoring.views.codeswitch.rescue import _ColumnIndex, _within, span_regions

    module = benchmark()
    pairs = module.make_turns(language, 600) + [(raw, raw.replace("five", "5").replace("not", "nut"))
                                                for raw in EXTRA_SIDES.get(language, [])]
    result = score([reference for reference, _ in pairs], [hypothesis for _, hypothesis in pairs], language)
    rescuer = rescuer_for(language)[0]
    within = widened = 0
    for pair, reference, hypothesis in errored_token_pairs(result):
        ref_view, hyp_view = (SideView(raw, tokens, rescuer.hindi, rescuer.latin_views, rescuer.loanwords,
                                       rescuer.detection) for raw, tokens in
                              ((pair.scored_reference, reference), (pair.hypothesis, hypothesis)))
        column_index = _ColumnIndex(pair.spans)
        for region in span_regions(pair.spans):
            bounds = rescuer._widen(region, column_index.columns, column_index, ref_view, hyp_view)
            if _within(ref_view.wide_units(), region.ref_indices) and _within(hyp_view.wide_units(),
                                                                              region.hyp_indices):
                assert bounds == (region.start, region.end), (pair.scored_reference, pair.hypothesis)
                within += 1
            else:
                widened += bounds != (region.start, region.end)
    assert within and widened  # both kinds of region were met
