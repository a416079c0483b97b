"""The de, nl, fr, es and it normalizers give the same outputs as when their digests were recorded.

Speed work on the European steps (triggers that skip a step which cannot change a text, tables
built once) must never move an output. Outputs are compared, as SHA-256 digests, with the
outputs recorded from the code before that work, on every string of the language's case files
as they were then (kept in ``european_digests.json``) and on 20,000 seeded strings built from
the benchmark corpus, the lexicons, the number, symbol and address words below and shared
symbols, spaces and invisible characters (the generator of
``tests/test_cjk_thai_output_identity.py``).

A change meant to move an output re-records the digests from the new code (and bumps the
config version by a minor step): ``python -m tests.test_european_output_identity``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.digests import RecordedDigests, assert_generator_reaches, case_texts, normalizer
from tests.test_cjk_thai_output_identity import outputs_digest, random_texts

#: A sweep over every case text and thousands of seeded strings: left out of the everyday loop.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

DIGESTS = RecordedDigests(Path(__file__).with_name("european_digests.json"))
LANGUAGES = ("de", "nl", "fr", "es", "it")
RANDOM_SEED = 20261203
RANDOM_COUNT = 20_000

#: Number, money, time, symbol and address words of each language, and written forms the steps read.
_WORDS = {
    "de": "null eins zwei zwo drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig dreißig hundert tausend "
          "Million Millionen ein eine einen und Komma Prozent Euro Cent Dollar Pfund Uhr halb Viertel nach vor "
          "Drittel Achtel Kilometer km kg Meter Punkt at Klammeraffe Bindestrich Unterstrich Schrägstrich Strich "
          "Doppelpunkt slash w www h t t p s Telefon Nummer Kundennummer Durchwahl Vorwahl Hr. Fr. Dr. Nr. z. B. "
          "am im zum 3. März dritten Jahrhundert Mio. € $ £ % 12,50 3.400 14:30 14.30 0172 +49 de com".split(),
    "nl": "nul een één twee drie vier vijf zes zeven acht negen tien elf twaalf twintig honderd duizend miljoen "
          "en komma procent euro cent dollar pond uur half kwart over voor derde vierde kilometer punt apenstaartje "
          "koppelteken streepje schuine streep dubbele slash w www h t t p s telefoon mobiel nummer dhr. mevr. "
          "nr. bijv. 1e 2de 3e eerste € $ % 12,50 020-1234567 06 +31 nl com".split(),
    "fr": "zéro un une deux trois quatre cinq six sept huit neuf dix onze douze vingt trente cent mille million "
          "millions et virgule pour cent euros d'euros centimes dollars livres heures h moins le quart demie tiers "
          "quart cinquième point arobase tiret trait d'union barre oblique slash deux points w www h t t p s "
          "téléphone numéro code M. Mme Dr St n° 1er 2e 2ème 21e vingt-et-unième € $ % 12,50 06 12 34 56 78 "
          "+33 fr com".split(),
    "es": "cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce veinte treinta cien mil millón "
          "millones y coma por ciento euros de euros céntimos dólares libras las media cuarto menos tercio punto "
          "arroba guion barra bajo slash dos puntos w www h t t p s teléfono móvil número código Sr. Sra. D. "
          "núm. 1.º 1.ª 3.er vigésimo € $ % 12,50 612 345 678 +34 es com".split(),
    "it": "zero uno una due tre quattro cinque sei sette otto nove dieci undici dodici venti trenta cento mille "
          "milione milioni di euro e virgola per cento centesimi dollari sterline alle le ore mezza quarto meno "
          "terzi punto chiocciola trattino barra obliqua slash due punti w www h t t p s telefono cellulare numero "
          "codice sig. sig.ra dott. n. 1° 2ª 21º ventunesimo € $ % 12,50 333 1234567 +39 it com".split(),
}


def european_random_texts(language: str, count: int = RANDOM_COUNT) -> list[str]:
    """``count`` seeded strings for ``language`` (the shared generator with this module's words)."""
    return random_texts(language, RANDOM_SEED, count, number_words=_WORDS[language])



@pytest.mark.parametrize("language", LANGUAGES)
def test_european_outputs_on_the_recorded_case_texts_do_not_move(language):
    DIGESTS.assert_unmoved("cases", normalizer(language), DIGESTS.case_texts(language, more_than=200), language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_european_outputs_on_seeded_random_strings_do_not_move(language):
    texts = european_random_texts(language)
    DIGESTS.check_input("random", texts, seed=RANDOM_SEED, count=RANDOM_COUNT)
    DIGESTS.assert_unmoved("random", normalizer(language), texts, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_random_strings_reach_what_the_european_steps_change(language):
    """The generator is not inert: most strings change, and many gain a digit (numbers were read)."""
    assert_generator_reaches(normalizer(language), european_random_texts(language, count=1000),
                             changed_more_than=700, gained_a_digit_more_than=50, label=language)


def _record() -> dict:
    cases = {language: case_texts(ROOT / "cases", language) for language in LANGUAGES}
    return {
        "note": "outputs of the de, nl, fr, es and it normalizers; re-record only with a change meant to move them",
        "random": {"seed": RANDOM_SEED, "count": RANDOM_COUNT},
        "case_texts": cases,
        "digests": {
            "cases": {language: outputs_digest(language, cases[language]) for language in LANGUAGES},
            "random": {language: outputs_digest(language, european_random_texts(language)) for language in LANGUAGES},
        },
    }


if __name__ == "__main__":
    DIGESTS.write(_record())
