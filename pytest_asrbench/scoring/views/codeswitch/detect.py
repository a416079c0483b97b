"""How the code-switch rescue tells a word's language: by script, or by a word-frequency lexicon.

Every word (a raw word of a side, or a normalized token) falls in one class:

- ``"second"``: a word of the second language (English);
- ``"home"``: a word of the config's own language;
- ``"neutral"``: no letters (digits, symbols): either language's;
- ``"other"``: letters of a third script, or of two scripts in one word (a transcription fault).

Two detections, chosen by the config's ``code_switch_detection``:

- :class:`ScriptDetection` (``"script"``, Hindi): the second language is the Latin-script
  words, the home language the words of the home script (Devanagari).
- :class:`LexiconDetection` (``"lexicon"``, de, nl, fr, es, it: English in the same
  script): a Latin word is English when its Zipf frequency in English exceeds its Zipf
  frequency in the home language by at least ``code_switch_zipf_margin``, looked up in the
  frequency lists of the pinned ``wordfreq`` library (docs/code_switching.md says why this
  source), and it is not one of the config's ``code_switch_home_words``. Words of both
  languages (de "die", "will", "also"; fr "ma", "son"; es "me"; nl "of"; it "come") are so
  the home language's: the rescue never treats them as English.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.scoring.views.codeswitch.scripts import word_script

WordClass = Literal["home", "second", "neutral", "other"]

#: The home script of each language detected by script (names of :mod:`.scripts`).
HOME_SCRIPTS = {"hi": "devanagari"}

# Edge characters a raw word may carry that are no part of the word's spelling.
_EDGE_PUNCTUATION = "\"'.,;:!?()[]{}«»„“”‚‘’¿¡…-–—/"


class ScriptDetection:
    """Latin-script words are the second language's; words of ``home_script`` the home language's
    (verdicts memoized per word).

    A home-script token can only come from a home-script chunk of the raw text (the home
    normalizer writes a Latin chunk in Latin, apart from lexicon loanwords, which the side
    view checks on its own), so such a token is its own unit in the English view.
    """

    name = "script"
    home_tokens_are_own_units = True
    # Hindi's rescue compares regions only (its outputs are pinned); see LexiconDetection.
    context_view = False

    def __init__(self, home_script: str):
        self.home_script = home_script
        self.classify = lru_cache(maxsize=1 << 16)(self._classify)

    def _classify(self, word: str) -> WordClass:
        script = word_script(word)
        if script == "latin":
            return "second"
        if script == "neutral":
            return "neutral"
        if script == self.home_script:
            return "home"
        return "other"


class LexiconDetection:
    """Same-script languages: a Latin word is the second language's by word frequency.

    ``home`` and ``second`` are language tags of the frequency lists; ``margin`` the Zipf
    difference a second-language word needs; ``home_words`` words always the home
    language's (compared lowercased, edge punctuation stripped). Verdicts are memoized per
    word.
    """

    name = "lexicon"
    # A home-language token can come out of an English chunk (the home normalizer may write
    # an English word as a word of both languages), so no token is taken as its own unit
    # without the side's chunk map.
    home_tokens_are_own_units = False
    # The home rules read across an English word (es "a las nine" -> "a las 9:00"): a region
    # that fails alone is tried again with the whole turn's English view (rescue.py).
    context_view = True

    def __init__(self, home: str, second: str, margin: float, home_words=()):
        try:
            from wordfreq import zipf_frequency
        except ImportError as error:  # a core dependency: only a broken install lacks it
            raise ConfigError(f"{home}: code_switch_detection 'lexicon' needs the wordfreq library; "
                              "reinstall pytest-asrbench (pip install -e .)") from error
        self.home = home
        self.second = second
        self.margin = margin
        self.home_words = frozenset(word.lower() for word in home_words)
        self._zipf = zipf_frequency
        self.classify = lru_cache(maxsize=1 << 16)(self._classify)

    def _classify(self, word: str) -> WordClass:
        script = word_script(word)
        if script == "neutral":
            return "neutral"
        if script != "latin":
            return "other"
        bare = word.strip(_EDGE_PUNCTUATION).lower()
        if not bare or bare in self.home_words:
            return "home"
        if self._zipf(bare, self.second) - self._zipf(bare, self.home) >= self.margin:
            return "second"
        return "home"

    def frequencies(self, word: str) -> tuple[float, float]:
        """``(Zipf in the second language, Zipf in the home language)`` of ``word``, for audit."""
        bare = word.strip(_EDGE_PUNCTUATION).lower()
        return self._zipf(bare, self.second), self._zipf(bare, self.home)


def build_detection(config):
    """The detection ``config`` names in ``code_switch_detection``.

    Raises:
        ConfigError: script detection for a language with no known home script.
    """
    second = config.code_switch_languages[0]
    if config.code_switch_detection == "script":
        if config.language not in HOME_SCRIPTS:
            raise ConfigError(f"{config.language}: code_switch_detection 'script' needs the language's home "
                              f"script in HOME_SCRIPTS (scoring/views/codeswitch/detect.py); known: "
                              f"{sorted(HOME_SCRIPTS)}")
        return ScriptDetection(HOME_SCRIPTS[config.language])
    return LexiconDetection(config.language, second, config.code_switch_zipf_margin, config.code_switch_home_words)
