"""Text normalization: a pipeline of named steps per language, built from configs/<lang>.toml."""

from pytest_asrbench.normalize.registry import explain, get_normalizer, known_languages, normalize_text

__all__ = ["explain", "get_normalizer", "known_languages", "normalize_text"]
