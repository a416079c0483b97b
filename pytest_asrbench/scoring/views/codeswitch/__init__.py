"""Code-switching: second-language words inside a turn, re-checked after the home alignment.

- :mod:`.detect` -- how a word's language is told: by script (hi) or by word frequency (de,
  nl, fr, es, it: English in the same script).
- :mod:`.matchers` -- the registry of cross-script word matchers, by config name.
- :mod:`.phonetic` -- the Latin/Devanagari consonant-key matcher (नेटवर्क = network).
- :mod:`.scripts` -- the script of a word (Latin, Devanagari, neutral, other).
- :mod:`.sides` -- the English view of one side, tied to its home-language tokens.
- :mod:`.rescue` -- error regions and the rules that rescue one.
- :mod:`.view` -- the ``code_switch`` metric view: the aware score and its ``details``.
- :mod:`.kana_hangul` -- the Latin/katakana and Latin/Hangul consonant-key matcher
  (Figma = フィグマ = 피그마).
- :mod:`.loanwords` -- the ``loanwords`` metric view of Japanese and Korean: a matched Latin
  name counts as the reference's spelling (``loanword_matcher`` in the config).

Turned on per language by ``code_switch_languages`` and ``code_switch_detection`` (and
``code_switch_matcher``) in the config; the ``stt_wer`` metric lists the view, which applies
only to such languages (docs/code_switching.md).
"""

from pytest_asrbench.scoring.views.codeswitch.phonetic import PhoneticMatcher, PhoneticVerdict
from pytest_asrbench.scoring.views.codeswitch.kana_hangul import LoanwordMatcher, LoanwordVerdict
from pytest_asrbench.scoring.views.codeswitch.loanwords import LOANWORDS, loanword_view, rescue_pair
from pytest_asrbench.scoring.views.codeswitch.view import CODE_SWITCH, code_switch_view

__all__ = ["CODE_SWITCH", "LOANWORDS", "LoanwordMatcher", "LoanwordVerdict", "PhoneticMatcher", "PhoneticVerdict",
           "code_switch_view", "loanword_view", "rescue_pair"]
