"""Korean utterances for the throughput benchmark: dates, prices, counts, times, phone numbers,
names, fillers and odd spacing, with numbers written as words or as digits (as references and
recognizers write them)."""

from __future__ import annotations

import random

_SINO = "영일이삼사오육칠팔구"
_NATIVE_ONES = ["", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉"]
_NATIVE_TENS = ["", "열", "스무", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔"]
_NAMES = ["천민수", "백지수", "이민호", "오세훈", "구준표", "육성재", "김서연", "박지훈", "최유리", "정하늘",
          "사공민", "조원희", "석진", "만수", "이주연", "오명진"]
_PLACES = ["서울역", "강남역", "이천", "부산", "일본", "백화점", "사무실", "병원", "은행", "공항"]
_FILLERS = ["음", "어", "아", "으음", "흠"]
_WORDS = ["사랑", "오늘", "구름", "이상", "삼성", "천천히", "만약", "육지", "사장님", "이번", "사이",
          "인터넷", "음식", "다음", "영어", "개인정보", "세대", "구분"]
_SPACES = [" ", " ", " ", "  ", "\u00a0", "\t"]


def sino(value: int) -> str:
    """A Sino-Korean reading of ``value`` (0 < value < 10^12), grouped by 만 as Korean writes it."""
    parts = []
    for unit, size in (("억", 10**8), ("만", 10**4), ("", 1)):
        group, value = divmod(value, size)
        if group:
            words = ""
            for small, place in (("천", 1000), ("백", 100), ("십", 10), ("", 1)):
                digit, group = divmod(group, place)
                if digit:
                    words += ("" if digit == 1 and small else _SINO[digit]) + small
            parts.append(("" if words == "일" and unit == "만" else words) + unit)
    return " ".join(parts)


def native(value: int) -> str:
    """The native reading of 1-99 before a counter (열두, 스무, 서른다섯)."""
    return _NATIVE_TENS[value // 10] + _NATIVE_ONES[value % 10]


def _date(rng: random.Random) -> str:
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    if rng.random() < 0.5:
        return f"{month}월 {day}일에 예약하고 싶어요"
    spoken = {6: "유월", 10: "시월"}.get(month, f"{sino(month)}월")
    return f"{spoken} {sino(day)}일에 예약하고 싶어요"


def _price(rng: random.Random) -> str:
    amount = rng.choice([rng.randint(1, 99) * 1000, rng.randint(1, 50) * 10000 + rng.randint(0, 9) * 1000])
    form = rng.random()
    if form < 0.4:
        written = f"{sino(amount)} 원"
    elif form < 0.7:
        written = f"{amount:,}원"
    else:
        written = f"{amount}원"
    return f"{rng.choice(['모두', '합계', '가격은'])} {written}입니다"


def _count(rng: random.Random) -> str:
    number = rng.randint(1, 30)
    counter = rng.choice(["명", "개", "마리", "권", "잔", "살"])
    written = native(number) if rng.random() < 0.6 else str(number)
    return f"{rng.choice(_NAMES)} 씨가 {written} {counter} 주문했어요"


def _time(rng: random.Random) -> str:
    hour, minute = rng.randint(1, 12), rng.choice([0, 10, 15, 20, 30, 45])
    if rng.random() < 0.5:
        written = f"{native(hour)} 시" + (f" {sino(minute)} 분" if minute else "")
    else:
        written = f"{hour}시" + (f" {minute}분" if minute else "")
    return f"오후 {written}에 {rng.choice(_PLACES)}에서 만나요"


def _phone(rng: random.Random) -> str:
    digits = f"010{rng.randint(0, 9999):04d}{rng.randint(0, 9999):04d}"
    if rng.random() < 0.5:
        spoken = " ".join("".join("공" if d == "0" else _SINO[int(d)] for d in part)
                          for part in (digits[:3], digits[3:7], digits[7:]))
    else:
        spoken = f"{digits[:3]}-{digits[3:7]}-{digits[7:]}"
    return f"전화번호는 {spoken}입니다"


def _chat(rng: random.Random) -> str:
    words = rng.sample(_WORDS, 4)
    return f"{rng.choice(_NAMES)} 님 {words[0]} {words[1]}은 {words[2]}처럼 {words[3]}이에요"


_TEMPLATES = (_date, _price, _count, _time, _phone, _chat)


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` utterances, reproducible for ``seed``; about one in three starts with a filler."""
    rng = random.Random(seed)
    corpus = []
    for _ in range(count):
        text = rng.choice(_TEMPLATES)(rng)
        if rng.random() < 0.35:
            text = f"{rng.choice(_FILLERS)} {text}"
        corpus.append("".join(word + rng.choice(_SPACES) for word in text.split(" ")).strip())
    return corpus
