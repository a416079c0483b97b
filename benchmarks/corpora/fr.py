"""French utterances for the throughput benchmark: numbers in words and digits, prices, dates,
times, percentages, codes, names and fillers, as a support call's references and transcripts have."""

from __future__ import annotations

from corpora._build import build, code, price

NAMES = ["Mme Dupont", "M. Lefèvre", "Camille Moreau", "Hugo Bernard", "Mme Lambert", "Élodie Girard"]
NUMBER_WORDS = ["quatre-vingt-dix-sept", "soixante et onze", "vingt et un", "cinq", "douze", "trente", "dix-sept",
                "deux", "trois", "mille", "quatorze", "deux cent vingt-trois", "cinquante-six"]
MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre"]
ORDINALS = ["premier", "deuxième", "troisième", "quatrième", "dixième", "vingt et unième"]
FILLERS = ["euh", "ben", "bah", "hum"]
TEMPLATES = [
    lambda r: f"Bonjour, je suis {r.choice(NAMES)}, j'appelle au sujet de la facture {code(r)}.",
    lambda r: f"Ça coûte {price(r)} € par mois, donc {r.choice(NUMBER_WORDS)} euros par an.",
    lambda r: f"Le rendez-vous est le {r.randint(2, 28)} {r.choice(MONTHS)} à {r.randint(8, 18)} h {r.choice(['00', '15', '30', '45'])}.",
    lambda r: f"On peut se voir le {r.choice(ORDINALS)} {r.choice(MONTHS)} à {r.choice(NUMBER_WORDS)} heures ?",
    lambda r: f"{r.choice(FILLERS)} il me faut {r.choice(NUMBER_WORDS)} pièces, pas {r.randint(2, 500)}.",
    lambda r: f"Vous avez {r.randint(5, 50)} % de remise, soit {r.choice(NUMBER_WORDS)} pour cent.",
    lambda r: f"Une femme et un homme ont payé {r.choice(NUMBER_WORDS)} euros {r.choice(NUMBER_WORDS)}.",
    lambda r: f"Le numéro est le zéro {r.randint(1, 9)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)}.",
    lambda r: f"Nous avons {r.randint(1, 99)} {r.randint(100, 999)} clients et {r.randint(0, 9)},{r.randint(1, 9)} millions de chiffre d'affaires.",
    lambda r: f"{r.choice(NAMES)} arrive à {r.choice(['trois', 'quatre', 'dix'])} heures et demie ou à midi.",
    lambda r: f"C'est la {r.randint(2, 9)}e fois, pour la {r.choice(ORDINALS)} fois cette année.",
    lambda r: f"Il fait {r.choice(NUMBER_WORDS)} virgule {r.randint(1, 9)} degrés pendant {r.choice(NUMBER_WORDS)} heures.",
]


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` French utterances, reproducible for ``seed``."""
    return build(TEMPLATES, count, seed)
