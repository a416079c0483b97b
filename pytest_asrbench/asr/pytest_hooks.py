"""pytest hooks of the ASR layer: ``--asrbench-no-cache``, ``--asrbench-run-record PATH``,
xdist merging of run-record clips, and a summary line.

This module is a pytest plugin of its own; ``pytest_asrbench/plugin.py`` loads it with::

    pytest_plugins = ["pytest_asrbench.asr.pytest_hooks"]

It imports nothing heavy: faster-whisper is imported only when an ``asr`` case runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_asrbench._shared.paths import path_option
from pytest_asrbench.cases.asr_session import get_session, peek_session

_WORKER_KEY = "asrbench_asr_clips"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("asrbench")
    group.addoption(
        "--asrbench-no-cache",
        action="store_true",
        default=False,
        help="asr cases: bypass the hypothesis cache (always run the engine; nothing stored)",
    )
    group.addoption(
        "--asrbench-record-fingerprint",
        action="store_true",
        default=False,
        help="asr cases, with --snapshot-update: also record this host where a snapshot does not record it "
             "yet (a native host is compared exactly from then on; docs/asr.md, 'Transcripts by CPU')",
    )
    group.addoption(
        "--asrbench-run-record",
        metavar="PATH",
        default=None,
        type=path_option,
        help="asr cases: write the run record (JSON, schema asrbench.run/1) to PATH",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Refuse, before anything runs, a run-record path that cannot be written (the snapshot
    session refuses ``--asrbench-record-fingerprint`` without ``--snapshot-update``)."""
    if hasattr(config, "workerinput"):
        return  # the controller checked already
    path = config.getoption("asrbench_run_record", None)
    if path:
        from pytest_asrbench._shared.paths import from_root, output_path_problem
        from pytest_asrbench.asr.run_record import RECORD_EXAMPLE

        cwd = config.invocation_params.dir
        problem = output_path_problem(Path(cwd) / path, "file", RECORD_EXAMPLE)
        if problem:  # paths inside the folder pytest was started in, written from it
            raise pytest.UsageError(f"--asrbench-run-record {path}: {from_root(problem, cwd)}")


_RECORD_ERROR = pytest.StashKey[str]()


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    asr = peek_session(config)
    if asr is not None:
        asr.close_progress()
    if hasattr(config, "workerinput"):
        # an xdist worker: hand its clips to the controller (pytest_testnodedown)
        if asr is not None and (asr.clips or asr.unrecorded):
            engine = asr.main_engine
            config.workeroutput[_WORKER_KEY] = json.dumps(
                {
                    "clips": asr.clips,
                    "load_seconds": getattr(engine, "load_seconds", None),
                    "cache": [asr.cache.hits, asr.cache.misses, asr.cache.corrupt],
                    "unrecorded": asr.unrecorded,
                    "worker": config.workerinput.get("workerid", "?"),
                    "model_loads": asr.model_loads(),
                }
            )
        return
    path = config.getoption("asrbench_run_record", None)
    if not path:
        return
    asr = get_session(config)
    from pytest_asrbench.asr.run_record import build_record, write_record

    engine = asr.main_engine or asr.engine_for(None)
    record = build_record(engine, asr.clips, cases_root=Path(config.rootpath), cache=asr.cache)
    from pytest_asrbench.asr.errors import RunRecordError

    try:
        write_record(record, Path(config.invocation_params.dir) / path)
    except RunRecordError as exc:  # reported in one line at the end, and the run fails
        from pytest_asrbench._shared.paths import from_root

        config.stash[_RECORD_ERROR] = f"--asrbench-run-record {path}: {from_root(str(exc), config.invocation_params.dir)}"
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """xdist controller: merge a worker's clips and figures into the controller's session."""
    payload = getattr(node, "workeroutput", {}).get(_WORKER_KEY)
    if not payload:
        return
    data = json.loads(payload)
    asr = get_session(node.config)
    asr.clips.extend(data["clips"])
    asr.unrecorded.extend(data.get("unrecorded", []))
    asr.model_loads_by_worker[data["worker"]] = data["model_loads"]
    engine = asr.main_engine or asr.engine_for(None)
    if data["load_seconds"] is not None:
        # the slowest worker's cold load is the one the run waited for
        engine.load_seconds = max(engine.load_seconds or 0.0, data["load_seconds"])
    hits, misses, corrupt = data["cache"]
    asr.cache.hits += hits
    asr.cache.misses += misses
    asr.cache.corrupt += corrupt


