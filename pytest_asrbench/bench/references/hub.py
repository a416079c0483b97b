"""Reading pinned dataset files from the Hugging Face Hub, with errors that say what to do.

:class:`HubSource` is the one way the reference builders reach a dataset: list the files of the
pinned commit, download a small transcript file (``hf_hub_download``, into the hub's cache), or
open a parquet file for ranged reads through the hub's fsspec file system (``HfFileSystem``,
small blocks). Its transports are parameters that default to huggingface_hub's, so the tests
run this same code against a local stand-in with each dataset's file layout.

Hub failures become :mod:`pytest_asrbench.bench.errors` errors: the network off
(``HF_HUB_OFFLINE`` or no connection), a gated dataset without a login, a pinned commit or a
file that is not there. Nothing is retried or skipped silently.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from pytest_asrbench.bench.errors import (
    BENCH_EXTRA_MESSAGE,
    BenchDependencyError,
    BenchError,
    DatasetMissingError,
    GatedDatasetError,
    HubUnreachableError,
    RevisionMissingError,
)
from pytest_asrbench.bench.references.pins import GATED, PARQUET_BLOCK_SIZE, REVISIONS

#: Names of transport-level exception classes (httpx and its forks, requests, urllib3) that
#: mean the hub could not be reached; matched on the class hierarchy so no HTTP library is
#: imported here.
_CONNECTION_ERRORS = frozenset({"TransportError", "ConnectError", "ConnectTimeout", "TimeoutException",
                                "NetworkError", "ConnectionError", "OfflineModeIsEnabled"})

LOGIN_HINT = "log in with `huggingface-cli login` (or set HF_TOKEN)"


def _hub() -> Any:
    try:
        import huggingface_hub
    except ImportError as exc:
        raise BenchDependencyError(f"{BENCH_EXTRA_MESSAGE} ({exc})") from exc
    return huggingface_hub


def hub_offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` is set to a true value (``1``, ``true``, ``yes``, ``on``)."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _class_names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


@contextmanager
def hub_errors(repo: str, what: str) -> Iterator[None]:
    """Turn huggingface_hub's failures inside the block into bench errors naming ``repo``,
    its pinned revision and ``what`` was being done (e.g. ``"downloading data/th/test.tsv"``).

    Raises:
        HubUnreachableError, GatedDatasetError, RevisionMissingError, DatasetMissingError.
    """
    revision = REVISIONS.get(repo, "?")
    try:
        yield
    except BenchError:
        raise
    except Exception as exc:  # huggingface_hub's classes differ by version: told by name below, the rest re-raised
        names = _class_names(exc)
        where = f"{repo} at {revision[:12]}"
        if "GatedRepoError" in names or "LocalTokenNotFoundError" in names:
            raise GatedDatasetError(
                f"{where} is gated: accept its access terms on https://huggingface.co/datasets/{repo} "
                f"(approval is automatic), then {LOGIN_HINT} ({what})") from exc
        if "RevisionNotFoundError" in names:
            raise RevisionMissingError(
                f"the pinned commit {revision} of {repo} is not on the hub ({what}); its history was "
                "rewritten: the references cannot be rebuilt as pinned, so a new commit and new expected "
                "counts must be pinned in pytest_asrbench/bench/references/pins.py as a new reference "
                "version") from exc
        # HF_HUB_OFFLINE is named only when it is set: huggingface_hub reports a DNS failure or a
        # dropped connection as LocalEntryNotFoundError too (nothing in the cache to fall back on)
        if hub_offline():
            raise HubUnreachableError(
                f"{where}: the Hugging Face Hub is not reachable offline ({what}): unset HF_HUB_OFFLINE "
                "and connect to the network, or build once online so the files are in the hub's cache") from exc
        if "LocalEntryNotFoundError" in names or "OfflineModeIsEnabled" in names:
            raise HubUnreachableError(
                f"{where}: cannot reach the Hugging Face Hub: no network, and the files are not in the hub's "
                f"cache ({what}); connect to the network (check a proxy, HTTPS_PROXY) and try again, or build "
                "once online so the files are cached") from exc
        if names & _CONNECTION_ERRORS:
            raise HubUnreachableError(
                f"{where}: cannot reach the Hugging Face Hub ({what}: {exc}); check the network or a proxy "
                "(HTTPS_PROXY) and try again") from exc
        if "RepositoryNotFoundError" in names:
            raise DatasetMissingError(
                f"dataset {repo} was not found on the hub ({what}); if it is private or gated, {LOGIN_HINT}") from exc
        if names & {"EntryNotFoundError", "RemoteEntryNotFoundError", "FileNotFoundError"}:
            raise DatasetMissingError(f"{where} has no such file ({what}): {exc}") from exc
        raise


def pinned_revision(repo: str) -> str:
    """The pinned commit of ``repo``.

    Raises:
        RevisionMissingError: ``repo`` has no pinned revision in :data:`pins.REVISIONS`.
    """
    try:
        return REVISIONS[repo]
    except KeyError:
        raise RevisionMissingError(
            f"no pinned revision for dataset {repo}: add its commit to REVISIONS in "
            "pytest_asrbench/bench/references/pins.py") from None


class HubSource:
    """The pinned files of the benchmark's datasets.

    Args:
        filesystem: an fsspec file system over ``datasets/<repo>@<revision>/<path>`` (default
            ``huggingface_hub.HfFileSystem()``); only its ``open(path, "rb", block_size=...)`` is used.
        download: ``f(repo_id, filename, *, repo_type, revision) -> local path`` (default
            ``huggingface_hub.hf_hub_download``).
        list_files: ``f(repo_id, *, repo_type, revision) -> list of paths`` (default
            ``HfApi().list_repo_files``).
        token: ``f() -> str | None``, the Hugging Face token in use (default
            ``huggingface_hub.get_token``: ``HF_TOKEN`` or the ``huggingface-cli login`` one).
    """

    def __init__(self, *, filesystem: Any = None, download: Callable[..., Any] | None = None,
                 list_files: Callable[..., list[str]] | None = None,
                 token: Callable[[], str | None] | None = None) -> None:
        self._filesystem = filesystem
        self._download = download
        self._list_files = list_files
        self._token = token

    # -- transports, huggingface_hub's unless given ---------------------------------------
    def _fs(self) -> Any:
        if self._filesystem is None:
            self._filesystem = _hub().HfFileSystem()
        return self._filesystem

    def check_access(self, repo: str) -> None:
        """Fail early for a gated dataset when no token is configured.

        Raises:
            GatedDatasetError: ``repo`` is gated (GigaSpeech2) and there is no token.
        """
        if repo not in GATED:
            return
        token = (self._token or _hub().get_token)()
        if not token:
            raise GatedDatasetError(
                f"{repo} is gated and no Hugging Face token is configured: accept its access terms on "
                f"https://huggingface.co/datasets/{repo} (approval is automatic), then {LOGIN_HINT}")

    def list_files(self, repo: str) -> list[str]:
        """Every file path of ``repo`` at its pinned commit (as the hub lists them).

        Raises:
            HubError subclasses (see :func:`hub_errors`).
        """
        revision = pinned_revision(repo)
        self.check_access(repo)
        lister = self._list_files or _hub().HfApi().list_repo_files
        with hub_errors(repo, "listing its files"):
            return list(lister(repo, repo_type="dataset", revision=revision))

    def fetch(self, repo: str, path: str) -> Path:
        """Local path of the small file ``path`` of ``repo`` at its pinned commit (downloaded
        once into the hub's cache).

        Raises:
            HubError subclasses (see :func:`hub_errors`).
        """
        revision = pinned_revision(repo)
        self.check_access(repo)
        download = self._download or _hub().hf_hub_download
        with hub_errors(repo, f"downloading {path}"):
            return Path(download(repo, path, repo_type="dataset", revision=revision))

    @contextmanager
    def open(self, repo: str, path: str) -> Iterator[BinaryIO]:
        """A seekable binary file over ``path`` of ``repo`` at its pinned commit, read in blocks
        of :data:`pins.PARQUET_BLOCK_SIZE` bytes (only the byte ranges asked for are fetched).

        Raises:
            HubError subclasses (see :func:`hub_errors`).
        """
        revision = pinned_revision(repo)
        self.check_access(repo)
        url = f"datasets/{repo}@{revision}/{path}"
        with hub_errors(repo, f"reading {path}"):
            handle = self._fs().open(url, "rb", block_size=PARQUET_BLOCK_SIZE)
        try:
            with hub_errors(repo, f"reading {path}"):
                yield handle
        finally:
            handle.close()
