"""bench score's overall interval over sets that share clusters (one cluster_namespace):
resampled jointly; sets of other namespaces stay independent; references that are all empty
give a null rate; the same seed gives the same bytes."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from pytest_asrbench.bench.errors import JsonlFormatError
from pytest_asrbench.bench.scoring.clusters import Namespace, SharedGroup, joint_columns, shared_groups
from pytest_asrbench.bench.scoring.corpus import (NAMESPACE_STREAM, ReferenceSet, bootstrap_passes, score_benchmark,
                                                  score_system)
from pytest_asrbench.cli import main
from pytest_asrbench.stats.bootstrap import generator, percentile_interval, rates, resampled_sums

SHIPPED = Path(__file__).resolve().parents[2] / "cases/th/benchmark"
THAI = ["สวัสดีครับ", "ราคาห้าสิบบาท", "วันนี้ฝนตกหนักมาก", "ไปโรงพยาบาลตอนเช้า", "ขอบคุณค่ะ"]


def write(path: Path, rows) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def sidecar(refs: Path, name: str, namespace) -> None:
    (refs / f"{name}.meta.json").write_text(json.dumps({"schema": "asrbench.refs/1", "cluster_namespace": namespace}),
                                            encoding="utf-8")


def make_set(root: Path, name: str, speakers: int, seed: int, namespace=None, prefix: str = "spk") -> None:
    """A set of ``speakers`` clusters with 3 clips each and a hypothesis with speaker-dependent errors."""
    r = random.Random(seed)
    refs, hyps = [], []
    for speaker in range(speakers):
        cluster = f"{prefix}{speaker:02d}"
        skill = r.uniform(0.0, 0.6)
        for clip in range(3):
            text = r.choice(THAI)
            hyp = "".join(c for c in text if r.random() > skill / 3)
            refs.append({"id": f"{cluster}-{clip}", "text": text, "cluster": cluster})
            hyps.append({"id": f"{cluster}-{clip}", "text": hyp})
    write(root / f"refs/{name}.jsonl", refs)
    write(root / f"hyps/{name}.jsonl", hyps)
    if namespace is not None:
        sidecar(root / "refs", name, namespace)


def width(interval) -> float:
    return interval.high - interval.low


def test_a_set_and_its_copy_in_one_namespace_are_resampled_as_one_set(tmp_path):
    # b is a with its clusters: the overall rate of each joint resample is a's rate on that
    # draw, so the overall interval is exactly a's cluster bootstrap on the namespace's stream
    make_set(tmp_path, "a", 20, seed=1, namespace="corpus speaker")
    for kind in ("refs", "hyps"):
        shutil.copy(tmp_path / f"{kind}/a.jsonl", tmp_path / f"{kind}/b.jsonl")
    sidecar(tmp_path / "refs", "b", "corpus speaker")
    scores = score_benchmark(tmp_path / "refs", tmp_path / "hyps", seed=4, resamples=400)
    a_set = scores.sets[0]
    references = ReferenceSet.read("a", tmp_path / "refs/a.jsonl")
    system = score_system(references, tmp_path / "hyps/a.jsonl")
    lengths, errors = list(system.cluster_lengths), list(system.cluster_errors)
    # a's per-cluster columns, doubled (both sets), drawn from the namespace's stream
    joint = resampled_sums([[2 * n for n in lengths], [2 * e for e in errors]],
                           generator(4, NAMESPACE_STREAM + "corpus speaker"), 400)
    expected = percentile_interval(rates(joint[:, 1], joint[:, 0]))
    assert scores.overall.ci95 == expected
    assert scores.overall.clusters == 20 and scores.overall.clips == 120
    assert scores.shared == ({"namespace": "corpus speaker", "sets": ["a", "b"], "clusters": 20},)
    # as wide as the set's own interval within the Monte Carlo error of the two widths
    mc = sum(se ** 2 for interval in (scores.overall.ci95, a_set.ci95) for se in interval.mc_se_list()) ** 0.5
    assert abs(width(scores.overall.ci95) - width(a_set.ci95)) < 3 * mc


def _mc_of_difference(first, second) -> float:
    return sum(se ** 2 for interval in (first, second) for se in interval.mc_se_list()) ** 0.5


def test_the_shipped_thai_overall_is_as_wide_as_its_widest_set_because_its_sets_share_speakers(tmp_path):
    scores = score_benchmark(SHIPPED / "refs", SHIPPED / "hyps_a", compare_dir=SHIPPED / "hyps_b", seed=0)
    widest = max(scores.sets, key=lambda result: width(result.ci95))
    # not narrower than the widest set's beyond the Monte Carlo error of the two widths
    assert width(scores.overall.ci95) > width(widest.ci95) - 3 * _mc_of_difference(scores.overall.ci95, widest.ci95)
    assert scores.overall.clusters == 32
    paired = [result.comparison.interval for result in scores.sets]
    widest_paired = max(paired, key=width)
    assert width(scores.overall.comparison.interval) > width(widest_paired) - 3 * _mc_of_difference(
        scores.overall.comparison.interval, widest_paired)
    # without the declaration the 32 speakers count twice and the interval shrinks well past that error
    plain = tmp_path / "refs"
    plain.mkdir()
    for path in (SHIPPED / "refs").glob("*.jsonl"):
        shutil.copy(path, plain / path.name)
    independent = score_benchmark(plain, SHIPPED / "hyps_a", seed=0)
    assert independent.overall.clusters == 64 and independent.shared == ()
    assert width(independent.overall.ci95) < width(widest.ci95) - 3 * _mc_of_difference(
        independent.overall.ci95, widest.ci95)


def test_sets_of_different_namespaces_stay_independent_and_stratified(tmp_path):
    make_set(tmp_path, "x", 12, seed=2, namespace="corpus one speaker")
    make_set(tmp_path, "y", 15, seed=3, namespace="corpus two speaker")
    make_set(tmp_path, "z", 9, seed=5)  # no sidecar: its own namespace
    scores = score_benchmark(tmp_path / "refs", tmp_path / "hyps", seed=1, resamples=300)
    assert scores.shared == () and scores.overall.clusters == 12 + 15 + 9
    # the overall sums each set's own resamples (its own stream): the figures of one set do
    # not depend on the others, and the overall is their stratified sum
    alone = score_benchmark(tmp_path / "refs", tmp_path / "hyps", ["y"], seed=1, resamples=300)
    assert alone.sets[0].ci95 == scores.sets[1].ci95
    notes = "\n".join(scores.notes)
    assert "overall: z resampled on its own (no z.meta.json; declare cluster_namespace there" in notes
    assert "overall: x resampled on its own" not in notes


def test_partly_overlapping_sets_are_resampled_over_the_union_of_their_clusters():
    namespaces = [Namespace("n", "a"), Namespace(None, "none"), Namespace("n", "c")]
    clusters = [("s1", "s2"), ("s1",), ("s2", "s3")]
    (group,) = shared_groups(namespaces, clusters)
    assert group == SharedGroup("n", (0, 2), ("s1", "s2", "s3"))
    columns = [[[10, 20], [1, 2]], [[99], [9]], [[30, 40], [3, 4]]]
    assert joint_columns(group, clusters, columns) == [[10, 50, 40], [1, 5, 4]]


@pytest.mark.parametrize("content, message", [
    (b"{oops", r"s1\.meta\.json: not UTF-8 JSON"),
    (b"[1]", r"s1\.meta\.json: a list, not a JSON object"),
    (b'{"cluster_namespace": "  "}', r"s1\.meta\.json: cluster_namespace must be a non-empty string"),
    (b'{"cluster_namespace": 3}', r"cluster_namespace must be a non-empty string .*got 3"),
])
def test_a_bad_sidecar_is_an_error_naming_it(tmp_path, content, message):
    make_set(tmp_path, "s1", 4, seed=1)
    (tmp_path / "refs/s1.meta.json").write_bytes(content)
    with pytest.raises(JsonlFormatError, match=message):
        score_benchmark(tmp_path / "refs", tmp_path / "hyps", resamples=10)


def test_progress_counts_every_pass_the_joint_one_included(tmp_path):
    make_set(tmp_path, "a", 6, seed=1, namespace="n")
    make_set(tmp_path, "b", 6, seed=2, namespace="n")
    make_set(tmp_path, "c", 6, seed=3)
    assert bootstrap_passes(tmp_path / "refs", ["a", "b", "c"]) == 4
    seen = []
    score_benchmark(tmp_path / "refs", tmp_path / "hyps", seed=0, resamples=70, progress=seen.append)
    assert sum(seen) == 70 * 4 and all(step > 0 for step in seen)


def test_references_that_are_all_empty_give_a_null_rate_and_the_run_goes_on(tmp_path, capsys):
    make_set(tmp_path, "full", 5, seed=1)
    write(tmp_path / "refs/blank.jsonl", [{"id": "u1", "text": "", "cluster": "c1"},
                                          {"id": "u2", "text": " . ", "cluster": "c2"}])  # empty once cleaned
    write(tmp_path / "hyps/blank.jsonl", [{"id": "u1", "text": "ครับ"}, {"id": "u2", "text": ""}])
    shutil.copytree(tmp_path / "hyps", tmp_path / "other")
    out = tmp_path / "s.json"
    code = main(["bench", "score", "--language", "th", "--refs", str(tmp_path / "refs"), "--hyps", str(tmp_path / "hyps"),
                 "--compare", str(tmp_path / "other"), "--json", str(out), "--resamples", "50"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(out.read_text(encoding="utf-8"))
    blank = next(entry for entry in data["sets"] if entry["set"] == "blank")
    assert blank["rate"] is None and blank["ci95"] == [None, None] and blank["ci95_mc_se"] == [None, None]
    assert blank["insertions"] == 4 and blank["reference_length"] == 0
    assert blank["compare"]["difference"] is None and blank["compare"]["second_better"] is None
    full = next(entry for entry in data["sets"] if entry["set"] == "full")
    assert full["rate"] > 0 and None not in full["ci95"]
    assert data["overall"]["rate"] is not None and None not in data["overall"]["ci95"]
    row = next(line for line in captured.out.splitlines() if line.startswith("blank"))
    assert "-" in row.split()  # the rate and interval print as "-"
    only_blank = score_benchmark(tmp_path / "refs", tmp_path / "hyps", ["blank"], resamples=20)
    assert only_blank.overall.system.counts.rate is None and only_blank.overall.ci95.low is None


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    outputs = []
    for run, seed in enumerate((5, 5, 6)):
        json_path, md_path = tmp_path / f"s{run}.json", tmp_path / f"s{run}.md"
        assert main(["bench", "score", "--refs", str(SHIPPED / "refs"), "--hyps", str(SHIPPED / "hyps_a"),
                     "--compare", str(SHIPPED / "hyps_b"), "--json", str(json_path), "--markdown", str(md_path),
                     "--seed", str(seed), "--resamples", "300"]) == 0
        outputs.append((json_path.read_bytes(), md_path.read_bytes()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] != outputs[2][0]
