"""Write configs/zh/opencc_<configuration>.tsv: every character of every dictionary key that an
OpenCC configuration reads (tw2s, s2tw), so the zh reviewer normalizer can skip OpenCC for a
text that has none of them (OpenCC changes a text only where a key matches).

Needs marisa-trie (OpenCC's .ocd2 dictionaries are MARISA tries after a short header) and the
pinned opencc; not a dependency of the package:

    python -m venv /tmp/keys && /tmp/keys/bin/pip install marisa-trie==1.4.1 opencc==1.4.2
    /tmp/keys/bin/python scripts/opencc_key_chars.py

Re-run after any change of the opencc pin; tests/test_mandarin.py checks the tables against
the installed OpenCC (every character it converts alone must be listed).
"""

from __future__ import annotations

import json
from pathlib import Path

import marisa_trie
import opencc

HEADER = b"OPENCC_MARISA_0.2.5"
OUT = Path(__file__).resolve().parents[1] / "configs" / "zh"


def dictionary_files(node) -> list[str]:
    """Every ``file`` named anywhere in an OpenCC configuration (dictionaries and groups)."""
    if isinstance(node, dict):
        own = [node["file"]] if "file" in node else []
        return own + [f for value in node.values() for f in dictionary_files(value)]
    if isinstance(node, list):
        return [f for value in node for f in dictionary_files(value)]
    return []


def trigger_entries(share: Path, configuration: str) -> tuple[list[str], list[str]]:
    """``(characters, phrases)``: every one-character key of the configuration's dictionaries,
    and every longer key that holds none of those characters (OpenCC can change a text only
    where a key matches: at one of the characters, or at one of these phrases)."""
    config = json.loads((share / f"{configuration}.json").read_text(encoding="utf-8"))
    keys: list[str] = []
    for name in sorted(set(dictionary_files(config))):
        data = (share / name).read_bytes()
        if not data.startswith(HEADER):
            raise SystemExit(f"{name}: not an OpenCC MARISA dictionary")
        trie = marisa_trie.Trie()
        trie.frombytes(data[len(HEADER):])
        keys.extend(trie.keys())
    singles = sorted({key for key in keys if len(key) == 1})
    chars = set(singles)
    phrases = sorted({key for key in keys if len(key) > 1 and not chars.intersection(key)})
    return singles, phrases


def main() -> None:
    share = Path(opencc.__file__).parent / "clib" / "share" / "opencc"
    for configuration in ("tw2s", "s2tw"):
        singles, phrases = trigger_entries(share, configuration)
        lines = [f"# Where OpenCC 1.4.2 '{configuration}' can change a text (scripts/opencc_key_chars.py writes",
                 "# this file): every one-character dictionary key (as its code point) and every longer key",
                 "# without one of those characters. The zh_script step converts a text only when it holds",
                 "# one of them; OpenCC leaves any other text as it is. key<TAB>kind."]
        lines += [f"U+{ord(char):04X}\tcharacter" for char in singles]
        lines += [f"{phrase}\tphrase" for phrase in phrases]
        (OUT / f"opencc_{configuration}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(configuration, len(singles), len(phrases))


if __name__ == "__main__":
    main()
