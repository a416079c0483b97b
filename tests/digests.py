"""Output digests of a normalizer, and the texts of a language's case files they are taken on.

Shared by the tests that pin outputs through speed work (``test_cjk_thai_output_identity.py``:
the zh, ja, ko and th reviewer normalizers; ``test_frozen_profiles.py``: the frozen cleanings
zh-eval-v1 and th-bench-v1): one walk over the case files, one digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
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


def outputs_digest(normalize: Callable[[str], str], texts: Iterable[str]) -> str:
    """SHA-256 (hex) of the JSON list of ``normalize(text)`` for ``texts``, in order."""
    return hashlib.sha256(json.dumps([normalize(text) for text in texts], ensure_ascii=False)
                          .encode("utf-8")).hexdigest()
