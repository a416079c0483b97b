"""Surface metrics of a bench run that this harness measures: the egress audit, the runtime
closure and (with ``--word-timestamps``) word timestamps.

- **Egress audit**: while the model loads and every row decodes, a Python audit hook
  (:func:`sys.addaudithook`, PEP 578) records each ``socket.connect``, ``socket.getaddrinfo``
  and ``socket.sendto`` event; the record holds their count and the first addresses. It sees
  every socket opened through Python (huggingface_hub, urllib, requests); native code that
  opened its own sockets would not be seen, which the record says.
- **Runtime closure**: the installed size of every distribution a module of which was
  imported when the run ended (``importlib.metadata``: the files its ``RECORD`` lists), plus
  the model's bytes on disk, which the model section holds. The standard library is not a
  distribution and is not counted.
- **Word timestamps** (:func:`word_timestamp_problems`): every utterance with text has words
  with times, each word's start <= its end, and the words run in order (no word starts before
  the previous one ends, within :data:`TIME_SLACK`).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

#: The audit events that mean the process tried to reach the network.
SOCKET_EVENTS = frozenset({"socket.connect", "socket.getaddrinfo", "socket.sendto", "socket.sendmsg"})
#: How many addresses the record quotes.
QUOTED = 5
_ACTIVE: list[list[str]] = []
_INSTALLED = False


def _hook(event: str, args: tuple) -> None:
    if _ACTIVE and event in SOCKET_EVENTS:
        _ACTIVE[-1].append(f"{event} {args[1:2] if event == 'socket.connect' else args[:2]!r}")


@contextmanager
def egress_audit():
    """Collect the socket events of the ``with`` block; yields the list they are appended to.

    The hook is installed once per process (audit hooks cannot be removed) and records only
    while a block is active."""
    global _INSTALLED
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED = True
    events: list[str] = []
    _ACTIVE.append(events)
    try:
        yield events
    finally:
        _ACTIVE.remove(events)


def egress_section(events: list[str]) -> dict:
    """The record's egress audit: the count of socket events, the first :data:`QUOTED`, the method."""
    return {"socket_events": len(events), "first": events[:QUOTED],
            "method": "Python audit hook on socket.connect/getaddrinfo/sendto/sendmsg during model load and "
                      "decode; sockets opened by native code alone are not seen"}


#: Seconds two word times may overlap and still be in order (the engine rounds to milliseconds).
TIME_SLACK = 0.001


def word_timestamp_problems(segments) -> list[str]:
    """What is wrong with the word timestamps of one transcript's ``segments`` (empty: present
    and monotonic): no words although there is text, a word ending before it starts, a word
    starting before the previous one ends."""
    words = [word for segment in segments for word in segment.words]
    if not words:
        return ["no word timestamps"] if any(segment.text.strip() for segment in segments) else []
    problems = []
    previous_end = None
    for word in words:
        if word.end + TIME_SLACK < word.start:
            problems.append(f"{word.word.strip()!r} ends at {word.end} before it starts at {word.start}")
        if previous_end is not None and word.start + TIME_SLACK < previous_end:
            problems.append(f"{word.word.strip()!r} starts at {word.start} before the previous word ends at "
                            f"{previous_end}")
        previous_end = word.end
    return problems


def word_timestamps_section(requested: bool, problems_by_id: dict[str, list[str]], with_text: int) -> dict:
    """The record's word-timestamp check: how many utterances with text had present and
    monotonic word times, and the problems of the others (by utterance id)."""
    if not requested:
        return {"requested": False, "utterances_with_text": with_text, "passed": None, "problems": {},
                "reason": "run with --word-timestamps to measure (it is a decode setting: both arms need it)"}
    failing = {ident: found for ident, found in problems_by_id.items() if found}
    return {"requested": True, "utterances_with_text": with_text, "passed": with_text - len(failing),
            "problems": failing, "reason": None}


def _distribution_bytes(dist) -> int:
    total = 0
    for file in dist.files or ():
        try:
            total += Path(dist.locate_file(file)).stat().st_size
        except OSError:
            continue
    return total


def runtime_closure(modules: dict | None = None) -> dict:
    """``{"bytes", "distributions": {name: bytes}}``: installed size of the distributions whose
    top-level modules are in ``modules`` (default ``sys.modules``)."""
    import importlib.metadata

    modules = sys.modules if modules is None else modules
    owners = importlib.metadata.packages_distributions()
    names = sorted({dist for top in {name.split(".")[0] for name in modules} for dist in owners.get(top, ())})
    sizes = {}
    for name in names:
        try:
            sizes[name] = _distribution_bytes(importlib.metadata.distribution(name))
        except importlib.metadata.PackageNotFoundError:
            continue
    return {"bytes": sum(sizes.values()), "distributions": sizes}
