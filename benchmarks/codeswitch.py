"""Cost of the code-switch rescuer: the same turns scored with and without it, side by side.

Generates ``--turns`` code-switched reference/hypothesis pairs per language (deterministic
seed). Hindi: Hindi carrier sentences with English words in Latin or Devanagari, and
hypotheses that switch scripts (नेटवर्क -> network), write English numbers as digits
(seven -> 7), expand contractions, or make real errors. de, nl, fr, es, it: carrier
sentences of the language with English number words, contractions and words, and hypotheses
that write the numbers as digits, expand the contractions, translate a number into the home
language, or make real errors (substitutions, deletions, insertions). Then, in one process
and alternating ``--repeat`` times:

- *plain*: ``score()`` with ``stt_wer``'s views but the rescue (normalize both sides, align,
  count, and the metric's other views: the compounds view in de and nl);
- *rescued*: ``score(..., language)``, the full code-switch-aware score, with the rescue's
  memo caches cleared first (each repeat pays what one run of the turns pays).

ja and ko: the loanword benchmark's turns (``loanwords.py``: a name in Latin against its
katakana or Hangul); their rescue is the ``loanwords`` view (the plain arm keeps Korean's
spacing view).

Every turn of these is code-switched, a worst case: a real test set is mostly monolingual
turns with a few code-switched ones. ``--monolingual SHARE`` makes that share of the turns
monolingual instead (the home language's carrier words with the same real errors; ja, ko: the
carriers with a native noun where the name was), the rest drawn as above, one seeded mix.
Each run also says how the rescue's turns divide: without an error, with errors but no
second-language word, with such a word but no error region whose words meet a rescue's
conditions (``Rescuer.could_rescue``: no side view is built), and the rest.

Reports the best time of each as turns/s and the ratio (targets: Hindi at most 1.3x, every
other language at most 1.5x). Times are this process's CPU time (``time.process_time``), so
other programs on a shared machine do not slow one arm and not the other; the arms
alternate which goes first.

``--varied`` draws hi and the same-script languages' words from hundreds per slot instead of the
small default lists (:func:`varied_vocabulary`: wordfreq's most frequent home and English words,
every English number from 1 to 99): the default turns repeat their error regions far more than a
real test set would (5,000 turns hold about 100-250 distinct region verdicts; the varied ones
about 1,000-1,250 in de, nl, fr, es, it), which flatters every memo of the rescue.

``--arm plain|rescued|none`` runs one arm once and prints nothing else, for counting
instructions, which a shared machine's load does not move: run it under
``valgrind --tool=cachegrind --cache-sim=no`` three times (``none`` generates the turns and warms
both normalizers, as the other two do first) and subtract ``none`` from each arm.

    python benchmarks/codeswitch.py [--languages hi de nl fr es it ja ko] [--turns 10000] [--repeat 3]
                                    [--monolingual 0.9] [--varied] [--arm plain|rescued|none]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from pytest_asrbench import score
from pytest_asrbench._shared import caches
from pytest_asrbench.scoring.metrics import METRICS, get_metric

# English words as a Hindi speaker's reference may write them, and as an STT may.
ENGLISH = [("नेटवर्क", "network"), ("प्रॉब्लम", "problem"), ("कन्फर्म", "confirm"), ("मैनेजर", "manager"),
           ("बुकिंग", "booking"), ("पासवर्ड", "password"), ("ट्रांसफर", "transfer"), ("डॉलर", "dollar"),
           ("टिकट", "ticket"), ("होटल", "hotel"), ("अपॉइंटमेंट", "appointment"), ("नंबर", "number"),
           ("कोड", "code"), ("टाइम", "time"), ("फ़्लाइट", "flight")]
NUMBERS = [("seven", "7"), ("twenty five", "25"), ("eleven", "11"), ("three", "3")]
HINDI = ["मेरा", "मेरी", "आप", "कृपया", "है", "हैं", "चाहिए", "करना", "कल", "आज", "बजे", "की", "में", "से",
         "क्या", "नहीं", "ठीक", "बात", "जल्दी", "फिर"]
TEMPLATES = [
    "{h} {e} {h} {h}",
    "{h} {e} {e} {h} {h}",
    "{h} {n} बजे {h} {e} {h}",
    "I'm not sure {h} {h} {e} {h}",
    "{h} {h} {e} {h} {n} {h} {h}",
    "{h} {e} {h}",
]


def home_word(rng: random.Random, vocabulary: list[str], ref_words: list[str], hyp_words: list[str]) -> None:
    """Append one home-language word to the reference and its transcript: kept as said, or (6%,
    3%, 2% of the time) a real substitution, a deletion or an insertion after it."""
    word = rng.choice(vocabulary)
    ref_words.append(word)
    roll = rng.random()
    if roll < 0.06:
        hyp_words.append(rng.choice(vocabulary))  # a real substitution
    elif roll < 0.09:
        pass  # a deletion
    elif roll < 0.11:
        hyp_words.extend([word, rng.choice(vocabulary)])  # an insertion
    else:
        hyp_words.append(word)


def make_pair(rng: random.Random, vocabulary: Vocabulary | None = None) -> tuple[str, str]:
    """One code-switched Hindi turn and a transcript of it (``vocabulary``: the words drawn
    from; the benchmark's small default lists when ``None``)."""
    home, english, numbers = (HINDI, ENGLISH, NUMBERS) if vocabulary is None else (
        vocabulary.home, vocabulary.english, vocabulary.numbers)
    template = rng.choice(TEMPLATES)
    ref_words: list[str] = []
    hyp_words: list[str] = []
    for piece in template.split():
        if piece == "{h}":
            home_word(rng, home, ref_words, hyp_words)
        elif piece == "{e}":
            devanagari, latin = rng.choice(english)
            ref_words.append(rng.choice((devanagari, latin)))
            hyp_words.append(rng.choice((devanagari, latin, latin)) if rng.random() < 0.9 else "fight")
        elif piece == "{n}":
            words, digits = rng.choice(numbers)
            ref_words.append(words)
            hyp_words.append(rng.choice((digits, words)))
        else:
            ref_words.append(piece)
            hyp_words.append(piece if piece != "I'm" else rng.choice(("I'm", "I am")))
    return " ".join(ref_words), " ".join(hyp_words)


class Vocabulary(NamedTuple):
    """The words a turn draws its slots from: ``home`` carrier words, ``english`` pairs
    ``(home-script spelling, Latin spelling)`` (the same word twice when there is no
    home-script one) and ``numbers`` pairs ``(English number words, digits)``."""

    home: list[str]
    english: list[tuple[str, str]]
    numbers: list[tuple[str, str]]


_ONES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def english_numbers() -> list[tuple[str, str]]:
    """``(words, digits)`` of every English number from 1 to 99 (``forty two``, ``42``)."""
    numbers = [(word, str(value)) for value, word in enumerate(_ONES, 1)]
    for ten, tens_word in enumerate(_TENS, 2):
        numbers.append((tens_word, str(ten * 10)))
        numbers.extend((f"{tens_word} {one}", str(ten * 10 + value)) for value, one in enumerate(_ONES[:9], 1))
    return numbers


def varied_vocabulary(language: str, home_count: int = 400, english_count: int = 600) -> Vocabulary:
    """Many more words per slot than the default lists, so that error regions repeat about as
    often as a real code-switched test set's might: the ``home_count`` most frequent words of
    the home language and the ``english_count`` most frequent English words (wordfreq's
    lists, the library the same-script detection reads) that the rescue's own detection
    classes as home and as English, and every English number from 1 to 99. Hindi keeps its
    Devanagari spellings of English words (the default pairs and the ``loanwords`` lexicon)
    beside Latin-only English words."""
    from wordfreq import top_n_list

    from pytest_asrbench.normalize.registry import get_lexicons
    from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for

    classify = rescuer_for(language)[0].classify  # the rescue's own word classes
    home = [word for word in top_n_list(language, home_count * 3) if classify(word) == "home"][:home_count]
    latin = [word for word in top_n_list("en", english_count * 3)
             if word.isalpha() and classify(word) == "second"][:english_count]
    english = [(word, word) for word in latin]
    if language == "hi":  # half the English words have a Devanagari spelling, as in the default list
        spelled = ENGLISH + [(devanagari, word) for word, devanagari in sorted(get_lexicons("hi")["loanwords"].items())]
        english = spelled + english[:len(spelled)]
    return Vocabulary(home, english, english_numbers())


# Same-script languages: carrier words, the home number words (a translation of an English
# number), and the sentence templates. {h} a home word, {n} an English number, {c} an English
# contraction, {e} an English word.
LATIN = {
    "de": (["wir", "haben", "ich", "brauche", "heute", "morgen", "die", "Tickets", "bitte", "noch", "für", "das",
            "Meeting", "ist", "um", "also", "will"], {"seven": "sieben", "eleven": "elf", "three": "drei"}),
    "nl": (["we", "hebben", "ik", "heb", "vandaag", "morgen", "de", "tickets", "graag", "nog", "voor", "het",
            "meeting", "is", "om", "of", "door"], {"seven": "zeven", "eleven": "elf", "three": "drie"}),
    "fr": (["nous", "avons", "j'ai", "besoin", "aujourd'hui", "demain", "les", "billets", "merci", "encore", "pour",
            "le", "meeting", "est", "à", "ma", "son"], {"seven": "sept", "eleven": "onze", "three": "trois"}),
    "es": (["tenemos", "necesito", "hoy", "mañana", "los", "boletos", "gracias", "todavía", "para", "el",
            "meeting", "es", "a", "las", "me", "come"], {"seven": "siete", "eleven": "once", "three": "tres"}),
    "it": (["abbiamo", "ho", "bisogno", "oggi", "domani", "i", "biglietti", "grazie", "ancora", "per", "il",
            "meeting", "è", "alle", "come", "due"], {"seven": "sette", "eleven": "undici", "three": "tre"}),
}
LATIN_NUMBERS = [("seven", "7"), ("twenty five", "25"), ("eleven", "11"), ("three", "3"), ("forty two", "42")]
CONTRACTIONS = [("I'm", "I am"), ("don't", "do not"), ("it's", "it is"), ("you're", "you are"), ("can't", "cannot")]
LATIN_ENGLISH = ["sorry", "welcome", "deadline", "great", "okay", "thanks"]
LATIN_TEMPLATES = [
    "{h} {h} {n} {h}",
    "{h} {c} {e} {h} {h}",
    "{h} {h} {h} {n} {h} {h}",
    "{c} {e} {h} {h} {n}",
    "{h} {e} {h} {h} {h}",
]


def make_latin_pair(rng: random.Random, language: str, vocabulary: Vocabulary | None = None) -> tuple[str, str]:
    """One code-switched turn of a same-script ``language`` and a transcript of it
    (``vocabulary``: the words drawn from; the small default lists when ``None``)."""
    home, translations = LATIN[language]
    numbers, english = LATIN_NUMBERS, LATIN_ENGLISH
    if vocabulary is not None:
        home, numbers, english = vocabulary.home, vocabulary.numbers, [latin for _, latin in vocabulary.english]
    ref_words: list[str] = []
    hyp_words: list[str] = []
    for piece in rng.choice(LATIN_TEMPLATES).split():
        if piece == "{h}":
            home_word(rng, home, ref_words, hyp_words)
        elif piece == "{n}":
            words, digits = rng.choice(numbers)
            ref_words.append(words)
            roll = rng.random()
            hyp_words.append(translations.get(words, digits) if roll < 0.1 else digits if roll < 0.8 else words)
        elif piece == "{c}":
            short, long = rng.choice(CONTRACTIONS)
            ref_words.append(short)
            hyp_words.append(rng.choice((short, long, long)))
        else:
            word = rng.choice(english)
            ref_words.append(word)
            hyp_words.append(word if rng.random() < 0.9 else "great" if word != "great" else "grade")
    return " ".join(ref_words), " ".join(hyp_words)


#: The rescue views: what the plain arm leaves out of ``stt_wer``.
RESCUE_VIEWS = ("code_switch", "loanwords")
PLAIN_METRIC = "stt_wer_without_rescue"


def plain_metric() -> str:
    """The name of ``stt_wer`` without its rescue views, registered in this process only (a
    benchmark's metric: no score of the package uses it), so the plain arm runs the very
    code path of ``score()``: the normalizer fetched once, a pair with equal sides
    normalized once, the other views (compounds in de and nl, spacing in ko) kept."""
    stt_wer = get_metric("stt_wer")
    METRICS[PLAIN_METRIC] = replace(stt_wer, name=PLAIN_METRIC,
                                    views=tuple(view for view in stt_wer.views if view not in RESCUE_VIEWS))
    return PLAIN_METRIC


def plain_score(references: list[str], hypotheses: list[str], language: str = "hi"):
    """The score without the rescue views: ``score()`` with :func:`plain_metric`."""
    return score(references, hypotheses, language, metric=plain_metric())


TARGETS = {"hi": 1.3}
DEFAULT_TARGET = 1.5
#: Languages whose rescue is the loanword view (a Latin name against katakana or Hangul): their
#: turns and plain arm are the loanword benchmark's (``loanwords.py``).
LOANWORD_LANGUAGES = ("ja", "ko")


def loanword_benchmark():
    """``benchmarks/loanwords.py`` as a module (its turn generator)."""
    spec = importlib.util.spec_from_file_location("loanwords_benchmark", Path(__file__).with_name("loanwords.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_turns(language: str, turns: int, vocabulary: Vocabulary | None = None) -> list[tuple[str, str]]:
    """The benchmark's ``turns`` seeded pairs of ``language``, every one code-switched
    (``vocabulary``: see :func:`make_pair`; ja and ko always draw the loanword benchmark's)."""
    rng = random.Random(2026)
    if language in LOANWORD_LANGUAGES:
        generator = loanword_benchmark().make_pair
        return [generator(rng, language) for _ in range(turns)]
    return [code_switched_pair(rng, language, vocabulary) for _ in range(turns)]


def code_switched_pair(rng: random.Random, language: str, vocabulary: Vocabulary | None = None) -> tuple[str, str]:
    """One code-switched turn of ``language`` (hi or a same-script language)."""
    return make_pair(rng, vocabulary) if language == "hi" else make_latin_pair(rng, language, vocabulary)


#: Carrier words of a monolingual turn: the code-switched turns' home words less the English
#: loans among them (de "Meeting", "Tickets"); ja and ko: native nouns for the name's slot.
MONOLINGUAL_WORDS = {
    "hi": HINDI,
    **{language: [word for word in words if word.lower() not in ("meeting", "tickets")]
       for language, (words, _) in LATIN.items()},
    "ja": ["資料", "会議", "予定", "書類", "写真"],
    "ko": ["자료", "회의", "일정", "서류", "사진"],
}


def make_monolingual_pair(rng: random.Random, language: str, vocabulary: Vocabulary | None = None) -> tuple[str, str]:
    """One turn of ``language`` alone and a transcript of it: 3 to 7 carrier words with the
    code-switched turns' real errors (``home_word``; ``vocabulary.home`` when given); ja, ko:
    a loanword carrier with a native noun in each name slot and the same one-character error
    rate."""
    words = MONOLINGUAL_WORDS[language] if vocabulary is None else vocabulary.home
    if language in LOANWORD_LANGUAGES:
        loanwords = loanword_benchmark()
        reference = rng.choice(loanwords.CARRIERS[language]).format(n=rng.choice(words), m=rng.choice(words))
        hypothesis = reference
        if rng.random() < 0.2:  # a real character error
            index = rng.randrange(len(hypothesis))
            hypothesis = hypothesis[:index] + rng.choice(loanwords.NOISE[language]) + hypothesis[index + 1:]
        return reference, hypothesis
    ref_words: list[str] = []
    hyp_words: list[str] = []
    for _ in range(rng.randint(3, 7)):
        home_word(rng, words, ref_words, hyp_words)
    return " ".join(ref_words), " ".join(hyp_words)


def make_mixed_turns(language: str, turns: int, monolingual: float,
                     vocabulary: Vocabulary | None = None) -> list[tuple[str, str]]:
    """``turns`` seeded pairs of ``language``, a share ``monolingual`` (0 to 1) of them
    monolingual (:func:`make_monolingual_pair`), the others code-switched as in
    :func:`make_turns`, in one seeded order.

    Raises:
        SystemExit: ``monolingual`` is outside [0, 1].
    """
    if not 0 <= monolingual <= 1:
        raise SystemExit(f"--monolingual takes a share between 0 and 1, got {monolingual}")
    rng = random.Random(2026)
    code_switched = loanword_benchmark().make_pair if language in LOANWORD_LANGUAGES else None
    pairs = []
    for _ in range(turns):
        if rng.random() < monolingual:
            pairs.append(make_monolingual_pair(rng, language, vocabulary))
        elif code_switched is not None:
            pairs.append(code_switched(rng, language))
        else:
            pairs.append(code_switched_pair(rng, language, vocabulary))
    return pairs


def turn_shares(result, language: str) -> dict[str, int]:
    """How the code-switch view's turns of ``result`` (a rescued ``stt_wer`` score) divide:
    ``no_error``, ``no_second_language`` (errors, no second-language word on either side),
    ``no_candidate_region`` (no error region meets :meth:`Rescuer.could_rescue`: no side view
    built), ``looked_at`` (the rest, whose regions the rescuer checks)."""
    from pytest_asrbench.scoring.views.codeswitch.rescue import span_regions
    from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for

    rescuer = rescuer_for(language)[0]
    shares = dict.fromkeys(("no_error", "no_second_language", "no_candidate_region", "looked_at"), 0)
    for pair in result.pairs:
        reference, hypothesis = pair.normalized_reference.split(), pair.normalized_hypothesis.split()
        if not pair.errors:
            shares["no_error"] += 1
        elif not any(map(rescuer.is_second, reference + hypothesis)):
            shares["no_second_language"] += 1
        elif not any(rescuer.could_rescue([reference[i] for i in region.ref_indices],
                                          [hypothesis[i] for i in region.hyp_indices])
                     for region in span_regions(pair.spans)):
            shares["no_candidate_region"] += 1
        else:
            shares["looked_at"] += 1
    return shares


def rescued_score(references: list[str], hypotheses: list[str], language: str):
    """The full score, with the rescue's memo caches cleared first: each repeat pays what one
    run of these turns pays, never reusing an earlier repeat's answers."""
    caches.reset_from_configs()
    return score(references, hypotheses, language)


def benchmark_turns(language: str, turns: int, monolingual: float | None,
                    varied: bool) -> tuple[list[str], list[str]]:
    """The references and hypotheses of one language's turns (seeded), both normalizers warmed."""
    vocabulary = None
    if varied and language in LOANWORD_LANGUAGES:
        print(f"[{language}] --varied: the loanword benchmark's turns, whose vocabulary does not change")
    elif varied:
        vocabulary = varied_vocabulary(language)
        print(f"[{language}] varied vocabulary: {len(vocabulary.home)} home words, {len(vocabulary.english)} English "
              f"words, {len(vocabulary.numbers)} numbers")
    pairs = (make_turns(language, turns, vocabulary) if monolingual is None
             else make_mixed_turns(language, turns, monolingual, vocabulary))
    if monolingual is not None:
        print(f"[{language}] monolingual share: {monolingual:.0%} of the turns")
    references = [reference for reference, _ in pairs]
    hypotheses = [hypothesis for _, hypothesis in pairs]
    score(references[:10], hypotheses[:10], language)  # build and cache both normalizers first
    return references, hypotheses


def run_one_arm(language: str, turns: int, arm: str, monolingual: float | None, varied: bool) -> None:
    """One arm once (``none``: only the turns and the warm-up), for an instruction count."""
    references, hypotheses = benchmark_turns(language, turns, monolingual, varied)
    if arm == "plain":
        plain_score(references, hypotheses, language)
    elif arm == "rescued":
        rescued_score(references, hypotheses, language)


def measure(language: str, turns: int, repeat: int, monolingual: float | None = None, varied: bool = False) -> None:
    references, hypotheses = benchmark_turns(language, turns, monolingual, varied)
    best = {"plain": float("inf"), "rescued": float("inf")}
    results = {}
    arms = [("plain", lambda r, h: plain_score(r, h, language)), ("rescued", lambda r, h: rescued_score(r, h, language))]
    for round_index in range(repeat):
        for name, function in arms if round_index % 2 == 0 else arms[::-1]:
            start = time.process_time()
            results[name] = function(references, hypotheses)
            best[name] = min(best[name], time.process_time() - start)

    plain, rescued = results["plain"], results["rescued"]
    target = TARGETS.get(language, DEFAULT_TARGET)
    ratio = best["rescued"] / best["plain"]
    if language in LOANWORD_LANGUAGES:
        if rescued.rate > plain.rate:
            raise SystemExit(f"{language}: the rescue raised the rate: {plain.rate} -> {rescued.rate}")
        loanwords = rescued.details["loanwords"]
        print(f"[{language}] turns: {turns}  repeat: {repeat} (best of)  CER {plain.rate:.4f} -> {rescued.rate:.4f}  "
              f"rescued {loanwords['rescued_errors']} errors in {len(loanwords['rescues'])} names")
    else:
        report_code_switch(language, turns, repeat, plain, rescued)
        shares = turn_shares(rescued, language)
        print(f"[{language}] turns: " + ", ".join(f"{name.replace('_', ' ')} {count} ({count / turns:.0%})"
                                                  for name, count in shares.items()))
    for name in ("plain", "rescued"):
        print(f"[{language}] {name:<8} {best[name]:.3f} s CPU  {turns / best[name]:,.0f} turns/s")
    print(f"[{language}] ratio rescued/plain: {ratio:.2f}x (target <= {target}x: {'met' if ratio <= target else 'NOT met'})")


def report_code_switch(language: str, turns: int, repeat: int, plain, rescued) -> None:
    """Check that both arms agree on the strict errors and print the code-switch figures."""
    strict_errors = sum(pair.errors for pair in plain.pairs)
    if strict_errors != rescued.details["strict_errors"]:
        raise SystemExit(f"{language}: strict errors disagree: {strict_errors} vs {rescued.details['strict_errors']}")
    cs = rescued.details["code_switch"]
    print(f"[{language}] turns: {turns}  reference words: {plain.reference_length}  repeat: {repeat} (best of)")
    print(f"[{language}] WER without the view {plain.rate:.4f}  code-switch-aware WER {rescued.rate:.4f}  "
          f"rescued {cs['rescued_errors']} errors in {len(cs['rescues'])} regions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["hi"], choices=["hi", *LATIN, *LOANWORD_LANGUAGES])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--monolingual", type=float, default=None,
                        help="share of monolingual turns (0 to 1; default: every turn code-switched)")
    parser.add_argument("--varied", action="store_true",
                        help="draw the words of hi and the same-script languages from hundreds per slot "
                             "(wordfreq's most frequent words), not the small default lists")
    parser.add_argument("--arm", choices=["plain", "rescued", "none"], default=None,
                        help="run only this arm once (none: the turns and warm-up alone), for cachegrind")
    args = parser.parse_args()
    for language in args.languages:
        if args.arm is not None:
            run_one_arm(language, args.turns, args.arm, args.monolingual, args.varied)
            continue
        measure(language, args.turns, args.repeat, args.monolingual, args.varied)


if __name__ == "__main__":
    main()
