"""Italian utterances for the throughput benchmark: numbers in words and digits, prices, dates,
times, percentages, codes, names and fillers, as a support call's references and transcripts have."""

from __future__ import annotations

from corpora._build import build, code, price

NAMES = ["la sig.ra Rossi", "il sig. Bianchi", "Giulia Romano", "Marco Colombo", "il dott. Ricci", "Sara Greco"]
NUMBER_WORDS = ["ventitré", "trentuno", "cinque", "dodici", "trenta", "diciassette", "due", "tre", "mille",
                "quattordici", "centoventi", "duemilaventiquattro", "cinquantasei"]
MONTHS = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
          "novembre", "dicembre"]
ORDINALS = ["primo", "secondo", "terzo", "quarto", "decimo"]
FILLERS = ["ehm", "cioè", "allora", "mmm"]
TEMPLATES = [
    lambda r: f"Buongiorno, sono {r.choice(NAMES)}, chiamo per la fattura {code(r)}.",
    lambda r: f"Costa {price(r)} € al mese, cioè {r.choice(NUMBER_WORDS)} euro e {r.choice(NUMBER_WORDS)}.",
    lambda r: f"L'appuntamento è il {r.randint(2, 28)} {r.choice(MONTHS)} alle {r.randint(8, 18)}:{r.choice(['00', '15', '30', '45'])}.",
    lambda r: f"Possiamo vederci il {r.choice(ORDINALS)} {r.choice(MONTHS)} alle {r.choice(NUMBER_WORDS)}?",
    lambda r: f"{r.choice(FILLERS)} mi servono {r.choice(NUMBER_WORDS)} pezzi, non {r.randint(2, 500)}.",
    lambda r: f"Ha uno sconto del {r.randint(5, 50)} %, cioè {r.choice(NUMBER_WORDS)} per cento.",
    lambda r: f"Una donna e un uomo hanno pagato {r.choice(NUMBER_WORDS)} euro e cinquanta centesimi.",
    lambda r: f"Il numero è {r.randint(300, 399)} {r.randint(100, 999)} {r.randint(1000, 9999)}.",
    lambda r: f"Abbiamo {r.randint(1, 9)}.{r.randint(100, 999)} clienti e {r.randint(0, 9)},{r.randint(1, 9)} milioni di fatturato.",
    lambda r: f"{r.choice(NAMES)} arriva alle {r.choice(['due', 'tre', 'dieci'])} e mezza o alle {r.choice(['quattro', 'cinque'])}.",
    lambda r: f"È la {r.randint(2, 9)}ª volta, per la {r.choice(['prima', 'seconda', 'terza'])} volta quest'anno.",
    lambda r: f"Ci sono {r.choice(NUMBER_WORDS)} virgola {r.randint(1, 9)} gradi per {r.choice(NUMBER_WORDS)} ore.",
]


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` Italian utterances, reproducible for ``seed``."""
    return build(TEMPLATES, count, seed)
