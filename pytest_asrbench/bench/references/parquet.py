"""Rows of a parquet split, reading only the named columns (never the audio).

The hub's datasets store a split as ``data/<split>-NNNNN-of-NNNNN.parquet``; the files are read
in name order, each row group on its own, with only the requested column chunks fetched (a
nested field is named like ``audio.path``: the ``audio.bytes`` chunk beside it is not read).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pytest_asrbench.bench.errors import BENCH_EXTRA_MESSAGE, BenchDependencyError, DatasetMissingError, SourceFormatError
from pytest_asrbench.bench.references.hub import HubSource

#: Parallel file reads (each a few ranged requests).
MAX_WORKERS = 8


def split_files(source: HubSource, repo: str, split: str) -> list[str]:
    """The parquet files of ``split`` at the pinned commit, in name order.

    Raises:
        DatasetMissingError: the split has no parquet file.
    """
    prefix = f"data/{split}-"
    files = sorted(f for f in source.list_files(repo) if f.startswith(prefix) and f.endswith(".parquet"))
    if not files:
        raise DatasetMissingError(f"{repo} has no parquet files {prefix}*.parquet at its pinned revision")
    return files


def _column_paths(parquet_file: Any) -> set[str]:
    schema = parquet_file.schema
    leaves = {schema.column(i).path for i in range(len(schema))}
    return leaves | {path.split(".")[0] for path in leaves}


def _read_file(source: HubSource, repo: str, path: str, columns: list[str]) -> list[dict]:
    import pyarrow.parquet as pq

    with source.open(repo, path) as handle:
        parquet_file = pq.ParquetFile(handle, pre_buffer=False)
        missing = [c for c in columns if c not in _column_paths(parquet_file)]
        if missing:
            raise SourceFormatError(
                f"{repo}/{path} has no column {', '.join(missing)} (its columns: "
                f"{', '.join(sorted(parquet_file.schema_arrow.names))}); the set's rules read {', '.join(columns)}")
        rows: list[dict] = []
        for group in range(parquet_file.num_row_groups):
            rows.extend(parquet_file.read_row_group(group, columns=columns).to_pylist())
        return rows


def read_split(source: HubSource, repo: str, split: str, columns: list[str]) -> list[dict]:
    """Every row of ``split`` (files in name order, rows in file order) as dicts holding only
    ``columns``; a nested column ``a.b`` comes back as ``{"a": {"b": value}}``.

    Raises:
        BenchDependencyError: pyarrow is not installed.
        DatasetMissingError: the split has no parquet file.
        SourceFormatError: a file lacks one of ``columns``.
        HubError subclasses: the hub could not be read (see :mod:`.hub`).
    """
    try:
        import pyarrow.parquet  # noqa: F401 - fail before any download
    except ImportError as exc:
        raise BenchDependencyError(f"{BENCH_EXTRA_MESSAGE} ({exc})") from exc
    files = split_files(source, repo, split)
    with ThreadPoolExecutor(max_workers=min(MAX_WORKERS, len(files))) as pool:
        parts = list(pool.map(lambda path: _read_file(source, repo, path, columns), files))
    return [row for part in parts for row in part]
