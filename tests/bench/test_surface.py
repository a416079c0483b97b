"""Surface metrics of a bench run: the egress audit sees a socket opened through Python, and
the runtime closure sums the installed bytes of the distributions the run imported."""

from __future__ import annotations

import socket

import pytest

from pytest_asrbench.bench.run.surface import egress_audit, egress_section, runtime_closure


def test_the_egress_audit_records_a_connection_attempt_and_nothing_outside_its_block():
    with egress_audit() as events:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.01)
            try:
                sock.connect(("127.0.0.1", 9))  # the discard port: refused or timed out, never reached
            except OSError:
                pass
    assert len(events) == 1 and events[0].startswith("socket.connect")
    section = egress_section(events)
    assert section["socket_events"] == 1 and "audit hook" in section["method"]
    with socket.socket() as sock:  # outside the block: not recorded
        sock.settimeout(0.01)
        try:
            sock.connect(("127.0.0.1", 9))
        except OSError:
            pass
    assert len(events) == 1


def test_a_block_with_no_network_records_no_event():
    with egress_audit() as events:
        sum(range(10))
    assert egress_section(events)["socket_events"] == 0


def test_the_runtime_closure_counts_the_imported_distributions_bytes():
    import jsonschema  # a core dependency, installed with the package

    closure = runtime_closure({"jsonschema": jsonschema, "json": None})
    assert list(closure["distributions"]) == ["jsonschema"]  # json is the standard library: not counted
    assert closure["bytes"] == closure["distributions"]["jsonschema"] > 0


from pytest_asrbench.asr.engine import Segment, Word  # noqa: E402
from pytest_asrbench.bench.run.surface import word_timestamp_problems, word_timestamps_section  # noqa: E402


def test_word_timestamps_present_and_in_order_pass():
    segments = (Segment(0.0, 1.2, " two words", words=(Word(0.0, 0.5, " two"), Word(0.5, 1.2, " words"))),
                Segment(1.2, 2.0, " more", words=(Word(1.3, 2.0, " more"),)))
    assert word_timestamp_problems(segments) == []
    assert word_timestamp_problems(()) == []  # no text, nothing to time


@pytest.mark.parametrize(("segments", "problem"), [
    ((Segment(0.0, 1.0, " text"),), "no word timestamps"),
    ((Segment(0.0, 1.0, " a b", words=(Word(0.0, 0.6, " a"), Word(0.4, 1.0, " b"))),),
     "'b' starts at 0.4 before the previous word ends at 0.6"),
    ((Segment(0.0, 1.0, " a", words=(Word(0.8, 0.2, " a"),)),), "'a' ends at 0.2 before it starts at 0.8"),
])
def test_missing_or_disordered_word_timestamps_are_named(segments, problem):
    assert word_timestamp_problems(segments) == [problem]


def test_the_word_timestamp_section_counts_passes_and_says_how_to_measure():
    section = word_timestamps_section(True, {"u1": [], "u2": ["no word timestamps"]}, 2)
    assert section["passed"] == 1 and section["problems"] == {"u2": ["no word timestamps"]}
    assert "--word-timestamps" in word_timestamps_section(False, {}, 3)["reason"]


@pytest.mark.asr
def test_the_engine_gives_monotonic_word_timestamps_for_a_sample_clip():
    pytest.importorskip("faster_whisper")
    from pytest_asrbench.asr import create_engine
    from tests.asr.conftest import SAMPLES

    engine = create_engine("faster-whisper", model="tiny.en", cpu_threads=2,
                           transcribe_options={"word_timestamps": True})
    transcript = engine.transcribe(SAMPLES / "en" / "en-02.flac", language="en")
    assert [w.word.strip() for s in transcript.segments for w in s.words] == ["Please", "open", "the", "door."]
    assert word_timestamp_problems(transcript.segments) == []


def test_a_transcript_with_words_round_trips_through_its_cache_form():
    from pytest_asrbench.asr.engine import DecodeInfo, Transcript

    info_fields = {f: None for f in DecodeInfo.__dataclass_fields__}
    transcript = Transcript("a", (Segment(0.0, 1.0, " a", words=(Word(0.0, 1.0, " a", 0.9),)),),
                            DecodeInfo(**info_fields), ())
    assert Transcript.from_dict(transcript.to_dict()) == transcript
    old = transcript.to_dict()
    del old["segments"][0]["words"]  # an entry cached before words existed
    assert Transcript.from_dict(old).segments[0].words == ()
