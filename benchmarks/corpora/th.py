"""Thai utterances for the throughput benchmark: prices, counts, dates, times, phone numbers,
percentages and plain chat, with numbers written as Thai words, Thai digits or ASCII digits
(as references and recognizers write them), and the repetition mark ๆ."""

from __future__ import annotations

import random

from corpora._build import build

_DIGIT_WORDS = ["ศูนย์", "หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า"]
_THAI_DIGITS = str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙")
# Chat clauses are a subject and a predicate, so that utterances rarely repeat: a corpus of
# whole utterances that repeat (as pairs of ten fixed sentences did) would reward a normalizer
# for remembering texts, which no real test set does. Some words hold a number word that is not
# a number (เก้าอี้, a chair) and the repetition mark (เด็กๆ, ช้าๆ).
_SUBJECTS = ["ผม", "ฉัน", "เขา", "เรา", "คุณ", "พวกเรา", "เพื่อน", "คุณแม่"]
_PREDICATES = ["ว่าวันนี้อากาศดีมาก", "ช่วยคุณได้ไหม", "ขอบคุณมาก", "ชอบเก้าอี้ตัวนี้", "เห็นเด็กๆ เล่นกันอยู่",
               "อยากไปห้าง", "ขอให้พูดช้าๆ หน่อย", "ว่าร้านนี้อร่อยมาก", "จะเจอกันพรุ่งนี้", "กำลังรอสักครู่",
               "ไปทำงานแล้ว", "กินข้าวหรือยัง", "ชอบดูหนัง", "อยู่บ้านทั้งวัน", "เหนื่อยมาก", "ลืมกุญแจไว้ในรถ",
               "กำลังเรียนภาษาไทย", "จะไปเที่ยวทะเล", "โทรหาคุณเมื่อวาน", "ไม่เข้าใจคำถาม"]
_PARTICLES = ["", "", "นะ", "ครับ", "ค่ะ"]


def words(value: int) -> str:
    """The Thai reading of ``0 < value < 10^7`` (ยี่สิบเอ็ด, สองพันห้าร้อย)."""
    out = ""
    for name, size in (("ล้าน", 10**6), ("แสน", 10**5), ("หมื่น", 10**4), ("พัน", 1000), ("ร้อย", 100)):
        digit, value = divmod(value, size)
        if digit:
            out += _DIGIT_WORDS[digit] + name
    tens, ones = divmod(value, 10)
    if tens:
        out += {1: "", 2: "ยี่"}.get(tens, _DIGIT_WORDS[tens]) + "สิบ"
    if ones:
        out += "เอ็ด" if ones == 1 and out else _DIGIT_WORDS[ones]
    return out


def _number(rng: random.Random, value: int) -> str:
    form = rng.random()
    if form < 0.5:
        return words(value)
    return str(value).translate(_THAI_DIGITS) if form < 0.7 else str(value)


def _price(rng: random.Random) -> str:
    return f"ราคา {_number(rng, rng.randint(10, 5000))} บาท"


def _count(rng: random.Random) -> str:
    return f"มี {_number(rng, rng.randint(1, 99))} {rng.choice(['คน', 'ตัว', 'เล่ม', 'ห้อง', 'กิโลเมตร'])}"


def _date(rng: random.Random) -> str:
    return f"วันที่ {_number(rng, rng.randint(1, 28))} ปี {_number(rng, rng.randint(2540, 2570))}"


def _time(rng: random.Random) -> str:
    lead = rng.choice(["นัดเวลา", "ประชุมเวลา", "เจอกันเวลา"])
    minutes = rng.randint(0, 59)
    return f"{lead} {_number(rng, rng.randint(1, 12))} โมง" + (f" {_number(rng, minutes)} นาที" if minutes else "")


def _phone(rng: random.Random) -> str:
    digits = f"0{rng.randint(6, 9)}{rng.randint(0, 10**8 - 1):08d}"
    if rng.random() < 0.5:
        return "เบอร์โทร " + "".join(_DIGIT_WORDS[int(d)] for d in digits)
    return f"เบอร์โทร {digits[:3]}-{digits[3:6]}-{digits[6:]}"


def _clause(rng: random.Random) -> str:
    return rng.choice(_SUBJECTS) + rng.choice(_PREDICATES) + rng.choice(_PARTICLES)


def _chat(rng: random.Random) -> str:
    return _clause(rng) + " " + _clause(rng)


_TEMPLATES = (_price, _count, _date, _time, _phone, _chat, _chat)


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` utterances, reproducible for ``seed``."""
    return build(_TEMPLATES, count, seed)
