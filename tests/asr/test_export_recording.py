"""``asrbench export sclite`` takes an ``asr`` case's hypothesis from the recording of this
machine, found by its host identity, and says when this machine has none."""

from __future__ import annotations

from pytest_asrbench.asr import identity
from pytest_asrbench.asr.fingerprint import KERNEL_ENV
from pytest_asrbench.export.sources import from_case_file

from .conftest import ROOT
from .hosts import AMD_EPYC_CPUINFO, AMD_NAME



def test_this_machines_recording_or_the_first_one_named(tmp_path, monkeypatch):
    import json

    snapshot = json.loads((ROOT / "snapshots" / "fr" / "asr" / "fr-01.json").read_text(encoding="utf-8"))
    native = [(name, item) for item in snapshot["recordings"] for name in item["recorded_on"]
              if not identity.is_simulated(name)]
    assert native, "the shipped fr-01 snapshot has a native recording"
    name, item = native[0]
    vendor, family_model = name.split(":")[0].split(" ")[1:]
    family, model = family_model.split("/")
    cpuinfo = (f"vendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model}\n"
               f"flags\t\t: {name.split(': ', 1)[1]}\n")
    (tmp_path / "native").write_text(cpuinfo, encoding="utf-8")
    (tmp_path / "amd").write_text(AMD_EPYC_CPUINFO, encoding="utf-8")
    for variable in KERNEL_ENV:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(identity, "CPUINFO_PATH", tmp_path / "native")
    (fr01, *_) = from_case_file(ROOT / "cases" / "fr" / "asr.yaml", ROOT)
    assert fr01.hypothesis == item["transcript"]
    assert fr01.note == f"hypothesis: the recording of this machine ({name.split(':')[0]})"
    monkeypatch.setattr(identity, "CPUINFO_PATH", tmp_path / "amd")
    (fr01, *_) = from_case_file(ROOT / "cases" / "fr" / "asr.yaml", ROOT)
    assert fr01.note.startswith(f"hypothesis: this machine ({AMD_NAME}) is not recorded; the recording of ")
