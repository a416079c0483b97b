"""The ``asrbench`` command: look at one normalization or score without writing a case.

    asrbench normalize -l de "Anmelde-Konto"
    asrbench explain -l ko "삼월 이십오일"
    asrbench explain -l de "Anmelde-Konto" "Anmeldekonto"   # two renderings: where they part
    asrbench score -l en "the cat sat" "the bat sat" [--json]
    asrbench score -l de --references r.txt --hypotheses h.txt [--format kaldi] [--json]
    asrbench refs build --out refs/ [--sets fleurs gs2 ...]

Commands that read language configs (:data:`CONFIG_COMMANDS`) search a project's own config
folders before the package's: ``--config-dir DIR`` (repeatable), then the
``asrbench_config_dirs`` option of the project's pytest ini file (the project holding
``--root``, or the current folder), then ``ASRBENCH_CONFIG_DIRS`` (configs/README.md, "Your
own configs"); so in a project, ``asrbench explain`` shows the normalization its
``pytest --asrbench`` run checks.

Each subcommand lives in a small function here, or in the stage module that owns it and
is registered in :data:`COMMAND_MODULES` (a module exposing ``add_parser(subparsers)``).
Every line a command prints on stderr starts with its full command path (``asrbench bench run:
error: ...``; :mod:`pytest_asrbench._shared.command_messages`), the name argparse gives it in
its usage errors too; an argument a command does not take is that command's usage error, not
the top-level one (:class:`_CommandParser`). Exit codes: 0 success, 1 a check failed, 2 bad usage or bad input (the message says what to
fix), 130 interrupted (Ctrl-C: one line on stderr, no traceback; files are written atomically,
so an interrupted command leaves no half-written cache entry or record).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import sys

from pathlib import Path

from pytest_asrbench import __version__
from pytest_asrbench._shared.command_messages import COMMAND_PATH, command_path, report_line
from pytest_asrbench._shared.config_layers import ENV_VAR
from pytest_asrbench._shared.project_ini import find_settings, project_config_folders
from pytest_asrbench.errors import AsrbenchError, InputError
from pytest_asrbench.filescore.cli import add_arguments as add_file_arguments
from pytest_asrbench.normalize import explain, normalize_text
from pytest_asrbench.normalize.registry import config_dirs_in_use, get_config, use_config_dirs
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.alignment_view import color_wanted
from pytest_asrbench.scoring.display import describe_divergence, describe_rescues, legend, render_headline, render_trace
from pytest_asrbench.scoring.headline import headline_alignments
from pytest_asrbench.scoring.metrics import METRICS
from pytest_asrbench.scoring.serialize import score_to_dict

# Modules of other stages that add subcommands: each has add_parser(subparsers).
COMMAND_MODULES: list[str] = [
    "pytest_asrbench.signatures.cli",
    "pytest_asrbench.cases.check_version",
    "pytest_asrbench.asr.transcribe_command",
    "pytest_asrbench.asr.parity_command",
    "pytest_asrbench.bench.cli",
    "pytest_asrbench.review.cli",
    "pytest_asrbench.intake.cli",
    "pytest_asrbench.export.cli",
]
#: Subcommands that read language configs (a nested one as its path of names): they take
#: ``--config-dir DIR`` (repeatable) and search the project's config folders.
CONFIG_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("normalize",), ("explain",), ("score",), ("signature",), ("transcribe",), ("add-case",), ("review",),
    ("export", "sclite"), ("bench", "score"), ("bench", "run"), ("asr", "parity"))


def _normalize(args: argparse.Namespace) -> int:
    print(normalize_text(args.text, args.language))
    return 0


def _explain(args: argparse.Namespace) -> int:
    """One text: every step and its output. Two or more (renderings that should be equal):
    each trace, then for each text after the first its aligned view against the first and the
    step at which the two grow apart."""
    traces = [explain(text, args.language) for text in args.text]
    for text, trace in zip(args.text, traces):
        if len(traces) > 1:
            print(f"steps of {text!r}:")
        for line in render_trace(trace):
            print(line)
    color, width = color_wanted(sys.stdout), _terminal_width()
    unit = get_config(args.language).unit
    for text, trace in zip(args.text[1:], traces[1:]):
        same = traces[0][-1][1] == trace[-1][1]
        print(f"{args.text[0]!r} vs {text!r}: " + ("the same normalized form" if same else "different"))
        if not same:
            print(describe_divergence(traces[0], trace, unit, color=color, width=width))
    return 0


def _terminal_width() -> int:
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def _format_rate(rate: float | None) -> str:
    return "n/a (empty reference)" if rate is None else f"{rate:.2%}"


def _score(args: argparse.Namespace) -> int:
    """Two texts on the command line, or (``--references``/``--hypotheses``) two transcript
    files scored as a corpus (:mod:`pytest_asrbench.filescore.cli`)."""
    files = args.references is not None or args.hypotheses is not None
    texts = args.reference is not None or args.hypothesis is not None
    if files and texts:
        raise InputError("give either two texts (REFERENCE HYPOTHESIS) or --references and --hypotheses files, "
                         "not both")
    if files:
        from pytest_asrbench.filescore.cli import run

        return run(args)
    if args.reference is None or args.hypothesis is None:
        raise InputError("give a reference and a hypothesis text (asrbench score -l en \"the cat\" \"the bat\"), or "
                         "two files with --references REF --hypotheses HYP")
    result = score(args.reference, args.hypothesis, args.language, args.metric)
    if args.json:
        print(json.dumps(score_to_dict(result), ensure_ascii=False, indent=2))
        return 0
    unit = "WER" if result.unit == "word" else "CER"
    print(f"{unit} {_format_rate(result.rate)}  ({result.metric} {result.version}, {result.language} config "
          f"{result.config_version})")
    print(f"hits {result.hits}  substitutions {result.substitutions}  deletions {result.deletions}  "
          f"insertions {result.insertions}  reference length {result.reference_length}")
    for key, value in result.details.items():
        if isinstance(value, (int, float, str)) or value is None:
            print(f"{key}: {value}")
    for line in describe_rescues(result):  # languages with a code-switch or loanword view
        print(line)
    for pair, headline in zip(result.pairs, headline_alignments(result)):
        print(f"normalized reference:  {pair.normalized_reference}")
        print(f"normalized hypothesis: {pair.normalized_hypothesis}")
        if headline.rescued:
            print(f"alignment ({legend(result.unit, headline)}):")
        print(render_headline(headline, color=color_wanted(sys.stdout), width=_terminal_width()))
    return 0


class _CommandParser(argparse.ArgumentParser):
    """The parser of a command or command group (``asrbench bench``, ``asrbench bench run``):
    an argument it does not take is its own usage error, with its usage and full path.

    argparse hands a subcommand's unknown arguments back to the top-level parser, which would
    report them under ``asrbench``'s usage, naming no command. Nested groups made with
    ``add_subparsers`` inherit this class, so every command below ``asrbench`` gets it.
    """

    def parse_known_args(self, args=None, namespace=None):  # noqa: D102 - argparse's signature
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)} (see {self.prog} --help)")
        return namespace, extras


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="asrbench", description="Speech-recognition evaluation tools.")
    parser.add_argument("--version", action="version", version=f"pytest-asrbench {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser)

    for name, handler, help_text, count in (
        ("normalize", _normalize, "print the normalized form of TEXT", None),
        ("explain", _explain, "print every normalizer step and its output (* marks a change); with several "
                              "texts, also where each parts from the first", "+"),
    ):
        sub = subparsers.add_parser(name, help=help_text)
        sub.add_argument("-l", "--language", required=True, help="language tag, e.g. en, hi, fr-CA")
        sub.add_argument("text", nargs=count, help="the text, quoted" if count is None else
                         "one or more texts, each quoted: the first is the one the others are compared with")
        sub.set_defaults(handler=handler)

    sub = subparsers.add_parser("score", help="score one reference/hypothesis pair, or two transcript files as "
                                               "a corpus (--references, --hypotheses)")
    sub.add_argument("-l", "--language", required=True, help="language tag, e.g. en, hi, fr-CA")
    sub.add_argument("--metric", default="stt_wer", choices=sorted(METRICS),
                     help="stt_wer (default: words, or characters for ja, ko, zh, th) or cer (characters)")
    sub.add_argument("--json", action="store_true", help="print the whole score as JSON")
    sub.add_argument("reference", nargs="?", help="reference text (or use --references FILE)")
    sub.add_argument("hypothesis", nargs="?", help="hypothesis text (or use --hypotheses FILE)")
    add_file_arguments(sub)
    sub.set_defaults(handler=_score)

    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).add_parser(subparsers)
    for names in CONFIG_COMMANDS:
        _subcommand(parser, names).add_argument(
            "--config-dir", action="append", default=[], metavar="DIR", type=Path,
            help=f"a project config folder searched before the package's configs (repeatable, first wins; then the "
                 f"asrbench_config_dirs option of the project's pytest ini file, then {ENV_VAR}); a config there "
                 f"may `extends = \"en\"` a shipped one (configs/README.md)")
    _name_commands(parser)
    return parser


def _subcommand(parser: argparse.ArgumentParser, names: tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser of the subcommand at path ``names`` (``("export", "sclite")``)."""
    for name in names:
        parser = next(action for action in parser._actions  # argparse keeps subcommands only here
                      if isinstance(action, argparse._SubParsersAction)).choices[name]
    return parser


