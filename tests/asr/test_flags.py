"""Transcript flags: no speech and the signs of hallucination (no model needed)."""

import pytest

from pytest_asrbench.asr.engine import DecodeInfo, Segment, has_repetition_loop, transcript_flags


@pytest.mark.parametrize(
    "text",
    [
        "bhe bhe bhe bhe",  # word loop (a real espeak-Hindi transcript)
        "สาวินสาวินสาวินสาวิน",  # character run without spaces (Thai)
        "तो दो दो दो दो",  # Devanagari word loop
        "thank you thank you thank you",  # phrase loop
        "aaaaaaaa",
    ],
)
def test_repetition_loops_are_found(text):
    assert has_repetition_loop(text)


@pytest.mark.parametrize(
    "text",
    ["the cat sat on the mat", "1000000", "121212 is a number", "ありがとうございます", "no, no"],
)
def test_ordinary_text_is_not_a_loop(text):
    assert not has_repetition_loop(text)


def _info(**kw):
    base = dict(language="en", language_probability=1.0, no_speech_prob=None, compression_ratio=None, duration=1.0)
    base.update(kw)
    return DecodeInfo(**base)


def test_empty_text_is_no_speech():
    assert transcript_flags("", (), _info(), audio_is_silent=True) == ("no_speech",)


def test_text_on_silent_audio_is_flagged():
    seg = Segment(0.0, 1.0, " You", no_speech_prob=0.1, compression_ratio=0.5)
    assert transcript_flags("You", (seg,), _info(), audio_is_silent=True) == ("text_on_silence",)


def test_text_where_the_model_says_no_speech_is_flagged():
    seg = Segment(0.0, 1.0, " Thanks for watching", no_speech_prob=0.9, compression_ratio=1.0)
    assert "text_on_silence" in transcript_flags("Thanks for watching", (seg,), _info(), audio_is_silent=False)


def test_high_compression_ratio_is_flagged():
    seg = Segment(0.0, 1.0, "x", no_speech_prob=0.0, compression_ratio=2.41)
    assert transcript_flags("x", (seg,), _info(), audio_is_silent=False) == ("high_compression_ratio",)


def test_language_mismatch_when_detection_disagrees():
    flags = transcript_flags("hallo", (), _info(detected_language="de"), audio_is_silent=False, forced_language="en")
    assert flags == ("language_mismatch",)
