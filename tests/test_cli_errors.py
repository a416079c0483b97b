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


# One bad input per command: every command of the parser must be here (a new one without an
# entry fails the completeness test below), and none of them gets as far as loading a model.
BAD_INPUT = {
    "asrbench normalize": ["normalize", "-l", "xx", "text"],
    "asrbench explain": ["explain", "-l", "", "text"],
    "asrbench score": ["score", "-l", "xx", "a", "b"],
    "asrbench signature": ["signature", "--metric", "foo"],
    "asrbench check-version": ["check-version", "--root", "{tmp}/missing"],
    "asrbench transcribe": ["transcribe", "-l", "en", "{tmp}/missing.wav"],
    "asrbench asr parity": ["asr", "parity", "--manifest", "{tmp}/m.jsonl"],
    "asrbench bench score": ["bench", "score", "--refs", "{tmp}/refs", "--hyps", "{tmp}/hyps"],
    "asrbench bench run": ["bench", "run", "--out", "{tmp}/run.json"],
    "asrbench bench compare": ["bench", "compare", "{tmp}/a.json", "{tmp}/b.json", "--out", "{tmp}/d.md"],
    "asrbench refs build": ["refs", "build", "--out", "{tmp}/refs", "--sets", "gs3"],
    "asrbench review": ["review", "--root", "{tmp}/missing"],
    "asrbench add-case": ["add-case", "-l", "en", "--kind", "normalize", "--root", "{tmp}"],
    "asrbench export sclite": ["export", "sclite", "{tmp}/missing.yaml", "--out", "{tmp}/out"],
}


def _commands(parser=None, found=None) -> list[str]:
    """The full path of every command that runs something (argparse's prog of each leaf)."""
    import argparse

    from pytest_asrbench.cli import build_parser

    parser = parser or build_parser()
    found = [] if found is None else found
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                if any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
                    _commands(sub, found)
                else:
                    found.append(sub.prog)
    return found


def test_every_command_has_a_bad_input_below():
    assert sorted(_commands()) == sorted(BAD_INPUT)


@pytest.mark.parametrize("command", sorted(BAD_INPUT))
def test_every_stderr_line_of_a_command_starts_with_its_full_path(command, tmp_path, capsys):
    argv = [word.replace("{tmp}", str(tmp_path)) for word in BAD_INPUT[command]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err, "a bad input must be reported"
    for line in err.splitlines():
        if not line.startswith(" "):  # indented lines continue the one above
            assert line.startswith(f"{command}: error: "), err


def test_a_nested_command_names_itself_whole_in_argparse_errors_and_in_its_own(capsys):
    # argparse's usage error and the command's own error use one name
    with pytest.raises(SystemExit):
        main(["bench", "run"])
    assert "asrbench bench run: error: the following arguments are required" in capsys.readouterr().err
    assert main(["bench", "run", "--out", "run.json"]) == 2
    assert capsys.readouterr().err.startswith("asrbench bench run: error: --manifest and --audio-root are required")


@pytest.mark.parametrize("command", sorted(BAD_INPUT))
def test_an_argument_a_command_does_not_take_is_that_command_s_usage_error(command, tmp_path, capsys):
    # argparse hands a subcommand's unknown arguments to the top-level parser, whose error
    # names no command: here each command reports it with its own usage
    argv = [word.replace("{tmp}", str(tmp_path)) for word in BAD_INPUT[command]]
    with pytest.raises(SystemExit) as info:
        main([*argv, "--no-such-option"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"usage: {command} " in err, err
    assert f"\n{command}: error: unrecognized arguments: --no-such-option (see {command} --help)\n" in err, err


@pytest.mark.parametrize("argv, command", [
    (["normalize", "-l", "en", "one", "two"], "asrbench normalize"),
    (["bench", "--no-such-option", "compare", "a.json", "b.json", "--out", "d.md"], "asrbench bench"),
    (["export", "--no-such-option", "sclite", "a.yaml", "--out", "out"], "asrbench export"),
])
def test_a_stray_argument_of_a_command_or_group_is_that_parser_s_usage_error(argv, command, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"usage: {command} " in err and f"\n{command}: error: unrecognized arguments: " in err, err


def _parsers(parser=None):
    """Every parser of the asrbench command, the top one and each command and group below it."""
    import argparse

    from pytest_asrbench.cli import build_parser

    parser = parser or build_parser()
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_command_s_help_says_what_it_does_and_what_each_argument_is():
    """``asrbench <command> --help`` is where a new user starts: a command without a
    description, or a positional or option without a help line, leaves them guessing."""
    import argparse

    missing = []
    for parser in _parsers():
        if not parser.description:
            missing.append(f"{parser.prog}: no description")
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
                continue
            if not action.help:
                missing.append(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}: no help")
    assert missing == []


def test_a_command_without_its_own_description_shows_the_help_line_it_is_listed_with(capsys):
    with pytest.raises(SystemExit):
        main(["normalize", "--help"])
    out = capsys.readouterr().out
    assert "\nPrint the normalized form of TEXT.\n" in out and "  text                  the text, quoted" in out


LATIN1 = b"caf\xe9".decode("utf-8", "surrogateescape")  # what Python makes of a Latin-1 argument in a UTF-8 shell


@pytest.mark.parametrize("argv, name", [
    (["normalize", "-l", "en", LATIN1], "text"),
    (["explain", "-l", "en", "cafe", LATIN1], "text"),
    (["score", "-l", "en", "cafe", LATIN1], "hypothesis"),
    (["add-case", "-l", "en", "--kind", "score", "--reference", LATIN1, "--hypothesis", "x", "--no-run"], "reference"),
    (["add-case", "-l", "en", "--kind", "equal", "--text", "a", "--text", "b", "--note", LATIN1, "--no-run"], "note"),
])
def test_a_text_argument_that_is_not_utf8_is_refused_not_scored_as_stray_characters(argv, name, capsys, tmp_path):
    assert main([*argv, "--root", str(tmp_path)] if argv[0] == "add-case" else argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (tmp_path / "cases").exists()
    assert f"error: the {name} b'caf\\xe9' is not valid" in err and "(byte 0xe9)" in err, err


def test_signature_case_prints_only_the_entry_asked_for_as_the_case_file_records_it(capsys):
    """``asrbench signature -l en --metric stt_wer --case``: one ``kind: signature`` entry to
    paste under ``cases:``, not a whole file (no ``language:`` or ``cases:`` line, no other
    metric's or language's entry), equal to the recorded one in ``cases/en/signature.yaml``."""
    from pathlib import Path

    from ruamel.yaml import YAML

    assert main(["signature", "-l", "en", "--metric", "stt_wer", "--case"]) == 0
    printed = capsys.readouterr().out
    lines = printed.splitlines()
    assert lines[0] == "# stt_wer in en: the signature case for <your case folder>/en/signature.yaml"
    assert lines[1] == "  - id: stt_wer-signature"
    assert sum(line.lstrip().startswith("- id:") for line in lines) == 1
    assert all(line.startswith(("  ", "#")) for line in lines), "only an entry of the cases list"
    (entry,) = YAML(typ="safe").load(printed)
    recorded = YAML(typ="safe").load(Path(__file__).parents[1].joinpath("cases/en/signature.yaml").read_text("utf-8"))
    assert entry == next(case for case in recorded["cases"] if case["id"] == "stt_wer-signature")