def _name_commands(parser: argparse.ArgumentParser) -> None:
    """Give every command its full path (``args.command_path``, ``"asrbench bench run"``): the
    ``prog`` argparse gives it and prints in its usage errors, so the errors a command raises
    or prints carry the same name. A command made without a ``description`` gets the help line
    its parent lists it with, so ``asrbench <command> --help`` says what the command does."""
    for action in parser._actions:  # argparse keeps subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            listed = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                sub.set_defaults(**{COMMAND_PATH: sub.prog})
                if not sub.description and listed.get(name):
                    text = listed[name].replace("%%", "%")  # a help line is %-formatted, a description is not
                    sub.description = text[0].upper() + text[1:] + "."
                _name_commands(sub)


def _use_config_dirs(args: argparse.Namespace) -> None:
    """For a command of :data:`CONFIG_COMMANDS`: search the project's config folders before the
    package's configs (``--config-dir``, the ``asrbench_config_dirs`` ini option of the project
    holding ``--root`` or the current folder, ``ASRBENCH_CONFIG_DIRS``;
    :func:`~pytest_asrbench._shared.project_ini.project_config_folders`), and keep them as
    ``args.config_folders`` for a command that starts pytest with the same folders.

    Raises:
        ConfigError: a named folder does not exist (the message names the setting).
    """
    if not hasattr(args, "config_dir"):
        return
    root = getattr(args, "root", None)
    args.config_folders = project_config_folders(find_settings(Path.cwd() if root is None else Path(root)),
                                                 args.config_dir)
    if args.config_folders:
        use_config_dirs(args.config_folders)


