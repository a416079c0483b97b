"""``asrbench bench run --executor ray``: the same record as a local run (only timings and the
executor section differ), a worker killed mid-run loses no clip and scores none twice, and
the executor options and resource requests."""

from __future__ import annotations

import json

import pytest

from pytest_asrbench.bench.run.executors import executor_for
from pytest_asrbench.bench.run.schema import schema_problems
from pytest_asrbench.cli import main
from pytest_asrbench.errors import InputError
from tests.bench.conftest import PILOT, PILOT_AUDIO

#: What may differ between two runs of one manifest on one host: when and how they ran (the
#: surface metrics too: Ray's own sockets and its imported packages belong to the ray run).
TIMING_FIELDS = ("created", "command", "performance", "executor", "surface")
#: The timing figures of each slice's statistics.
SLICE_TIMINGS = ("latency_p50_seconds", "latency_p95_seconds", "real_time_factor")


def _without_timings(record: dict) -> dict:
    record = json.loads(json.dumps(record))
    for key in TIMING_FIELDS:
        record.pop(key)
    for utterance in record["utterances"]:
        utterance.pop("latency_seconds")
    for statistics in record["slice_statistics"].values():
        for key in SLICE_TIMINGS:
            statistics.pop(key)
    return record


def _ray():
    return pytest.importorskip("ray", reason="Ray is the distributed extra: pip install -e '.[distributed]'")


def test_a_cuda_engine_asks_each_actor_for_a_gpu_a_cpu_engine_for_its_threads():
    from pytest_asrbench.bench.run.executors.ray_pool import actor_resources

    assert actor_resources("cuda", 4) == {"num_gpus": 1, "num_cpus": 1}
    assert actor_resources("cpu", 3) == {"num_cpus": 3}



class _BrokenPromise:
    """An executor that returns ``order`` (indexes into the jobs) instead of every job once."""

    name = "broken"

    def __init__(self, order):
        self.order = order

    def transcribe(self, jobs):
        from pytest_asrbench.asr.engine import DecodeInfo, Transcript
        from pytest_asrbench.bench.run.executors import Decoded, WorkerReport

        worker = WorkerReport(1, None, 0.0, None)
        for index in self.order:
            transcript = Transcript("", (), DecodeInfo("zh", None, None, None, 1.0), ("no_speech",))
            yield Decoded(index, jobs[index].id, transcript, 0.1, 0.0, False, worker)


@pytest.mark.parametrize(("order", "message"), [
    ([0, 2, 1], r"returned clip 2 \('c'\) where clip 1 \('b'\) was due"),
    ([0, 1], r"returned 2 of 3 clips"),
    ([0, 1, 2, 2], r"returned more than the 3 clips asked for \(clip 2, 'c' again\)"),
])
def test_an_executor_that_loses_reorders_or_repeats_a_clip_fails_the_run(order, message):
    from pytest_asrbench.bench.run.errors import ExecutorError
    from pytest_asrbench.bench.run.executors import ClipJob
    from pytest_asrbench.bench.run.runner import in_job_order

    jobs = [ClipJob(index, name, PILOT_AUDIO / "zh-01.flac", "zh") for index, name in enumerate("abc")]
    with pytest.raises(ExecutorError, match=message):
        list(in_job_order(_BrokenPromise(order), jobs))
    assert [job.id for job, _ in in_job_order(_BrokenPromise([0, 1, 2]), jobs)] == ["a", "b", "c"]

@pytest.mark.parametrize(("name", "options", "message"), [
    ("local", {"workers": 2}, "--workers and --ray-address apply to --executor ray"),
    ("local", {"address": "10.0.0.1:6379"}, "--workers and --ray-address apply to --executor ray"),
    ("spark", {}, "--executor 'spark': use one of local, ray"),
    ("ray", {"workers": 0}, "--workers 0: give at least 1 worker"),
])
def test_executor_options_that_do_not_fit_are_one_clear_error(name, options, message):
    with pytest.raises(InputError, match=message):
        executor_for(name, **options)


def test_the_cli_refuses_workers_for_the_local_executor_before_any_work(tmp_path, capsys):
    code = main(["bench", "run", "--manifest", str(PILOT / "manifest.jsonl"), "--audio-root", str(PILOT_AUDIO),
                 "--workers", "2", "--out", str(tmp_path / "r.json")])
    assert code == 2
    assert "--workers and --ray-address apply to --executor ray" in capsys.readouterr().err


