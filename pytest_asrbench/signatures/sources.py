"""Where signature inputs are read from: a folder on disk, or a git revision of it.

Signatures are computed from file contents only (nothing is imported), so the same code
hashes the installed package, a temporary copy of the project, or ``git show REV:path``
for ``asrbench check-version``. Paths are POSIX paths relative to the project root, the
folder that holds ``pytest_asrbench/`` and ``configs/``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

from pytest_asrbench._shared.config_layers import origin_of
from pytest_asrbench.errors import AsrbenchError

PACKAGE = "pytest_asrbench"


class SourceError(AsrbenchError):
    """A revision or folder cannot be read (bad git revision, not a git checkout)."""


class DirSource:
    """Files under a folder on disk."""

    def __init__(self, root: Path, configs: str = "configs", configs_root: Path | None = None):
        self.root = Path(root)
        self.configs = configs
        #: Where ``configs/...`` paths are read when the configs folder is elsewhere (a
        #: project's layered configs); their component names still start with ``configs``.
        self.configs_root = Path(configs_root) if configs_root is not None else None
        self.label = str(self.root)

    def _path(self, rel: str) -> Path:
        if self.configs_root is not None and (rel == self.configs or rel.startswith(self.configs + "/")):
            return self.configs_root / rel[len(self.configs):].lstrip("/")
        return self.root / rel

    def read(self, rel: str) -> bytes | None:
        path = self._path(rel)
        return path.read_bytes() if path.is_file() else None

    def is_dir(self, rel: str) -> bool:
        return self._path(rel).is_dir()

    def list_dir(self, rel: str) -> list[str]:
        folder = self._path(rel)
        return sorted(child.name for child in folder.iterdir()) if folder.is_dir() else []


class GitSource:
    """Files of ``root`` as they were at git revision ``rev`` (read with ``git show``)."""

    def __init__(self, root: Path, rev: str, configs: str = "configs", option: str = "--rev"):
        """``option`` is the command-line option that named ``rev`` (``--rev`` of ``signature``,
        ``--base`` of ``check-version``), so a missing revision's advice names it.

        Raises:
            SourceError: ``root`` is not in a git repository, or ``rev`` is not a commit there.
        """
        self.root = Path(root).resolve()
        self.rev = rev
        self.configs = configs
        self.label = f"{rev}"
        top = self._git("rev-parse", "--show-toplevel").decode().strip()
        self.prefix = self.root.relative_to(Path(top).resolve()).as_posix()
        self.prefix = "" if self.prefix == "." else self.prefix + "/"
        try:
            self._git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
        except SourceError:
            raise SourceError(
                f"revision {rev!r} does not exist in the git repository at {top}: give a branch, tag or commit "
                "that exists here (`git branch -a` lists branches; for a remote branch run `git fetch` first, "
                f"e.g. `git fetch origin main` then {option} origin/main)") from None
        listing = self._git("ls-tree", "--full-tree", "-r", "--name-only", "-z", rev, "--", self.prefix or ".")
        self.files: set[str] = set()
        self.dirs: set[str] = {""}
        self._cache: dict[str, bytes] = {}
        for name in listing.decode("utf-8").split("\0"):
            if not name or not name.startswith(self.prefix):
                continue
            rel = name[len(self.prefix):]
            self.files.add(rel)
            for parent in PurePosixPath(rel).parents:
                self.dirs.add("" if str(parent) == "." else parent.as_posix())

    def _git(self, *args: str) -> bytes:
        try:
            done = subprocess.run(["git", *args], cwd=self.root, capture_output=True, check=False)
        except FileNotFoundError:
            raise SourceError("git is not installed; check-version needs it to read the base revision") from None
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip() or f"git {' '.join(args)} failed"
            raise SourceError(f"cannot read revision {self.rev!r} in {self.root}: {message}")
        return done.stdout

    def read(self, rel: str) -> bytes | None:
        if rel not in self.files:
            return None
        if rel not in self._cache:
            self._cache[rel] = self._git("show", f"{self.rev}:{self.prefix}{rel}")
        return self._cache[rel]

    def is_dir(self, rel: str) -> bool:
        return rel.strip("/") in self.dirs

    def list_dir(self, rel: str) -> list[str]:
        rel = rel.strip("/")
        start = f"{rel}/" if rel else ""
        names = set()
        for path in self.files:
            if path.startswith(start):
                names.add(path[len(start):].split("/")[0])
        return sorted(names)


def installed_source() -> DirSource:
    """The project the running ``pytest_asrbench`` was imported from (package + its configs)."""
    from pytest_asrbench.normalize.registry import configs_dir

    package = Path(__file__).resolve().parent.parent
    root = package.parent
    configs = configs_dir().resolve()
    try:
        rel = configs.relative_to(root).as_posix()
    except ValueError:  # configs outside the project (layered project configs): read them there
        return DirSource(root, "configs", configs_root=configs)
    return DirSource(root, rel)


def config_origin(rel: str, rootpath: Path | None = None) -> str | None:
    """The project file behind ``rel`` (relative to the installed configs folder, e.g.
    ``en.toml`` or ``en/spelling.merged.tsv``) when project config folders are layered over
    the package's (see :func:`pytest_asrbench._shared.config_layers.origin_of`): its path
    relative to ``rootpath`` when inside it, else absolute. ``None`` for a shipped file."""
    source = installed_source()
    if source.configs_root is None:
        return None
    origin = origin_of(source.configs_root, rel)
    if origin is None:
        return None
    if rootpath is not None:
        try:
            return origin.resolve().relative_to(Path(rootpath).resolve()).as_posix()
        except ValueError:  # not below the root: named by its absolute path instead
            pass
    return str(origin)


def project_source(root: Path) -> DirSource:
    """A project folder (e.g. a copy): ``configs/`` at the root, else the wheel's ``_configs``."""
    root = Path(root)
    configs = "configs" if (root / "configs").is_dir() else f"{PACKAGE}/_configs"
    return DirSource(root, configs)