#: Characters Python puts for command-line bytes that are not valid in the locale's encoding
#: (PEP 383's surrogateescape: byte 0xNN becomes U+DCNN).
_UNDECODABLE = re.compile("[\udc80-\udcff]")


#: The arguments that are text to normalize, score or write into a case (not file names, which
#: may hold any bytes): ``asrbench normalize/explain/score`` and ``add-case``.
_TEXT_ARGUMENTS: tuple[str, ...] = ("text", "reference", "hypothesis", "expect", "note", "id")


def _refuse_undecodable(args: argparse.Namespace) -> None:
    """Refuse a text argument holding bytes the locale's encoding cannot decode (Latin-1 text
    in a UTF-8 shell): it would be normalized, scored or written into a case as stray
    characters, where a transcript file with such bytes is refused.

    Raises:
        InputError: names the argument, its bytes and the first bad one.
    """
    for name in _TEXT_ARGUMENTS:
        value = getattr(args, name, None)
        for item in value if isinstance(value, list) else [value]:
            found = _UNDECODABLE.search(item) if isinstance(item, str) else None
            if found:
                raise InputError(f"the {name} {item.encode('utf-8', 'surrogateescape')!r} is not valid "
                                 f"{sys.getfilesystemencoding()} (byte 0x{ord(found.group()) - 0xDC00:02x}): give the "
                                 "text in UTF-8 (convert it with iconv -f latin1 -t utf-8, for example)")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; 0 on success, 2 on bad usage or input, 1 when a check fails, 130
    when interrupted. The project config folders a command searched are given back when it
    ends, however it ends, so an in-process caller (a test, a notebook) keeps its own."""
    command = "asrbench"
    folders_before = config_dirs_in_use()
    try:
        args = build_parser().parse_args(argv)
        command = command_path(args)
        _refuse_undecodable(args)
        _use_config_dirs(args)
        return args.handler(args)
    except AsrbenchError as exc:
        report_line(command, str(exc))
        return 2
    except KeyboardInterrupt:
        # Ctrl-C: 128 + SIGINT, as shells report it. Writers are atomic (_shared/atomic.py), so
        # nothing is left half-written; what was printed before stays printed.
        report_line(command, "", kind="interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (`asrbench ... | head`): stop quietly, as other Unix tools do.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - so the interpreter's final flush does not fail
        return 0
    finally:
        if config_dirs_in_use() != folders_before:
            use_config_dirs(list(folders_before))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