def test_a_ray_run_on_two_workers_writes_the_local_runs_record(pilot_runs, tmp_path):
    _ray()
    local_path, local = pilot_runs[1]
    command = local["command"][3:-2]  # the local run's options, without "asrbench bench run" and --out
    out = tmp_path / "ray.json"
    assert main(["bench", "run", *command, "--executor", "ray", "--workers", "2", "--out", str(out)]) == 0
    remote = json.loads(out.read_text(encoding="utf-8"))
    assert schema_problems(remote) == []
    assert _without_timings(remote) == _without_timings(local)
    executor = remote["executor"]
    assert executor["name"] == "ray" and executor["workers"] == 2 and executor["address"] == "local"
    assert executor["resources_per_worker"] == {"num_cpus": 2}
    assert len(executor["worker_processes"]) == 2
    assert local["executor"]["name"] == "local" and len(local["executor"]["worker_processes"]) == 1


def test_a_worker_killed_mid_run_is_restarted_and_every_clip_is_scored_once(pilot_runs, tmp_path):
    ray = _ray()
    from pytest_asrbench.bench.run.executors.ray_pool import RayExecutor
    from pytest_asrbench.bench.run.runner import RunSettings, run_bench

    _, local = pilot_runs[1]
    executor = RayExecutor(workers=2)
    killed = []

    def kill_a_worker_after_the_first_clip(done: int, total: int) -> None:
        if done == 1:
            ray.kill(executor.actors[0], no_restart=False)  # a crash: Ray restarts it and resubmits its clip
            killed.append(done)

    settings = RunSettings(manifest=PILOT / "manifest.jsonl", audio_root=PILOT_AUDIO, threads=1, beam_size=1,
                           executor="ray", workers=2, hypothesis_cache=True, cache_dir=tmp_path / "hypotheses")
    record = run_bench(settings, executor=executor, progress=kill_a_worker_after_the_first_clip)
    assert killed == [1]
    ids = [u["id"] for u in record["utterances"]]
    assert ids == [u["id"] for u in local["utterances"]]  # every clip, once, in manifest order
    assert [u["views"] for u in record["utterances"]] == [u["views"] for u in local["utterances"]]
    assert record["metrics"] == local["metrics"]
    # the killed worker came back as a new process, which loaded the model again
    processes = record["executor"]["worker_processes"]
    assert len(processes) == 3 and all(p["load_seconds"] for p in processes)
    assert not ray.is_initialized()  # the local Ray started for the run is shut down
    # the workers stored their transcripts in the hypothesis cache: a local run reuses every one
    again = run_bench(RunSettings(manifest=PILOT / "manifest.jsonl", audio_root=PILOT_AUDIO, threads=1, beam_size=1,
                                  hypothesis_cache=True, cache_dir=tmp_path / "hypotheses"))
    assert record["performance"]["cached_utterances"] == 0 and again["performance"]["cached_utterances"] == 5
    assert [u["latency_seconds"] for u in again["utterances"]] == [None] * 5
    assert again["metrics"] == record["metrics"] and again["performance"]["real_time_factor"] is None


@pytest.mark.parametrize("address", ["notanaddress", "10.0.0.1:port", "ray://:6379", "10.0.0.1:70000"])
def test_a_malformed_ray_address_is_refused_before_any_work(address):
    with pytest.raises(InputError, match=r"give HOST:PORT .*ray://HOST:PORT, or auto"):
        executor_for("ray", workers=2, address=address)


def test_an_address_where_nothing_listens_fails_at_once_instead_of_waiting_for_ray():
    import socket

    from pytest_asrbench.bench.run.errors import ExecutorError
    from pytest_asrbench.bench.run.executors.ray_pool import cluster_endpoint, require_reachable

    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ExecutorError, match=rf"nothing accepts a connection at 127.0.0.1:{port}"):
        require_reachable(f"127.0.0.1:{port}", timeout=2)
    assert cluster_endpoint("ray://head.example:10001") == ("head.example", 10001)
    assert cluster_endpoint("auto") is None
