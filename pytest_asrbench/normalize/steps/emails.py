"""Emails, web addresses and handles said aloud: "john at gmail dot com" = "john@gmail.com".

Source: the original requirements' open item (spoken emails: "at" and "dot" need an email-context rule,
not a symbol-table entry). The words for "at" and "dot" are ordinary words
("meet me at the station", "dot the i"), so they are replaced only inside an address:

- a *domain* is two or more labels joined by the dot words whose last label is a top-level
  domain of ``tlds`` ("gmail dot com", "bbc dot co dot uk", "www dot example dot org"); it
  becomes one token "gmail.com";
- an *email* is a label, the at word, then a domain ("john at gmail dot com"); labels on the
  left may be joined by dot words too ("john dot smith at ..."); it becomes "john@gmail.com".
  A domain already written ("john at gmail.com") counts as well;
- a label is a token of letters, digits and ``._-@`` (so written parts join spoken ones);
  words of ``ordinary_words`` ("the", "is", "me" ...) are never labels, so "the dot com
  bubble" and "I work at google dot com" stay as said.

- a *web address* is a domain said with what a browser shows before and after it: the scheme
  ("h t t p s" spelled or "https", then a word of ``colon_words`` and two of ``slash_words``:
  de "h t t p s Doppelpunkt Schrägstrich Schrägstrich") and "w w w" spelled, before it; a path
  (``slash_words`` then a label: "beispiel Punkt de Schrägstrich kontakt") after it. It becomes
  "https www.beispiel.de/kontakt": the scheme stands apart, as the punctuation step leaves a
  written "https://" in every language (its ":" and "//" are no inner punctuation). The
  scheme, "w w w" and the path words count only next to a domain, so "ein Strich" and "la
  barra de pan" stay as said. Source: how browsers and
  style guides write the address a speaker reads (Duden, "Internetadressen"; RFC 3986 for
  the parts).

Written addresses keep their "@" and "." (``@`` and ``.`` are inner punctuation of the
languages that list this step: "a@gmail.com" stays one token). "underscore" and "dash" in
a user name are the ``spoken_symbols`` step's (run after this one). Runs after
``punctuation``; matching ignores case.
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.phrases import casefolded_text, casefolded_words, folded_tokens, substring_search
from pytest_asrbench.normalize.steps.registry import step

_LABEL = re.compile(r"[^\W_](?:[\w.@-]*[^\W_])?")


class EmailOptions(StepOptions):
    """``[options.spoken_emails]``: the spoken words for @ and ., and what ends a domain."""

    at_words: list[str] = Field(default_factory=lambda: ["at"], description="Spoken '@' ('at', 'ऐट').")
    dot_words: list[str] = Field(default_factory=lambda: ["dot"], description="Spoken '.' ('dot', 'डॉट').")
    tlds: list[str] = Field(default_factory=lambda: ["com", "org", "net", "edu", "gov", "io", "co", "uk", "in",
                                                     "us", "de", "fr", "ai", "info", "biz", "me", "app", "dev"],
                            description="Top-level domains: the last label of a spoken domain.")
    ordinary_words: list[str] = Field(default_factory=list, description="Words never read as a label "
                                                                        "('the', 'is').")
    colon_words: list[str] = Field(default_factory=list,
                                   description="Spoken ':' after a scheme ('doppelpunkt'; a phrase may have several "
                                               "words, as spoken_numbers left them: fr '2 points').")
    slash_words: list[str] = Field(default_factory=list,
                                   description="Spoken '/' of a web address ('schrägstrich', 'slash', fr 'barre "
                                               "oblique').")


#: What a speaker spells or says before a domain, longest first.
_SCHEMES = ("https", "http")


def _spelled(folded: list[str], index: int, word: str) -> int | None:
    """The end (exclusive) of ``word`` at ``index``, said whole ("www") or spelled ("w w w")."""
    if folded[index : index + 1] == [word]:
        return index + 1
    if folded[index : index + len(word)] == list(word):
        return index + len(word)
    return None


def _phrase_end(folded: list[str], index: int, phrases: list[tuple[str, ...]]) -> int | None:
    """The end (exclusive) of the longest of ``phrases`` starting at ``index``."""
    for phrase in phrases:
        if tuple(folded[index : index + len(phrase)]) == phrase:
            return index + len(phrase)
    return None


@step("spoken_emails", idempotent=True, options=EmailOptions)
def spoken_emails(config, lexicons, options: EmailOptions):
    """Join spoken emails and domains into their written form (module docstring)."""
    fold = make_fold(config.char_folds)
    at_words = frozenset(fold(word.casefold()) for word in options.at_words)
    dot_words = frozenset(fold(word.casefold()) for word in options.dot_words)
    tlds = frozenset(word.casefold() for word in options.tlds)
    ordinary = frozenset(fold(word.casefold()) for word in options.ordinary_words)
    def phrases(words: list[str]) -> list[tuple[str, ...]]:
        return sorted({tuple(fold(word.casefold()).split()) for word in words}, key=len, reverse=True)

    colon_phrases, slash_phrases = phrases(options.colon_words), phrases(options.slash_words)
    keywords = at_words | dot_words
    padded_keywords = tuple(f" {word} " for word in sorted(keywords))
    ascii_unfolded = not any(source.isascii() for source in config.char_folds)

    def label(tokens: list[str], folded: list[str], index: int) -> bool:
        return (0 <= index < len(tokens) and folded[index] not in keywords and folded[index] not in ordinary
                and bool(_LABEL.fullmatch(tokens[index])))

    def ends_in_tld(token: str) -> bool:
        return token.rsplit(".", 1)[-1] in tlds

    def web_prefix(folded: list[str], index: int) -> tuple[str, int]:
        """The scheme and "www." said at ``index`` before a dot word, and where the domain
        starts: ``("https www.", 10)``; ``("", index)`` when none is said."""
        prefix, start = "", index
        if colon_phrases and slash_phrases:
            for scheme in _SCHEMES:
                end = _spelled(folded, start, scheme)
                end = end and _phrase_end(folded, end, colon_phrases)
                end = end and _phrase_end(folded, end, slash_phrases)
                end = end and _phrase_end(folded, end, slash_phrases)
                if end:
                    prefix, start = f"{scheme} ", end
                    break
        end = _spelled(folded, start, "www")
        if end and end > start + 1 and folded[end : end + 1] and folded[end] in dot_words:
            prefix, start = prefix + "www.", end + 1
        return prefix, start

    def path(tokens: list[str], folded: list[str], index: int) -> tuple[str, int]:
        """The path said after a domain ending before ``index``: ``("/kontakt", next index)``."""
        said = ""
        while slash_phrases:
            end = _phrase_end(folded, index, slash_phrases)
            if end is None or not label(tokens, folded, end):
                break
            said, index = f"{said}/{tokens[end]}", end + 1
        return said, index

    # What every address holds (module docstring): a dot word ("gmail dot com"), or an at
    # word before a domain written with its dot ("john at gmail.com"). Both looked for as
    # substrings of the casefolded, folded text: a word of its split holds itself.
    # (Folding a text word by word or whole gives the same words: no fold source holds a space.)
    folded_text = casefolded_text(config.char_folds)
    exact = not any(any(char.isspace() for char in source) for source in config.char_folds)
    any_dot_word, any_at_word = substring_search(dot_words), substring_search(at_words)

    def may_hold_address(text: str) -> bool:
        if not exact:
            return True
        low = folded_text(text)
        if any_dot_word(low):
            return not dot_words.isdisjoint(low.split()) or ("." in text and not at_words.isdisjoint(low.split()))
        return "." in text and any_at_word(low) and not at_words.isdisjoint(low.split())

    def run(text: str) -> str:
        return full(text) if may_hold_address(text) else text

    def full(text: str) -> str:
        # After char_folds (the step is listed after it): the words meet the folded keys.
        # Substring tests first: far cheaper than any regex or split.
        # (A word "at" between two spaces is a word of the split: the set test is implied.)
        words = casefolded_words(text)
        if keywords.isdisjoint(words):
            return text
        # ASCII text when no fold source is ASCII: the fold changes nothing, so its
        # casefolded words are the ones tested below; no dot and no top-level domain word
        # means nothing can end a domain.
        if ascii_unfolded and text.isascii() and "." not in text and tlds.isdisjoint(words):
            return text
        padded = f" {text.casefold()} "
        if not any(word in padded for word in padded_keywords):
            return text
        lowered = fold(text.casefold()).split()
        if tlds.isdisjoint(lowered) and not any(ends_in_tld(word) for word in lowered if "." in word):
            return text  # nothing that can end a domain ("$5.20" has a dot but no domain)
        tokens = text.split()
        folded = lowered if len(lowered) == len(tokens) else folded_tokens(text, tokens, fold)
        out: list[str] = []
        index, count = 0, len(tokens)
        changed = False
        while index < count:
            prefix, start = web_prefix(folded, index)
            if prefix:
                end = start
                while folded[end + 1 : end + 2] and folded[end + 1] in dot_words and label(tokens, folded, end + 2):
                    end += 2
                if label(tokens, folded, start) and (end > start or prefix.endswith(".")) and ends_in_tld(folded[end]):
                    said, index = path(tokens, folded, end + 1)
                    out.append(prefix + ".".join(tokens[start : end + 1 : 2]) + said)
                    changed = True
                    continue
            if not label(tokens, folded, index):
                out.append(tokens[index])
                index += 1
                continue
            # A chain: label (dot label)*, then optionally at + a domain chain.
            end = index
            while folded[end + 1 : end + 2] and folded[end + 1] in dot_words and label(tokens, folded, end + 2):
                end += 2
            parts = [tokens[position] for position in range(index, end + 1, 2)]
            domain_end = None
            if end + 2 < count and folded[end + 1] in at_words and label(tokens, folded, end + 2):
                right = end + 2
                while folded[right + 1 : right + 2] and folded[right + 1] in dot_words and label(tokens, folded, right + 2):
                    right += 2
                domain = [tokens[position] for position in range(end + 2, right + 1, 2)]
                if ends_in_tld(folded[right]) and (len(domain) > 1 or "." in domain[0]):
                    out.append(".".join(parts) + "@" + ".".join(domain))
                    index, domain_end, changed = right + 1, right, True
            if domain_end is not None:
                continue
            if end > index and ends_in_tld(folded[end]):
                said, index = path(tokens, folded, end + 1)
                out.append(".".join(parts) + said)
                changed = True
                continue
            out.extend(tokens[index : end + 1])
            index = end + 1
        return " ".join(out) if changed else text

    run.ungated = full
    return run
