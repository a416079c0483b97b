"""Mandarin utterances for the throughput benchmark: dates, prices, counts, times, phone
numbers, percentages and plain chat, in Simplified or Traditional characters, with numbers
written in Chinese numerals or in digits (as references and recognizers write them)."""

from __future__ import annotations

import random

from corpora._build import build

_DIGITS = "零一二三四五六七八九"
_CHAT = ["我们明天去公司开会", "这个软件下载很快", "请问附近有没有地铁站", "我觉得这个方案不太好", "谢谢你的帮助",
         "他一定会来的", "一些朋友在等我们", "万一下雨怎么办", "我们一起去吃饭吧", "你稍等一下"]
_TRADITIONAL = str.maketrans("们这软件载请问没铁觉谢帮该会来样饭怎么办时间号块钱个万两点", "們這軟件載請問沒鐵覺謝幫該會來樣飯怎麼辦時間號塊錢個萬兩點")


def chinese(value: int) -> str:
    """The Chinese numeral of ``0 < value < 10^8`` (三千四百, 两万零五, 十五)."""
    def group(number: int) -> str:
        out, zero = "", False
        for unit, size in (("千", 1000), ("百", 100), ("十", 10), ("", 1)):
            digit, number = divmod(number, size)
            if digit:
                out += ("零" if zero and out else "") + _DIGITS[digit] + unit
                zero = False
            else:
                zero = True
        return out
    high, low = divmod(value, 10**4)
    text = (group(high) + "万" + ("零" if 0 < low < 1000 else "") + group(low)) if high else group(low)
    return text[1:] if text.startswith("一十") else text


def _date(rng: random.Random) -> str:
    year, month, day = rng.randint(1990, 2030), rng.randint(1, 12), rng.randint(1, 28)
    if rng.random() < 0.5:
        return f"{year}年{month}月{day}日的会议"
    return "".join(_DIGITS[int(d)] for d in str(year)) + f"年{chinese(month)}月{chinese(day)}号的会议"


def _price(rng: random.Random) -> str:
    yuan, jiao = rng.randint(1, 500), rng.randint(0, 9)
    form = rng.random()
    if form < 0.3:
        return f"一共{chinese(yuan)}块" + (_DIGITS[jiao] if jiao else "钱")
    if form < 0.6:
        return f"一共{yuan}.{jiao}元" if jiao else f"一共{yuan}元"
    return f"价格是{chinese(yuan * 100)}元"


def _count(rng: random.Random) -> str:
    number = rng.randint(1, 99)
    counter = rng.choice(["个人", "本书", "张票", "公里", "公斤", "岁"])
    return f"我们有{chinese(number) if rng.random() < 0.6 else number}{counter}"


def _time(rng: random.Random) -> str:
    hour, minute = rng.randint(1, 12), rng.choice([0, 10, 15, 30, 45])
    if rng.random() < 0.5:
        spoken = chinese(hour) + "点" + ({0: "", 30: "半", 15: "一刻"}.get(minute) or chinese(minute) + "分")
        return f"下午{spoken}在门口见"
    return f"下午{hour}:{minute:02d}在门口见"


def _phone(rng: random.Random) -> str:
    digits = f"1{rng.randint(3, 9)}{rng.randint(0, 10**9 - 1):09d}"
    spoken = "".join("幺" if d == "1" and rng.random() < 0.5 else _DIGITS[int(d)] for d in digits)
    return f"电话是{spoken if rng.random() < 0.5 else digits}"


def _percent(rng: random.Random) -> str:
    value = rng.randint(1, 99)
    return f"增长了百分之{chinese(value)}" if rng.random() < 0.5 else f"增长了{value}%"


def _chat(rng: random.Random) -> str:
    return "，".join(rng.sample(_CHAT, 2)) + "。"


def _traditional(template):
    def make(rng: random.Random) -> str:
        text = template(rng)
        return text.translate(_TRADITIONAL) if rng.random() < 0.3 else text
    return make


_TEMPLATES = tuple(_traditional(t) for t in (_date, _price, _count, _time, _phone, _percent, _chat, _chat))


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` utterances, reproducible for ``seed``; about three in ten in Traditional characters."""
    return build(_TEMPLATES, count, seed)
