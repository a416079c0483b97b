"""Mandarin utterances for the throughput benchmark: dates, prices, counts, times, phone
numbers, percentages and plain chat, in Simplified or Traditional characters, with numbers
written in Chinese numerals or in digits (as references and recognizers write them)."""

from __future__ import annotations

import random

from corpora._build import build

_DIGITS = "零一二三四五六七八九"
# Chat clauses are a subject and a predicate, so that two clauses rarely repeat: a corpus of
# whole utterances that repeat (as one of ten fixed sentences did) would reward a normalizer
# for remembering texts, which no real test set does. Some predicates hold numerals that are
# words, not numbers (一定, 一些, 万一, 一下): the number rules must leave them.
_SUBJECTS = ["我", "你", "他", "她", "我们", "你们", "他们", "老师", "同事", "经理", "客户", "大家"]
_PREDICATES = ["明天去公司开会", "觉得这个软件下载很快", "想问附近有没有地铁站", "觉得这个方案不太好", "谢谢你的帮助",
               "一定会来的", "和一些朋友在等", "担心万一下雨怎么办", "想一起去吃饭", "请稍等一下", "刚到机场",
               "正在看新闻", "还没有收到邮件", "今天有点累", "喜欢喝咖啡", "需要更多时间", "已经解决这个问题了",
               "下周要出差", "在学习中文", "找不到钥匙了", "觉得天气很冷", "会准时到达", "想换一个房间",
               "说这个价格太贵", "明白你的意思", "打算周末去爬山", "问能不能早点开始", "在路上堵车", "把文件发给你了",
               "觉得这家餐厅不错"]
_PARTICLES = ["", "", "吧", "呢", "啊", "了"]
_TRADITIONAL = str.maketrans("们这软件载请问没铁觉谢帮该会来样饭怎么办时间号块钱个万两点经户须闻邮复钥觉气准达换间说价贵见计划爬开车发给观厅错",
                             "們這軟件載請問沒鐵覺謝幫該會來樣飯怎麼辦時間號塊錢個萬兩點經戶須聞郵復鑰覺氣準達換間說價貴見計劃爬開車發給觀廳錯")


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
    lead = rng.choice(["一共", "总共", "大概", "只要"])
    if form < 0.3:
        return f"{lead}{chinese(yuan)}块" + (_DIGITS[jiao] if jiao else "钱")
    if form < 0.6:
        return f"{lead}{yuan}.{jiao}元" if jiao else f"{lead}{yuan}元"
    return f"价格是{chinese(rng.randint(100, 99_999))}元"


def _count(rng: random.Random) -> str:
    number = rng.randint(1, 99)
    counter = rng.choice(["个人", "本书", "张票", "公里", "公斤", "岁", "台电脑", "辆车", "间房", "杯茶", "件衣服", "天假"])
    lead = rng.choice(["我们有", "他买了", "一共有", "还剩"])
    return f"{lead}{chinese(number) if rng.random() < 0.6 else number}{counter}"


def _time(rng: random.Random) -> str:
    hour, minute = rng.randint(1, 12), rng.choice([0, 15, 30, 45, rng.randint(1, 59)])
    when, what = rng.choice(["上午", "下午", "晚上", "明天"]), rng.choice(["在门口见", "开会", "出发", "到家"])
    if rng.random() < 0.5:
        spoken = chinese(hour) + "点" + ({0: "", 30: "半", 15: "一刻"}.get(minute) or chinese(minute) + "分")
        return f"{when}{spoken}{what}"
    return f"{when}{hour}:{minute:02d}{what}"


def _phone(rng: random.Random) -> str:
    digits = f"1{rng.randint(3, 9)}{rng.randint(0, 10**9 - 1):09d}"
    spoken = "".join("幺" if d == "1" and rng.random() < 0.5 else _DIGITS[int(d)] for d in digits)
    return f"电话是{spoken if rng.random() < 0.5 else digits}"


def _percent(rng: random.Random) -> str:
    value = rng.randint(1, 99)
    if rng.random() < 0.3:
        tenth = rng.randint(1, 9)
        return f"增长了百分之{chinese(value)}点{_DIGITS[tenth]}" if rng.random() < 0.5 else f"增长了{value}.{tenth}%"
    what = rng.choice(["收入", "价格", "用户", "成本", "销量"]) + rng.choice(["增长了", "下降了", "提高了", "减少了"])
    return f"{what}百分之{chinese(value)}" if rng.random() < 0.5 else f"{what}{value}%"


def _clause(rng: random.Random) -> str:
    return rng.choice(_SUBJECTS) + rng.choice(_PREDICATES) + rng.choice(_PARTICLES)


def _chat(rng: random.Random) -> str:
    return _clause(rng) + "，" + _clause(rng) + "。"


def _traditional(template):
    def make(rng: random.Random) -> str:
        text = template(rng)
        return text.translate(_TRADITIONAL) if rng.random() < 0.3 else text
    return make


_TEMPLATES = tuple(_traditional(t) for t in (_date, _price, _count, _time, _phone, _percent, _chat, _chat))


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` utterances, reproducible for ``seed``; about three in ten in Traditional characters."""
    return build(_TEMPLATES, count, seed)
