"""Output digests of a normalizer, the texts of a language's case files they are taken on, and
the files that record them.

Shared by the tests that pin outputs through speed work (``test_cjk_thai_output_identity.py``:
the zh, ja, ko and th reviewer normalizers; ``test_european_output_identity.py``: de, nl, fr, es,
it; ``test_english_output_identity.py``; ``test_frozen_profiles.py``: the frozen cleanings
zh-eval-v1 and th-bench-v1): one walk over the case files, one digest, one recorded-digests
file format (:class:`RecordedDigests`: compared by the tests, written by each module's
``python -m tests.<module>``), one check that a seeded generator reaches what a normalizer
changes (:func:`assert_generator_reaches`). The score-level sweeps over a benchmark's seeded
turns (``test_codeswitch_latin_outputs.py``, ``test_loanword_outputs.py``) load the benchmark
script with :func:`benchmark_module` and pin :func:`score_digest`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path


def case_texts(cases_dir: Path, language: str) -> list[str]:
    """Every string value, at any depth, of ``cases_dir/<language>/*.yaml`` (sorted, deduplicated):
    references, hypotheses, texts, and also names and notes (more inputs, never fewer)."""
    import yaml

    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted((cases_dir / language).glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return sorted(found)


def normalizer(language: str, profile: str | None = None) -> Callable[[str], str]:
    """The normalizer whose outputs are pinned: the language's reviewer normalizer, or one of
    its named profiles."""
    from pytest_asrbench.normalize.registry import get_normalizer

    return get_normalizer(language) if profile is None else get_normalizer(language, profile=profile)


def outputs_digest(normalize: Callable[[str], str], texts: Iterable[str]) -> str:
    """SHA-256 (hex) of the JSON list of ``normalize(text)`` for ``texts``, in order."""
    return hashlib.sha256(json.dumps([normalize(text) for text in texts], ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RecordedDigests:
    """A JSON file of recorded output digests beside the tests: ``case_texts`` (the case texts
    the digests were taken on, a list or ``{key: list}``), ``random`` (the seeded generator's
    ``{"seed", "count"}``), other inputs' parameters, and ``digests``: ``{input: digest}`` or
    ``{input: {key: digest}}`` (a key per language or profile)."""

    path: Path

    def load(self) -> dict:
        return json.loads(self.path.read_text(encoding="utf-8"))

    def case_texts(self, key: str | None = None, *, more_than: int) -> list[str]:
        """The recorded case texts (of ``key``), checked to be more than ``more_than``."""
        texts = self.load()["case_texts"]
        texts = texts if key is None else texts[key]
        assert len(texts) > more_than, (self.path.name, key, len(texts))
        return texts

    def check_input(self, name: str, texts: list[str] | None = None, **parameters) -> None:
        """The input ``name`` is still made as recorded (``seed=``, ``count=`` ...), and
        ``texts``, when given, has the recorded ``count``."""
        assert self.load()[name] == parameters, (self.path.name, name)
        if texts is not None and "count" in parameters:
            assert len(texts) == parameters["count"], (self.path.name, name, len(texts))

    def assert_unmoved(self, name: str, normalize: Callable[[str], str], texts: Iterable[str],
                       key: str | None = None) -> None:
        """``normalize``'s outputs on ``texts`` have the digest recorded for input ``name`` (and ``key``)."""
        recorded = self.load()["digests"][name]
        assert outputs_digest(normalize, texts) == (recorded if key is None else recorded[key]), (name, key)

    def write(self, record: dict) -> None:
        """Re-record the file (only from code whose outputs are meant to be the reference)."""
        self.path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def assert_generator_reaches(normalize: Callable[[str], str], texts: list[str], *, changed_more_than: int,
                             gained_a_digit_more_than: int | None = None, label: object = None) -> None:
    """A seeded generator is not inert: ``normalize`` changes more than ``changed_more_than`` of
    ``texts``, and (when given) more than ``gained_a_digit_more_than`` outputs have a digit their
    input lacks (numbers were read)."""
    outputs = [normalize(text) for text in texts]
    assert sum(out != text for out, text in zip(outputs, texts)) > changed_more_than, label
    if gained_a_digit_more_than is not None:
        assert sum(any(ch.isdigit() for ch in out) and not any(ch.isdigit() for ch in text)
                   for out, text in zip(outputs, texts)) > gained_a_digit_more_than, label


def benchmark_module(script: str):
    """The module of ``benchmarks/<script>`` (its seeded turn generators), loaded from the file."""
    spec = importlib.util.spec_from_file_location(Path(script).stem + "_benchmark",
                                                  Path(__file__).resolve().parents[1] / "benchmarks" / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def score_digest(result) -> str:
    """SHA-256 of a :class:`~pytest_asrbench.scoring.Score`'s counts and ``details`` (canonical JSON)."""
    blob = json.dumps({"counts": [result.hits, result.substitutions, result.deletions, result.insertions,
                                  result.reference_length], "details": result.details},
                      sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()
