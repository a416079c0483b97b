"""A local stand-in for the Hugging Face Hub with the five datasets' file layouts and columns.

The reference builder runs unchanged against it: :class:`LocalHub` provides the three
transports :class:`~pytest_asrbench.bench.references.hub.HubSource` takes (an fsspec-style
``open``, ``hf_hub_download``'s and ``list_repo_files``' signatures, a token getter) over a
folder ``<root>/<repo>/<revision>/<path>``, and raises huggingface_hub's own exceptions where
the hub would (missing revision or file, gated repo without token, offline, no connection).

Parquet files are opened through :class:`GuardedFile`, which records every byte range read and
raises when one touches an audio column chunk (``audio.bytes``): the proof that the builder
never reads audio. Each parquet footer carries a 70 kB ``huggingface`` metadata entry, so
pyarrow's speculative 64 kB footer read stays inside the footer, as it does with real files
whose audio chunks are megabytes.

:func:`write_datasets` writes every dataset with the real expected clip counts of the benchmark specification.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from pytest_asrbench.bench.references.hub import HubSource
from pytest_asrbench.bench.references.pins import (
    FLEURS,
    GIGASPEECH2,
    ISAN,
    LOTUS_MICS,
    LOTUSDIS,
    REVISIONS,
    TVSPEECH,
)


class AudioColumnRead(AssertionError):
    """A read touched the bytes of an audio column."""


def _http_error(cls, message: str, status: int):
    try:
        import httpx2 as httpx
    except ImportError:  # older huggingface_hub releases use httpx
        import httpx
    return cls(message, response=httpx.Response(status, request=httpx.Request("GET", "https://huggingface.co/x")))


def _connect_error():
    try:
        import httpx2 as httpx
    except ImportError:
        import httpx
    return httpx.ConnectError("[Errno -3] Temporary failure in name resolution")


def audio_ranges(path: Path) -> list[tuple[int, int]]:
    """Byte ranges of every audio column chunk (a column path starting with ``audio``, but
    ``audio.path``) of a parquet file."""
    import pyarrow.parquet as pq

    metadata = pq.ParquetFile(path).metadata
    ranges = []
    for group in range(metadata.num_row_groups):
        for index in range(metadata.row_group(group).num_columns):
            column = metadata.row_group(group).column(index)
            if column.path_in_schema.split(".")[0] == "audio" and column.path_in_schema != "audio.path":
                start = column.dictionary_page_offset or column.data_page_offset
                ranges.append((start, start + column.total_compressed_size))
    return ranges


class GuardedFile(io.RawIOBase):
    """A read-only file that records the ranges read and refuses audio column bytes."""

    def __init__(self, path: Path, forbidden: list[tuple[int, int]], log: list[tuple[int, int]]):
        super().__init__()
        self._file = open(path, "rb")  # noqa: SIM115 - closed in close()
        self._forbidden = forbidden
        self._log = log

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def readinto(self, buffer) -> int:
        start = self._file.tell()
        end = start + len(buffer)
        for low, high in self._forbidden:
            if start < high and end > low:
                raise AudioColumnRead(f"read of bytes {start}-{end} touches an audio column chunk {low}-{high}")
        data = self._file.read(len(buffer))
        self._log.append((start, start + len(data)))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._file.close()
        super().close()


class LocalHub:
    """A folder laid out as ``<root>/<repo>/<revision>/<path>`` served like the hub."""

    def __init__(self, root: Path, token: str | None = "hf_standin", gated: frozenset[str] = frozenset({GIGASPEECH2})):
        self.root = Path(root)
        self.token_value = token
        self.gated = gated
        self.offline = False
        self.unreachable = False
        self.opened: list[tuple[str, int]] = []  # (fsspec path, block size)
        self.reads: dict[str, list[tuple[int, int]]] = {}
        self.downloads: list[str] = []

    # -- the three transports -----------------------------------------------------------
    def _folder(self, repo: str, revision: str) -> Path:
        if self.offline:
            from huggingface_hub.errors import OfflineModeIsEnabled
            raise OfflineModeIsEnabled("Cannot reach https://huggingface.co: offline mode is enabled.")
        if self.unreachable:
            raise _connect_error()
        from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError, RevisionNotFoundError
        if not (self.root / repo).is_dir():
            raise _http_error(RepositoryNotFoundError, f"404 Repository Not Found for url .../{repo}", 404)
        if repo in self.gated and not self.token_value:
            raise _http_error(GatedRepoError, f"401 Cannot access gated repo for url .../{repo}", 401)
        folder = self.root / repo / revision
        if not folder.is_dir():
            raise _http_error(RevisionNotFoundError, f"404 Revision Not Found for url .../{repo}/revision/{revision}", 404)
        return folder

    def list_files(self, repo_id: str, *, repo_type: str, revision: str) -> list[str]:
        assert repo_type == "dataset"
        folder = self._folder(repo_id, revision)
        return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())

    def download(self, repo_id: str, filename: str, *, repo_type: str, revision: str) -> str:
        assert repo_type == "dataset"
        path = self._folder(repo_id, revision) / filename
        if not path.is_file():
            from huggingface_hub.errors import RemoteEntryNotFoundError
            raise _http_error(RemoteEntryNotFoundError, f"404 Entry Not Found for url .../{filename}", 404)
        self.downloads.append(f"{repo_id}/{filename}")
        return str(path)

    def open(self, path: str, mode: str = "rb", block_size: int | None = None):
        assert mode == "rb", mode
        prefix, _, rest = path.partition("/")
        assert prefix == "datasets", path
        owner, name_at_revision, file_path = rest.split("/", 2)
        name, _, revision = name_at_revision.partition("@")
        local = self._folder(f"{owner}/{name}", revision) / file_path
        if not local.is_file():
            raise FileNotFoundError(path)
        self.opened.append((path, block_size))
        return GuardedFile(local, audio_ranges(local), self.reads.setdefault(path, []))

    def token(self) -> str | None:
        return self.token_value

    def source(self) -> HubSource:
        return HubSource(filesystem=self, download=self.download, list_files=self.list_files, token=self.token)

    def dataset_folder(self, repo: str) -> Path:
        return self.root / repo / REVISIONS[repo]


# -- the datasets, with the original requirements' expected counts -----------------------------------------

FOOTER_PADDING = {"huggingface": "{" + '"info": "' + "x" * 70_000 + '"}'}


def _write_parquet(path: Path, columns: dict, row_group_size: int = 500) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.table(columns).replace_schema_metadata(FOOTER_PADDING)
    pq.write_table(table, path, row_group_size=row_group_size)


def _audio(paths: list[str], rng: random.Random):
    import pyarrow as pa

    return pa.array([{"bytes": rng.randbytes(48), "path": p} for p in paths],
                    type=pa.struct([("bytes", pa.binary()), ("path", pa.string())]))


FLEURS_SPECIAL = [
    "ราคา 22.00 บาท",  # decimal point removed: 2200
    "“ข่าว” — วันนี้…",  # curly quotes, dash, ellipsis
    "นำ้ใส Hello, World!",  # misplaced mark, case, comma
    "อะไร?",  # ? kept
]


def write_fleurs(hub: LocalHub, lines: int = 1021) -> None:
    folder = hub.dataset_folder(FLEURS) / "data" / "th_th"
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for index in range(lines):
        text = FLEURS_SPECIAL[index] if index < len(FLEURS_SPECIAL) else f"ประโยค ที่ {index}."
        rows.append("\t".join([str(1000 + index // 3), f"{7_000_000 + index}.wav", text, text, "p h o",
                               str(16000 * (index % 5 + 1)), "FEMALE" if index % 2 else "MALE"]))
    (folder / "test.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def write_gs2(hub: LocalHub, segments: int = 8823, recordings: int = 32) -> list[str]:
    """Segments of recordings 0..recordings-1 (26 among them), each recording's segments in a
    shuffled order (so that joining must sort by index, numerically). Returns the ids."""
    rng = random.Random(26)
    ids = [f"{index % recordings}-{index // recordings}" for index in range(segments)]
    rng.shuffle(ids)
    folder = hub.dataset_folder(GIGASPEECH2) / "data" / "th"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"{segment}\tสวัสดี ครับ, ส่วน {segment}!\r" for segment in ids]
    (folder / "test.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "train.tsv").write_text("0-0\tไม่ใช้\n", encoding="utf-8")
    return ids


TV_VIDEOS = [f"vid_{index:02d}-x{index}" for index in range(18)]  # video ids contain "_"


def write_tvspeech(hub: LocalHub, rows: int = 570) -> None:
    rng = random.Random(570)
    audio_ids = [f"{TV_VIDEOS[index % len(TV_VIDEOS)]}_{index}_{index * 3}" for index in range(rows)]
    sentences = [f" ประโยค {index} " for index in range(rows)]
    half = rows // 2
    folder = hub.dataset_folder(TVSPEECH) / "data"
    for number, part in enumerate((slice(0, half), slice(half, rows))):
        _write_parquet(folder / f"test-{number:05d}-of-00002.parquet", {
            "audio": _audio([f"{a}.wav" for a in audio_ids[part]], rng),
            "audio_id": audio_ids[part], "sentence": sentences[part]}, row_group_size=100)
    _write_parquet(folder / "train-00000-of-00001.parquet", {
        "audio": _audio(["t.wav"], rng), "audio_id": ["trainvid_0_0"], "sentence": ["ไม่ใช้"]})


def write_isan(hub: LocalHub, rows: int = 500) -> None:
    rng = random.Random(500)
    ids = [f"opentyphoon;is;{'f' if i % 2 else 'm'}_{i % 40:03d};fin;{i:04d}.wav" for i in range(rows)]
    names = [None if i % 50 == 0 else ids[i] for i in range(rows)]
    raws = [f"[เฮ็ด]<ทำ>อะไร [บ่]<ไม่>รู้ {i}" for i in range(rows)]
    _write_parquet(hub.dataset_folder(ISAN) / "data" / "test-00000-of-00001.parquet", {
        "audio": _audio([f"{i}.wav" for i in range(rows)], rng), "id": ids, "raw": raws, "name": names,
        "thai_spelling": ["ไม่ตรงกัน"] * rows})


def write_lotusdis(hub: LocalHub, turns: int = 5516) -> None:
    rng = random.Random(5516)
    spelled = {"con123": "Con123", "lav123": "Lav123", "jbl": "JBL", "bt3m": "BT3m", "bt10m": "BT10m"}
    paths, sentences, mics = [], [], []
    for turn in range(turns):
        meeting = f"S{turn % 23 + 1:03d}"
        for mic in (*LOTUS_MICS, "phone"):  # a sixth device that no set keeps
            paths.append(f"test/{meeting}/Hijack_{meeting}_T{turn % 97:03d}_{spelled.get(mic, mic)}_chunk{turn}.wav")
            sentences.append(f"ประชุม {turn}")
            mics.append(mic)
    third = len(paths) // 3
    folder = hub.dataset_folder(LOTUSDIS) / "data"
    for number, part in enumerate((slice(0, third), slice(third, 2 * third), slice(2 * third, None))):
        _write_parquet(folder / f"test-{number:05d}-of-00003.parquet", {
            "audio": _audio(paths[part], rng), "sentence": sentences[part], "mic": mics[part]}, row_group_size=4000)


def write_datasets(root: Path) -> LocalHub:
    """Every dataset, at its pinned revision, with the original requirements' expected counts."""
    hub = LocalHub(root)
    write_fleurs(hub)
    write_gs2(hub)
    write_tvspeech(hub)
    write_isan(hub)
    write_lotusdis(hub)
    return hub