def unrecorded_summary(entries: list[dict]) -> list[str]:
    """Lines naming every ``asr`` case judged by tolerance rather than exactly: one header per
    (this run's host, why), then one short line per case saying how its transcript compared
    (same as a recording, within tolerance, beyond it: FAILED, or not judged for a case marked
    ``unstable``)."""
    from pytest_asrbench.asr.identity import short_name

    if not entries:
        return []
    groups: dict[tuple[str, str], list[dict]] = {}
    for entry in entries:
        groups.setdefault((entry["host"], entry["why"]), []).append(entry)
    lines = []
    for (here, why), members in sorted(groups.items()):
        lines.append(f"{len(members)} asr case(s) judged by tolerance, not exactly, on {short_name(here)} ({why}); "
                     "each was compared with the nearest recording (docs/asr.md, 'Transcripts by CPU'):")
        for entry in sorted(members, key=lambda e: e["case"]):
            lines.append(f"  {entry['case']}: {_verdict(entry)}")
    return lines


def unrecorded_asr_lines(config) -> list[str]:
    """:func:`unrecorded_summary` of this run's ``asr`` cases (none without an ASR session):
    the reports' summary prints them with the per-language tables."""
    asr = peek_session(config)
    return unrecorded_summary(asr.unrecorded) if asr is not None else []


def _verdict(entry: dict) -> str:
    from pytest_asrbench.asr.identity import short_name

    if entry["same_as"]:
        more = f" and {len(entry['same_as']) - 1} more" if len(entry["same_as"]) > 1 else ""
        return f"same transcript as recorded on {short_name(entry['same_as'][0], compact=True)}{more}"
    rates = (f"rate {entry['rate']:.4g} vs {entry['nearest_rate']:.4g} recorded on "
             f"{short_name(entry['nearest'], compact=True)}")
    if entry.get("unstable"):
        return f"transcript differs ({rates}); not judged: marked unstable"
    how = f"transcript differs ({rates}, tolerance {entry['tolerance']})"
    if entry["new_flags"]:
        how += f"; new flag(s) {', '.join(entry['new_flags'])}"
    return how + ("" if entry["ok"] else ": FAILED")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    from pytest_asrbench._shared.paths import shown_path

    if _RECORD_ERROR in config.stash:
        terminalreporter.write_line(f"asrbench asr: ERROR: {config.stash[_RECORD_ERROR]}", red=True)
    asr = peek_session(config)
    if asr is None or not asr.clips:
        return
    # the cases judged by tolerance are listed in the asrbench summary (reports/pytest_hooks.py)
    cache = asr.cache
    state = "bypassed" if not cache.enabled else f"{cache.hits} hit(s), {cache.misses} miss(es)"
    if cache.corrupt:
        state += f", {cache.corrupt} corrupt entr{'y' if cache.corrupt == 1 else 'ies'} recomputed"
    loaded = [e for e in asr.engines.values() if getattr(e, "load_seconds", None) is not None]
    load = (
        f"model loaded in {max(e.load_seconds for e in loaded):.2f} s" if loaded else "no model loaded"
    )
    if asr.model_loads_by_worker:  # xdist: the workers' loads (the controller decodes nothing)
        load += "; model loads per worker: " + ", ".join(
            f"{worker} {count}" for worker, count in sorted(asr.model_loads_by_worker.items()))
    else:
        load += f"; model loads: {asr.model_loads()}"
    path = config.getoption("asrbench_run_record", None)
    tail = f"; run record: {shown_path(Path(config.invocation_params.dir) / path, config.invocation_params.dir)}" \
        if path else ""
    kernels = sorted({clip["kernel_fingerprint"] for clip in asr.clips if clip.get("kernel_fingerprint")})
    on = f" on kernels {', '.join(kernels)}" if kernels else ""
    terminalreporter.write_line(f"asrbench asr: {len(asr.clips)} clip(s){on}; cache {state}; {load}{tail}")
