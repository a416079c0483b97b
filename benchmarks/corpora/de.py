"""German utterances for the throughput benchmark: numbers in words and digits, prices, dates,
times, percentages, codes, names and fillers, as a support call's references and transcripts have."""

from __future__ import annotations

from corpora._build import build, code, price

NAMES = ["Frau Krüger", "Herr Schmidt", "Jana Weiß", "Tobias Müller", "Frau Öztürk", "Herr Becker", "Lena Hoffmann"]
NUMBER_WORDS = ["einundzwanzig", "zweihundertdreiundvierzig", "fünf", "zwölf", "dreißig", "siebzehn",
                "neunundneunzig", "zwei", "drei", "tausend", "vierzehn", "sechsundfünfzig", "zwo"]
MONTHS = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember"]
ORDINALS = ["ersten", "zweiten", "dritten", "vierten", "zehnten", "einundzwanzigsten", "dreißigsten"]
FILLERS = ["äh", "ähm", "also", "hm"]
TEMPLATES = [
    lambda r: f"Guten Tag, mein Name ist {r.choice(NAMES)}, ich rufe wegen der Rechnung {code(r)} an.",
    lambda r: f"Das kostet {price(r)} € pro Monat, also {r.choice(NUMBER_WORDS)} Euro im Jahr.",
    lambda r: f"Der Termin ist am {r.randint(1, 28)}. {r.choice(MONTHS)} um {r.randint(8, 18)}:{r.choice(['00', '15', '30', '45'])} Uhr.",
    lambda r: f"Können wir uns am {r.choice(ORDINALS)} {r.choice(MONTHS)} um {r.choice(NUMBER_WORDS)} Uhr treffen?",
    lambda r: f"{r.choice(FILLERS)} ich brauche {r.choice(NUMBER_WORDS)} Stück, nicht {r.randint(2, 500)}.",
    lambda r: f"Sie bekommen {r.randint(5, 50)} % Rabatt, das sind {r.choice(NUMBER_WORDS)} Prozent.",
    lambda r: f"Ein Kaffee und eine Brezel kosten zusammen {r.choice(NUMBER_WORDS)} Euro {r.choice(NUMBER_WORDS)}.",
    lambda r: f"Die Nummer ist null {r.choice(NUMBER_WORDS)} {r.randint(100, 999)} {r.randint(1000, 9999)}.",
    lambda r: f"Wir haben {r.randint(1, 9)}.{r.randint(100, 999)} Kunden und {r.randint(0, 9)},{r.randint(1, 9)} Millionen Umsatz.",
    lambda r: f"Bitte achten Sie darauf, dass {r.choice(NAMES)} um halb {r.choice(['drei', 'vier', 'zehn'])} kommt.",
    lambda r: f"Er wurde der {r.randint(1, 9)}. Sieger, zum {r.choice(ORDINALS)} Mal in Folge.",
    lambda r: f"Die Temperatur liegt bei {r.choice(NUMBER_WORDS)} Komma {r.randint(1, 9)} Grad, ich habe {r.randint(2, 9)}. Dann gehe ich.",
]

def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` German utterances, reproducible for ``seed``."""
    return build(TEMPLATES, count, seed)
