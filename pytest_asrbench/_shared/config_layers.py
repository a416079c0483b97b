"""Config folders searched in order: a project's own folders first, the package's last.

A project names its folders with the ``asrbench_config_dirs`` ini option (relative to the
rootdir), the ``ASRBENCH_CONFIG_DIRS`` environment variable (:data:`ENV_VAR`, folders joined
by ``os.pathsep``, relative to the current folder) or the CLI's ``--config-dir``; the callers
put them in one list with :func:`project_config_dirs`. :func:`layered_configs_dir` folds them and the shipped folder into one effective
folder, laid out like the shipped one, so the normalizer and the signatures read it like
any other:

- every file of every folder is there, the first folder that has a path wins;
- ``<lang>.toml`` with ``extends = "<tag>"`` is its parent (the same tag: the next folder
  that has it; another tag: that language's effective config) with the child's keys on top:
  tables (``[char_folds]``, ``[options.<step>]``, ``[options.spoken_symbols.symbols]`` ...) merge key by
  key at every depth, any other value
  (``steps``, ``version``, lists) is replaced; ``[lexicons]`` named by both merge their
  entries (the child's file adds rows and overrides keys), a new name is added;
- a ``<lang>.toml`` no shipped folder has defines a new language;
- a file whose name starts with ``_`` (``_european.toml``) is a **base**, not a language: a
  step list and tables that several languages extend (``extends = "_european"``); it has no
  ``language`` or ``version`` of its own and no language list shows it (:func:`language_tags`).

One merge for both kinds of ``extends``: :func:`resolved_config` applies it inside one folder
(the shipped configs, which extend their bases), :func:`layered_configs_dir` across folders.

The effective folder lives under the user's temporary folder, named by a hash of every
input file, so identical inputs reuse it and any edit makes a new one.

Errors: :class:`~pytest_asrbench.errors.ConfigError` naming the file (a bad ``extends``,
a cycle, a missing folder and the setting that named it).

:func:`origin_of` says which project file an effective file comes from, so that a message
("metric changed without a version bump") can name the file the user has to edit.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench._shared.tsv import tsv_rows
from pytest_asrbench.errors import ConfigError


#: A config file whose name starts with this is a base (``_european.toml``), never a language.
BASE_PREFIX = "_"


def is_base(stem: str) -> bool:
    """Whether the config file named ``<stem>.toml`` is a base that languages extend."""
    return stem.startswith(BASE_PREFIX)


def language_tags(names) -> list[str]:
    """The sorted language tags among config file names (``"de.toml"`` or a ``Path``):
    every ``.toml`` file but the bases (:func:`is_base`)."""
    stems = {Path(str(name)).stem for name in names if str(name).endswith(".toml")}
    return sorted(stem for stem in stems if not is_base(stem))


#: The environment variable naming project config folders (``os.pathsep``-separated).
ENV_VAR = "ASRBENCH_CONFIG_DIRS"


def env_config_dirs(environ: dict[str, str] | None = None, cwd: Path | None = None) -> list[Path]:
    """The folders named by :data:`ENV_VAR` in ``environ`` (default ``os.environ``), in order;
    relative entries are taken from ``cwd`` (default the current folder), empty entries are
    skipped. ``[]`` when the variable is unset or empty."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "")
    base = Path.cwd() if cwd is None else Path(cwd)
    return [base / entry for entry in value.split(os.pathsep) if entry.strip()]


def project_config_dirs(*sources: tuple[str, list[Path]]) -> list[Path]:
    """One search path from ``(setting, folders)`` pairs, first pair first (duplicates kept
    once, at their first place); every folder resolved to an absolute path.

    ``setting`` names where the folders came from (``"the asrbench_config_dirs ini option"``)
    and is quoted when one is missing.

    Raises:
        ConfigError: a folder does not exist or is not a folder.
    """
    found: list[Path] = []
    for setting, folders in sources:
        for folder in folders:
            path = Path(folder).resolve()
            if not path.is_dir():
                raise ConfigError(f"config folder {path} (named by {setting}) does not exist or is not a folder; "
                                  "create it or fix that setting")
            if path not in found:
                found.append(path)
    return found


def _files(folder: Path) -> dict[str, Path]:
    return {path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts}


