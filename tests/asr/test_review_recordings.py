"""``asrbench review`` shows an ``asr`` snapshot's change host by host: a recording is matched
by the host identity that made it, never by its position in the list."""

from __future__ import annotations

import json

from pytest_asrbench.review.changes import changed_values

INTEL = "x86_64 GenuineIntel 6/207: avx2 avx512f"
AMD = "x86_64 AuthenticAMD 25/17: avx2 avx512f"
SIM = [f"simulated x86_64-{isa}-mkl-avx512 (CT2_FORCE_CPU_ISA={isa.upper()}) on x86_64 GenuineIntel ?/?: x"
       for isa in ("avx", "avx2", "generic")]


def _snapshot(groups: list[tuple[list[str], str, float]]) -> str:
    return json.dumps({"kind": "asr", "reference": "a b", "recordings": [
        {"recorded_on": hosts, "transcript": text, "flags": [], "rate": rate} for hosts, text, rate in groups]})


def test_one_changed_transcript_is_one_line_not_two_recordings_swapping_text():
    before = _snapshot([([AMD], "a b", 0.0), ([INTEL], "a c", 0.5)])
    # INTEL's transcript now equals AMD's: the two groups merge, list positions shift
    after = _snapshot([([AMD, INTEL], "a b", 0.0)])
    lines = changed_values(before, after)
    assert lines == ['recordings[x86_64 GenuineIntel 6/207].rate: 0.5000 -> 0.0000',
                     'recordings[x86_64 GenuineIntel 6/207].transcript: "a c" -> "a b"']


def test_hosts_with_the_same_change_share_a_line_and_added_hosts_show_their_transcript():
    before = _snapshot([(SIM, "a b", 0.0)])
    after = _snapshot([([AMD], "a b", 0.0), (SIM, "a", 0.5)])
    lines = changed_values(before, after)
    assert 'recordings[x86_64 AuthenticAMD 25/17]: (none) -> recorded: "a b"' in lines
    assert ('recordings[simulated x86_64-avx-mkl-avx512 (CT2_FORCE_CPU_ISA=AVX) and 2 more].transcript: '
            '"a b" -> "a"') in lines
    assert len(lines) == 3  # the added host, then transcript and rate of the three simulated hosts


def test_a_removed_host_is_named():
    lines = changed_values(_snapshot([([INTEL], "a b", 0.0)]), _snapshot([([AMD], "a b", 0.0)]))
    assert "recordings[x86_64 GenuineIntel 6/207]: recorded -> (none)" in lines
