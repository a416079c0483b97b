"""pytest-asrbench: speech-recognition evaluation as pytest cases.

Public API:

- :func:`normalize_text` -- the normalized form of a text used for scoring.
- :func:`explain` -- every named step of a language's normalizer with its output.
- :func:`score` -- WER/CER of one reference/hypothesis pair or a corpus of them.
"""

from pytest_asrbench.normalize import explain, normalize_text
from pytest_asrbench.scoring import Score, score

__version__ = "0.1.0"

__all__ = ["Score", "__version__", "explain", "normalize_text", "score"]
