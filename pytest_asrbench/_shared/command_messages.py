"""The one prefix of every line an ``asrbench`` command prints on stderr.

A command names itself by its full command path, as argparse names it in its own usage
errors: ``asrbench bench run``, ``asrbench refs build``, ``asrbench normalize``. Every line
it writes to stderr, whether ``asrbench`` reports an error the command raised or the command
reports one of many failures itself and goes on (a clip, a reference set), starts with that
path, then the kind of line, then the message::

    asrbench bench run: error: --manifest m.jsonl: no such file
    asrbench transcribe: warning: the hypothesis cache is read-only ...
    asrbench review: refused: ...
    asrbench bench run: --allow-missing: 2 row(s) excluded ...     (a notice: no kind)

So a user (or a script reading stderr) sees one name per command, never a shorter one for
the errors ``asrbench`` catches and a longer one for those the command prints. ``asrbench``
gives each command its path as ``args.command_path`` (:func:`command_path`).
"""

from __future__ import annotations

import argparse
import sys

#: The attribute of the parsed arguments that holds the command's full path.
COMMAND_PATH = "command_path"


def command_path(args: argparse.Namespace) -> str:
    """The full command path of the parsed ``args`` (``"asrbench bench run"``).

    Raises:
        AttributeError: ``args`` did not come from ``asrbench``'s parser, which names every
            command (``pytest_asrbench.cli.build_parser``).
    """
    return getattr(args, COMMAND_PATH)


def stderr_line(command: str, message: str, kind: str | None = "error") -> str:
    """``"{command}: {kind}: {message}"`` (``"{command}: {message}"`` when ``kind`` is None,
    ``"{command}: {kind}"`` when ``message`` is empty).

    ``command`` is a full command path (:func:`command_path`); ``kind`` is ``error``,
    ``warning``, ``refused``, ``interrupted`` or None for a notice.
    """
    parts = [command] + ([kind] if kind else []) + ([message] if message else [])
    return ": ".join(parts)


def report_line(command: str, message: str, kind: str | None = "error") -> None:
    """Print :func:`stderr_line` on stderr, flushed (progress on stdout may interleave)."""
    print(stderr_line(command, message, kind), file=sys.stderr, flush=True)
