"""Dutch utterances for the throughput benchmark: numbers in words and digits, prices, dates,
times, percentages, codes, names and fillers, as a support call's references and transcripts have."""

from __future__ import annotations

from corpora._build import build, code, price

NAMES = ["mevrouw De Vries", "meneer Jansen", "Sanne Bakker", "Daan Visser", "mevrouw Van Dijk", "Joris Smit"]
NUMBER_WORDS = ["eenentwintig", "tweeëntwintig", "vijf", "twaalf", "dertig", "zeventien", "negenennegentig",
                "twee", "drie", "duizend", "veertien", "honderd", "zesenvijftig"]
MONTHS = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
          "november", "december"]
ORDINALS = ["eerste", "tweede", "derde", "vierde", "tiende", "eenentwintigste"]
FILLERS = ["eh", "uhm", "nou", "hm"]
TEMPLATES = [
    lambda r: f"Goedemiddag, u spreekt met {r.choice(NAMES)}, ik bel over factuur {code(r)}.",
    lambda r: f"Dat kost € {price(r)} per maand, dus {r.choice(NUMBER_WORDS)} euro per jaar.",
    lambda r: f"De afspraak is op {r.randint(1, 28)} {r.choice(MONTHS)} om {r.randint(8, 18)}.{r.choice(['00', '15', '30', '45'])} uur.",
    lambda r: f"Kunnen we op de {r.choice(ORDINALS)} {r.choice(MONTHS)} om {r.choice(NUMBER_WORDS)} uur afspreken?",
    lambda r: f"{r.choice(FILLERS)} ik heb {r.choice(NUMBER_WORDS)} stuks nodig, niet {r.randint(2, 500)}.",
    lambda r: f"U krijgt {r.randint(5, 50)}% korting, dat is {r.choice(NUMBER_WORDS)} procent.",
    lambda r: f"Een huis met een tuin kost {r.choice(NUMBER_WORDS)} duizend euro.",
    lambda r: f"Het nummer is nul {r.choice(NUMBER_WORDS)} {r.randint(100, 999)} {r.randint(1000, 9999)}.",
    lambda r: f"We hebben {r.randint(1, 9)}.{r.randint(100, 999)} klanten en {r.randint(0, 9)},{r.randint(1, 9)} miljoen omzet.",
    lambda r: f"{r.choice(NAMES)} komt om half {r.choice(['drie', 'vier', 'tien'])} of om kwart over {r.choice(['vijf', 'zes'])}.",
    lambda r: f"Het is de {r.randint(1, 9)}e keer, voor de {r.choice(ORDINALS)} keer dit jaar.",
    lambda r: f"Het is {r.choice(NUMBER_WORDS)} komma {r.randint(1, 9)} graden en dat duurt {r.choice(NUMBER_WORDS)} uur.",
]


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` Dutch utterances, reproducible for ``seed``."""
    return build(TEMPLATES, count, seed)
