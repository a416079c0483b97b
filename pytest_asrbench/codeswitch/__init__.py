"""Code-switching: English words inside Hindi speech, re-checked after the Hindi alignment.

- :mod:`.phonetic` -- the Latin/Devanagari consonant-key matcher (नेटवर्क = network).
- :mod:`.scripts` -- the script of a word (Latin, Devanagari, neutral, other).
- :mod:`.views` -- the English view of one side, tied to its Hindi tokens.
- :mod:`.rescue` -- error regions and the rules that rescue one.
- :mod:`.summary` -- the aware score and its ``details``.

Turned on per language by ``code_switch_languages`` (and ``code_switch_phonetic``) in the
config; :func:`pytest_asrbench.scoring.score` calls :func:`apply_code_switch` only then.
"""

from pytest_asrbench.codeswitch.phonetic import PhoneticMatcher, PhoneticVerdict
from pytest_asrbench.codeswitch.summary import apply_code_switch

__all__ = ["PhoneticMatcher", "PhoneticVerdict", "apply_code_switch"]