def _digest(folders: list[Path]) -> str:
    h = hashlib.sha256()
    for index, folder in enumerate(folders):
        for rel, path in _files(folder).items():
            h.update(f"{index}\0{rel}\0".encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _lexicon(path: Path) -> dict[str, str]:
    rows = {}
    for number, parts in tsv_rows(path.read_text(encoding="utf-8")):
        if len(parts) != 2:
            raise ConfigError(f"{path}:{number}: expected 'key<TAB>value' (one tab), found {len(parts) - 1} tab(s)")
        rows[parts[0].strip()] = parts[1].strip()
    return rows


def _toml_key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise ConfigError(f"cannot write {type(value).__name__} value {value!r} into a merged config")


def toml_text(data: dict) -> str:
    """``data`` (a parsed TOML document) as TOML text: scalars first, then one table per dict."""
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for key, table in data.items():
        if isinstance(table, dict):
            lines.append(f"\n[{_toml_key(key)}]")
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def merged(parent: dict, child: dict) -> dict:
    """``child`` over ``parent`` (two parsed configs, ``extends`` removed), key by key at every
    depth: a table in both (``[options.x]``, ``[options.spoken_symbols.symbols]``) merges again;
    any other value is the child's. ``[lexicons]`` merges by name only (see :class:`_Layers` for
    lexicon files named by both)."""
    result = dict(parent)
    for key, value in child.items():
        both = isinstance(value, dict) and isinstance(parent.get(key), dict)
        result[key] = merged(parent[key], value) if both else value
    return result


class _Layers:
    def __init__(self, folders: list[Path], out: Path | None):
        self.folders, self.out = folders, out
        self.merged: dict[str, dict] = {}

    def find(self, tag: str, start: int = 0) -> tuple[int, Path] | None:
        for index in range(start, len(self.folders)):
            path = self.folders[index] / f"{tag}.toml"
            if path.is_file():
                return index, path
        return None

    def config(self, tag: str, start: int = 0, seen: tuple = ()) -> dict:
        found = self.find(tag, start)
        if found is None:
            raise ConfigError(f"no config {tag}.toml in {', '.join(map(str, self.folders[start:]))}")
        index, path = found
        if (tag, index) in seen:
            raise ConfigError(f"{path}: 'extends' makes a cycle ({' -> '.join(t for t, _ in seen)} -> {tag})")
        data = load_toml(path.read_bytes(), path)
        parent_tag = data.pop("extends", None)
        if parent_tag is None:
            return data
        if not isinstance(parent_tag, str) or not parent_tag:
            raise ConfigError(f"{path}: extends must name a language or base config, e.g. extends = \"en\"")
        if is_base(tag) and not is_base(parent_tag):
            raise ConfigError(f"{path}: a base config extends only another base (a name starting with "
                              f"{BASE_PREFIX!r}), not the language {parent_tag!r}")
        start = index + 1 if parent_tag == tag else 0
        if self.find(parent_tag, start) is None:
            where = "no later config folder" if parent_tag == tag else "no config folder"
            # the languages and bases it may name: its own tag only where a later folder has it
            known = sorted({p.stem for number, folder in enumerate(self.folders) for p in folder.glob("*.toml")
                            if p.stem != tag or number > index})
            raise ConfigError(f"{path}: extends = \"{parent_tag}\", but {where} has {parent_tag}.toml "
                              f"(searched {', '.join(map(str, self.folders[start:]))}); known configs: "
                              f"{', '.join(known)}")
        parent = self.config(parent_tag, start, (*seen, (tag, index)))
        return self._merge(parent, data, path, start)

    def _merge(self, parent: dict, child: dict, path: Path, start: int) -> dict:
        result = merged(parent, {key: value for key, value in child.items() if key != "lexicons"})
        if isinstance(child.get("lexicons"), dict):
            result["lexicons"] = self._lexicons(dict(parent.get("lexicons", {})), child["lexicons"], path, start)
        elif "lexicons" in child:
            result["lexicons"] = child["lexicons"]
        return result

    def _parent_file(self, rel: str, start: int) -> Path:
        if rel.endswith(".merged.tsv"):
            return self.out / rel
        for folder in self.folders[start:]:
            if (folder / rel).is_file():
                return folder / rel
        raise ConfigError(f"lexicon file {rel} not found in {', '.join(map(str, self.folders[start:]))}")

    def _lexicons(self, parent: dict, child: dict, path: Path, start: int) -> dict:
        for name, rel in child.items():
            if not isinstance(rel, str) or not rel.strip():
                raise ConfigError(f"{path}: [lexicons] {name} = {_toml_value(rel)} is not a file name: write the path of "
                                  f"the lexicon file next to the config, in quotes, e.g. {name} = "
                                  f"\"{path.stem}/{name}.tsv\"")
            own = path.parent / rel
            if not own.is_file():
                raise ConfigError(f"{path}: lexicon {name!r} names {rel}, which is not a file next to it")
            if name not in parent:
                parent[name] = rel
                continue
            if self.out is None:
                raise ConfigError(f"{path}: lexicon {name!r} is also named by the config it extends in the same "
                                  f"folder; give it another name (entries merge only across config folders)")
            rows = {**_lexicon(self._parent_file(parent[name], start)), **_lexicon(own)}
            target = f"{path.stem}/{name}.merged.tsv"
            (self.out / target).parent.mkdir(parents=True, exist_ok=True)
            (self.out / target).write_text("".join(f"{k}\t{v}\n" for k, v in rows.items()), encoding="utf-8")
            parent[name] = target
        return parent


def resolved_config(path: Path) -> dict:
    """The parsed config file ``path`` with its ``extends`` chain applied inside its own folder
    (the shipped ``de.toml`` over ``_european.toml``): the merge rules of the module docstring.
    A config without ``extends`` is returned as parsed.

    Raises:
        ConfigError: the file is not valid TOML; ``extends`` names no config of that folder
            (or the file's own name), makes a cycle, or a base extends a language; a lexicon
            name is given by both the config and its base.
    """
    path = Path(path)
    return _Layers([path.parent], None).config(path.stem)


def layered_configs_dir(project_folders: list[Path], shipped: Path) -> Path:
    """The effective configs folder of ``project_folders`` (searched first, in order) over
    ``shipped`` (see the module docstring); ``shipped`` itself when there are none.

    Raises:
        ConfigError: a project folder does not exist; a config's ``extends`` is bad or cyclic.
    """
    if not project_folders:
        return shipped
    built = _build(list(project_folders), shipped)  # named by the inputs' content: an edit is a new folder
    _ORIGINS[built] = (list(project_folders), shipped)
    return built


#: Effective folder -> (project folders, shipped folder) it was built from.
_ORIGINS: dict[Path, tuple[list[Path], Path]] = {}


def origin_of(effective: Path, rel: str) -> Path | None:
    """The project file that the file ``rel`` (POSIX, relative to the effective folder
    ``effective`` returned by :func:`layered_configs_dir`) comes from: the first project
    folder that has it; for a merged ``<tag>.toml``, the project's ``<tag>.toml``; for a merged
    lexicon (``<tag>/<name>.merged.tsv``), the project's lexicon file of that name.

    ``None`` when the file comes from the shipped configs, or ``effective`` is not a layered
    folder built in this process.
    """
    if Path(effective) not in _ORIGINS:
        return None
    return origin_in(_ORIGINS[Path(effective)][0], rel)


def origin_in(project_folders: list[Path], rel: str) -> Path | None:
    """The file of ``project_folders`` (searched in order) that the effective file ``rel``
    comes from, by the rules of :func:`origin_of`; ``None`` when none of them has it."""
    if rel.endswith(".merged.tsv"):
        tag, name = rel[: -len(".merged.tsv")].split("/", 1)
        for folder in project_folders:
            config = folder / f"{tag}.toml"
            if config.is_file():
                lexicons = load_toml(config.read_bytes(), config).get("lexicons", {})
                if isinstance(lexicons, dict) and isinstance(lexicons.get(name), str):
                    return folder / lexicons[name]
        return None
    return next((folder / rel for folder in project_folders if (folder / rel).is_file()), None)


def _build(project_folders: list[Path], shipped: Path) -> Path:
    for folder in project_folders:
        if not folder.is_dir():
            raise ConfigError(f"config folder {folder} does not exist or is not a folder; create it or fix the "
                              f"setting that names it (the asrbench_config_dirs ini option, {ENV_VAR}, --config-dir)")
    folders = [*project_folders, shipped]
    base = Path(tempfile.gettempdir()) / f"pytest-asrbench-configs-{os.getuid() if hasattr(os, 'getuid') else 0}"
    final = base / _digest(folders) / "configs"
    if final.is_dir():
        return final
    base.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=base))
    out = work / "configs"
    for folder in reversed(folders):  # the first folder's files land last and win
        for rel, path in _files(folder).items():
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out / rel)
    layers = _Layers(folders, out)
    for tag in sorted({path.stem for folder in folders for path in folder.glob("*.toml")}):
        found = layers.find(tag)
        if found is not None and "extends" in load_toml(found[1].read_bytes(), found[1]):
            (out / f"{tag}.toml").write_text(toml_text(layers.config(tag)), encoding="utf-8")
    final.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(out, final)
    except OSError:
        if not final.is_dir():  # another process won the race with the same inputs: use theirs
            raise
    shutil.rmtree(work, ignore_errors=True)
    return final
