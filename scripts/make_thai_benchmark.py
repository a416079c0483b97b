#!/usr/bin/env python3
"""Write the small synthetic Thai benchmark the ``benchmark`` cases score (cases/th/benchmark/).

    python scripts/make_thai_benchmark.py [--out cases/th/benchmark] [--seed 10]

Two sets, laid out as ``asrbench refs build`` and an ASR run would leave them:

- ``synthetic``: 320 clips in 32 clusters (speakers), Thai sentences built from everyday
  templates (times, prices, places, weather, requests), some with numbers and English loans;
- ``synthetic_long``: one long-form reference per speaker, its clips joined with one space.

Each reference file has its sidecar ``<set>.meta.json`` as ``asrbench refs build`` writes it;
both name the same ``cluster_namespace`` (the same 32 speakers), so ``bench score`` resamples
the two sets' speakers jointly for the overall interval.

and two systems' hypotheses (``hyps_a/``, ``hyps_b/``) made by the errors Thai ASR makes:
dropped or swapped tone marks, confusable consonants (ค/ข, ท/ธ, ศ/ส), short/long vowels, a
number spoken as words or written as digits, a dropped or inserted particle, a merged or
split word, and, for system A, two clips with no hypothesis at all. System B makes fewer of
them, so the paired comparison has something to find. Deterministic: the same seed writes
the same bytes. Facts only; nothing here is taken from a real corpus.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

SUBJECTS = ["ผม", "ฉัน", "เรา", "คุณแม่", "พี่ชาย", "น้องสาว", "คุณครู", "หมอ", "เพื่อนของฉัน", "ลูกค้า"]
PLACES = ["ตลาด", "โรงพยาบาล", "สนามบินสุวรรณภูมิ", "มหาวิทยาลัย", "ร้านกาแฟ", "สถานีรถไฟ", "ห้างสรรพสินค้า",
          "ธนาคาร", "โรงเรียน", "เชียงใหม่", "ภูเก็ต", "ขอนแก่น"]
THINGS = ["ข้าวผัด", "กาแฟเย็น", "ตั๋วรถไฟ", "โทรศัพท์มือถือ", "หนังสือพิมพ์", "ยาแก้ไข้", "ผลไม้", "เสื้อกันหนาว"]
TIMES = ["แปดโมงเช้า", "เที่ยงวัน", "บ่ายสามโมง", "หกโมงเย็น", "สองทุ่ม", "พรุ่งนี้เช้า", "เมื่อวานนี้", "วันจันทร์หน้า"]
WEATHER = ["ฝนตกหนักมาก", "อากาศร้อนอบอ้าว", "ลมพัดแรง", "ท้องฟ้าแจ่มใส", "หมอกลงหนา"]
LOANS = ["อีเมล", "คอมพิวเตอร์", "ออนไลน์", "แอปพลิเคชัน", "วิดีโอ"]
PARTICLES = ["ครับ", "ค่ะ", "นะ", "จ้ะ"]
#: What the cluster ids of both sets identify: the same synthetic speakers.
CLUSTER_NAMESPACE = "asrbench synthetic Thai speaker"
PRICES = [("ห้าสิบ", "50"), ("หนึ่งร้อยยี่สิบ", "120"), ("สามร้อย", "300"), ("สองพันห้าร้อย", "2500"),
          ("เก้าสิบเก้า", "99")]

TEMPLATES = [
    lambda r: f"{r.choice(SUBJECTS)}จะไป{r.choice(PLACES)}ตอน{r.choice(TIMES)}",
    lambda r: f"วันนี้ที่{r.choice(PLACES)}{r.choice(WEATHER)}",
    lambda r: f"{r.choice(THINGS)}ราคา {r.choice(PRICES)[r.randrange(2)]} บาท{r.choice(PARTICLES)}",
    lambda r: f"ช่วยส่ง{r.choice(LOANS)}ให้{r.choice(SUBJECTS)}ด้วย{r.choice(PARTICLES)}",
    lambda r: f"{r.choice(SUBJECTS)}ซื้อ{r.choice(THINGS)}ที่{r.choice(PLACES)}เมื่อ{r.choice(TIMES)}",
    lambda r: f"ขอโทษ{r.choice(PARTICLES)} ทางไป{r.choice(PLACES)}ไปทางไหน",
    lambda r: f"ประชุมเลื่อนไปเป็น{r.choice(TIMES)}เพราะ{r.choice(WEATHER)}",
    lambda r: f"{r.choice(SUBJECTS)}ดู{r.choice(LOANS)}เรื่องนี้แล้วหรือยัง",
]

TONE_MARKS = "\u0e48\u0e49\u0e4a\u0e4b"
CONFUSABLE = {"ค": "ข", "ข": "ค", "ท": "ธ", "ศ": "ส", "ส": "ศ", "พ": "ภ", "ต": "ด", "น": "ณ", "ร": "ล", "ล": "ร"}
VOWELS = {"\u0e32": "\u0e30", "\u0e35": "\u0e34", "\u0e37": "\u0e36", "\u0e39": "\u0e38"}


def tone_error(r: random.Random, text: str) -> str:
    spots = [i for i, c in enumerate(text) if c in TONE_MARKS]
    if not spots:
        return text
    i = r.choice(spots)
    return text[:i] + ("" if r.random() < 0.6 else r.choice(TONE_MARKS)) + text[i + 1:]


def table_error(r: random.Random, text: str, table: dict[str, str]) -> str:
    spots = [i for i, c in enumerate(text) if c in table]
    if not spots:
        return text
    i = r.choice(spots)
    return text[:i] + table[text[i]] + text[i + 1:]


def number_form(r: random.Random, text: str) -> str:
    for words, digits in PRICES:
        if words in text:
            return text.replace(words, digits)
        if digits in text:
            return text.replace(digits, words)
    return text


def particle_error(r: random.Random, text: str) -> str:
    for particle in PARTICLES:
        if text.endswith(particle):
            return text[: -len(particle)]
    return text + r.choice(PARTICLES)


def drop_span(r: random.Random, text: str) -> str:
    if len(text) < 12:
        return text
    start = r.randrange(len(text) - 4)
    return text[:start] + text[start + r.randint(2, 4):]


def spacing(r: random.Random, text: str) -> str:
    if " " in text:
        return text.replace(" ", "", 1)
    i = r.randrange(1, len(text))
    return text[:i] + " " + text[i:]


ERRORS = [tone_error, lambda r, t: table_error(r, t, CONFUSABLE), lambda r, t: table_error(r, t, VOWELS),
          number_form, particle_error, drop_span, spacing]


def hypothesis(r: random.Random, reference: str, error_rate: float) -> str:
    text = reference
    for error in ERRORS:
        if r.random() < error_rate:
            text = error(r, text)
    return text


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def write_references(folder: Path, name: str, rows: list[dict]) -> None:
    """``folder/<name>.jsonl`` and its sidecar ``<name>.meta.json`` (the fields ``asrbench refs
    build`` writes that apply to a synthetic set, and the cluster namespace)."""
    path = folder / f"{name}.jsonl"
    write_jsonl(path, rows)
    meta = {"schema": "asrbench.refs/1", "set": name, "clips": len(rows),
            "clusters": len({row["cluster"] for row in rows}), "cluster_namespace": CLUSTER_NAMESPACE, "language": "th",
            "dataset": "synthetic: scripts/make_thai_benchmark.py", "revision": None, "cleaning": None,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    path.with_name(f"{name}.meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2, sort_keys=True)
                                                   + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "cases/th/benchmark")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--speakers", type=int, default=32)
    parser.add_argument("--clips", type=int, default=10, help="clips per speaker")
    args = parser.parse_args()
    r = random.Random(args.seed)
    refs, hyps_a, hyps_b = [], [], []
    for speaker in range(args.speakers):
        cluster = f"spk{speaker:02d}"
        skill_a, skill_b = r.uniform(0.05, 0.35), r.uniform(0.03, 0.25)  # some speakers are harder
        for clip in range(args.clips):
            ident = f"{cluster}-{clip:02d}"
            text = r.choice(TEMPLATES)(r)
            refs.append({"id": ident, "text": text, "cluster": cluster})
            hyps_a.append({"id": ident, "text": hypothesis(r, text, skill_a)})
            hyps_b.append({"id": ident, "text": hypothesis(r, text, skill_b)})
    dropped = {refs[7]["id"], refs[151]["id"]}  # system A lost two clips: scored as deletions
    hyps_a = [row for row in hyps_a if row["id"] not in dropped]

    def joined(rows: list[dict], with_cluster: bool) -> list[dict]:
        groups: dict[str, list[str]] = {}
        for row in rows:
            groups.setdefault(row["id"].split("-")[0], []).append(row["text"].strip())
        return [{"id": g, "text": " ".join(texts), **({"cluster": g} if with_cluster else {})}
                for g, texts in groups.items()]

    write_references(args.out / "refs", "synthetic", refs)
    write_references(args.out / "refs", "synthetic_long", joined(refs, True))
    write_jsonl(args.out / "hyps_a/synthetic.jsonl", hyps_a)
    write_jsonl(args.out / "hyps_a/synthetic_long.jsonl", joined(hyps_a, False))
    write_jsonl(args.out / "hyps_b/synthetic.jsonl", hyps_b)
    write_jsonl(args.out / "hyps_b/synthetic_long.jsonl", joined(hyps_b, False))
    print(f"{len(refs)} clips in {args.speakers} clusters -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
