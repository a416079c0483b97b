"""Spanish utterances for the throughput benchmark: numbers in words and digits, prices, dates,
times, percentages, codes, names and fillers, as a support call's references and transcripts have."""

from __future__ import annotations

from corpora._build import build, code, price

NAMES = ["la Sra. García", "el Sr. López", "Lucía Martínez", "Javier Sánchez", "doña Carmen Ruiz", "Pablo Gómez"]
NUMBER_WORDS = ["veintitrés", "treinta y uno", "veintiún", "cinco", "doce", "treinta", "diecisiete", "dos", "tres",
                "mil", "catorce", "setecientos setenta y siete", "cincuenta y seis"]
MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre"]
ORDINALS = ["primero", "segundo", "tercero", "cuarto", "décimo"]
FILLERS = ["eh", "este", "pues", "mmm"]
TEMPLATES = [
    lambda r: f"Buenas tardes, soy {r.choice(NAMES)}, llamo por la factura {code(r)}.",
    lambda r: f"Cuesta {price(r)} € al mes, o sea {r.choice(NUMBER_WORDS)} euros con {r.choice(NUMBER_WORDS)}.",
    lambda r: f"La cita es el {r.randint(2, 28)} de {r.choice(MONTHS)} a las {r.randint(8, 18)}:{r.choice(['00', '15', '30', '45'])}.",
    lambda r: f"¿Podemos vernos el {r.choice(ORDINALS)} de {r.choice(MONTHS)} a las {r.choice(NUMBER_WORDS)}?",
    lambda r: f"{r.choice(FILLERS)} necesito {r.choice(NUMBER_WORDS)} unidades, no {r.randint(2, 500)}.",
    lambda r: f"Tiene un {r.randint(5, 50)} % de descuento, es decir {r.choice(NUMBER_WORDS)} por ciento.",
    lambda r: f"Una barra de pan y un café cuestan {r.choice(NUMBER_WORDS)} euros.",
    lambda r: f"El número es el {r.randint(600, 699)} {r.randint(100, 999)} {r.randint(100, 999)}.",
    lambda r: f"Tenemos {r.randint(1, 9)}.{r.randint(100, 999)} clientes y {r.randint(0, 9)},{r.randint(1, 9)} millones de ventas.",
    lambda r: f"{r.choice(NAMES)} llega a las {r.choice(['dos', 'tres', 'diez'])} y media o a las {r.choice(['cuatro', 'cinco'])} menos cuarto.",
    lambda r: f"Es la {r.randint(2, 9)}.ª vez, por {r.choice(['primera', 'segunda', 'tercera'])} vez este año.",
    lambda r: f"Hace {r.choice(NUMBER_WORDS)} coma {r.randint(1, 9)} grados durante {r.choice(NUMBER_WORDS)} horas.",
]


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` Spanish utterances, reproducible for ``seed``."""
    return build(TEMPLATES, count, seed)
