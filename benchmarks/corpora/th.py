"""Thai utterances for the throughput benchmark: prices, counts, dates, times, phone numbers,
percentages and plain chat, with numbers written as Thai words, Thai digits or ASCII digits
(as references and recognizers write them), and the repetition mark ๆ."""

from __future__ import annotations

import random

from corpora._build import build

_DIGIT_WORDS = ["ศูนย์", "หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า"]
_THAI_DIGITS = str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙")
_CHAT = ["วันนี้อากาศดีมาก", "ผมสามารถช่วยคุณได้ไหม", "ขอบคุณมากครับ", "เก้าอี้ตัวนี้สวยจัง", "เด็กๆ เล่นกันอยู่",
         "ไปห้างกันไหม", "ช่วยพูดช้าๆ หน่อยค่ะ", "ร้านนี้อร่อยมาก", "พรุ่งนี้เจอกันนะ", "กรุณารอสักครู่"]


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
    return f"นัดเวลา {_number(rng, rng.randint(1, 12))} โมง"


def _phone(rng: random.Random) -> str:
    digits = f"0{rng.randint(6, 9)}{rng.randint(0, 10**8 - 1):08d}"
    if rng.random() < 0.5:
        return "เบอร์โทร " + "".join(_DIGIT_WORDS[int(d)] for d in digits)
    return f"เบอร์โทร {digits[:3]}-{digits[3:6]}-{digits[6:]}"


def _chat(rng: random.Random) -> str:
    return " ".join(rng.sample(_CHAT, 2))


_TEMPLATES = (_price, _count, _date, _time, _phone, _chat, _chat)


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` utterances, reproducible for ``seed``."""
    return build(_TEMPLATES, count, seed)
