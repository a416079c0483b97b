"""Bad arguments to every ``asrbench`` subcommand: one clear line on stderr, exit 2, no traceback."""

from __future__ import annotations

import pytest

from pytest_asrbench.cli import main


@pytest.mark.parametrize(
    "argv, words",
    [
        (["signature", "--metric", "foo"], ["unknown metric(s) 'foo'", "known metrics: cer, stt_wer"]),
        (["signature", "-l", "en", "--metric", "stt_wer", "--metric", "wer"], ["'wer'", "cer, stt_wer"]),
        (["signature", "-l", "xx"], ["no normalizer config for language 'xx'", "known languages:", "en"]),
        (["signature", "--root", "/nonexistent-asrbench"], ["no pytest-asrbench project in /nonexistent-asrbench",
                                                            "--root"]),
        (["signature", "--rev", "no-such-revision"], ["revision 'no-such-revision' does not exist", "git fetch"]),
        (["normalize", "-l", "xx", "text"], ["no normalizer config for language 'xx'", "known languages"]),
        (["explain", "-l", "", "text"], ["non-empty tag"]),
        (["score", "-l", "xx", "a", "b"], ["language 'xx'"]),
        (["check-version", "--root", "/nonexistent-asrbench"], ["--root /nonexistent-asrbench: no such folder"]),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"asrbench {argv[0]}: error: "), err
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize("argv", [["score", "-l", "en", "--metric", "foo", "a", "b"], ["frobnicate"], []])
def test_argparse_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage: asrbench" in capsys.readouterr().err


def test_transcribe_reference_with_a_language_without_normalizer_fails_before_decoding(capsys, tmp_path):
    pytest.importorskip("faster_whisper")
    # Whisper knows Tagalog, the normalizer does not: the score would fail after decoding
    assert main(["transcribe", "-l", "tl", "--reference", "kumusta", str(tmp_path / "never-read.wav")]) == 2
    err = capsys.readouterr().err
    assert "no normalizer config for language 'tl'" in err and "never-read" not in err


def test_interrupt_is_one_line_and_exit_130(monkeypatch, capsys):
    from pytest_asrbench import cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_normalize", interrupted)  # the parser is built inside main()
    assert main(["normalize", "-l", "en", "x"]) == 130
    assert capsys.readouterr().err == "asrbench normalize: interrupted\n"
