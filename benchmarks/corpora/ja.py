"""Japanese utterances for the normalizer throughput benchmark: call-centre (ITSM) turns.

Each utterance is built from templates with what the Japanese rules handle: kanji and digit
numerals with counters (dates, times, prices, counts), spelled codes in katakana letter
names and kana or kanji digits, product names in Latin and katakana, spelling variants,
fillers at the start of a chunk, full-width and half-width characters, and the commas,
full stops and ideographic spaces ASR output carries. Reproducible for a given seed.
"""

from __future__ import annotations

import random

KANJI_DIGITS = "〇一二三四五六七八九"
LETTER_NAMES = ["エー", "ビー", "シー", "ディー", "イー", "エフ", "ジー", "エイチ", "ケー", "エム", "エヌ", "ピー", "アール", "エス", "ティー", "ユー", "ワイ"]
KANA_DIGITS = ["ゼロ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう", "マル"]
PRODUCTS = ["Confluence", "コンフルエンス", "Jira", "ジラ", "Slack", "スラック", "ServiceNow", "サービスナウ", "Zoom",
            "Teams", "チームス", "Outlook", "アウトルック", "Salesforce", "GitHub", "ギットハブ", "Datadog", "データドグ"]
NAMES = ["田中", "佐藤", "鈴木", "高橋", "一条", "二階堂", "三井", "五十嵐", "千葉", "百瀬"]
FILLERS = ["えーと、", "あの、", "えー、", "まあ、", "うーん、", "ええと", ""]
VARIANTS = ["何とか", "なんとか", "振替", "振り替え", "お問い合わせ", "お問合せ", "申し込み", "申込み", "下さい", "ください"]
COUNTERS = ["円", "人", "個", "回", "件", "枚", "台", "日", "時間", "分"]
SPACES = ["", "", "", " ", "\u3000"]


def kanji_number(value: int) -> str:
    """``value`` (1..99,999) in kanji numerals (二万三千四十五)."""
    parts = []
    for unit, sign in ((10_000, "万"), (1000, "千"), (100, "百"), (10, "十")):
        digit, value = divmod(value, unit)
        if digit:
            parts.append(("" if digit == 1 and sign != "万" else KANJI_DIGITS[digit]) + sign)
    if value:
        parts.append(KANJI_DIGITS[value])
    return "".join(parts)


def number(rng: random.Random, high: int = 9999) -> str:
    value = rng.randint(1, high)
    kind = rng.randrange(4)
    if kind == 0:
        return kanji_number(value)
    if kind == 1:
        return f"{value:,}"
    if kind == 2:
        return str(value).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    return str(value)


def spelled_code(rng: random.Random) -> str:
    letters = [rng.choice(LETTER_NAMES) for _ in range(rng.randint(2, 3))]
    digits = [rng.choice(KANA_DIGITS + list(KANJI_DIGITS)) for _ in range(rng.randint(2, 5))]
    kind = rng.randrange(3)
    if kind == 0:
        return "・".join(letters) + "、" + "、".join(digits)
    if kind == 1:
        return "".join(letters) + " " + " ".join(digits)
    return "".join(rng.choice("ABCDEFGHKMNPRSTUY") for _ in letters) + str(rng.randint(10, 99999))


TEMPLATES = [
    lambda r: f"{r.choice(FILLERS)}注文番号は{spelled_code(r)}です。",
    lambda r: f"{r.choice(FILLERS)}{r.choice(PRODUCTS)}にログインできません、確認して{r.choice(['下さい', 'ください'])}。",
    lambda r: f"{kanji_number(r.randint(1990, 2030))}年{kanji_number(r.randint(1, 12))}月{kanji_number(r.randint(1, 31))}日に{r.choice(PRODUCTS)}の更新があります。",
    lambda r: f"料金は{number(r, 99999)}円で、{r.choice(VARIANTS)}お願いします。",
    lambda r: f"{r.choice(NAMES)}様、{r.choice(FILLERS)}午後{kanji_number(r.randint(1, 12))}時{kanji_number(r.randint(1, 59))}分に折り返しお電話いたします。",
    lambda r: f"{r.choice(PRODUCTS)}と{r.choice(PRODUCTS)}の連携で{number(r, 50)}{r.choice(COUNTERS)}のエラーが出ています。",
    lambda r: f"口座の{r.choice(['振替', '振り替え'])}について、{r.choice(['名字', '苗字'])}を教えていただけますか？",
    lambda r: f"{r.choice(FILLERS)}パスワードを{r.choice(['一回', '1回', '二回', '三回'])}変更しましたが、{r.choice(['合って', 'あって'])}いますか。",
    lambda r: f"ﾁｹｯﾄ番号は{r.choice(['ＧＰＳ', 'ＥＭＰ', 'INC'])}{number(r)}で、{r.choice(['十分', '十分後', '一時的'])}に対応します。",
    lambda r: f"{r.choice(FILLERS)}ええ、{r.choice(['一緒に', '一番', '三日月', '四国'])}の件で{r.choice(PRODUCTS)}のページを見ました。",
]


def make_corpus(count: int, seed: int) -> list[str]:
    """``count`` Japanese utterances, reproducible for ``seed``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = rng.choice(TEMPLATES)(rng)
        out.append(text.replace("、", "、" + rng.choice(SPACES), 1))
    return out
