"""Side-by-side timing shared by the benchmark scripts: arms run in one process, taking turns,
so the machine's drift (other load, clock changes, a warm page cache) hits every arm alike.

An arm is a call with no arguments; :func:`alternating_round` calls every arm once, in the
given order on an even turn and in reverse on an odd one (A B, B A, ...), and times each call
with ``time.perf_counter`` (wall seconds). :func:`side_by_side` runs ``rounds`` such turns and
sums each arm's seconds. Nothing here judges a figure: the scripts print them side by side.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping
from typing import TypeVar

T = TypeVar("T")


def timed(call: Callable[[], T]) -> tuple[float, T]:
    """``(wall seconds, result)`` of one call."""
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


def alternating_round(arms: Mapping[str, Callable[[], T]], turn: int) -> dict[str, tuple[float, T]]:
    """Call every arm once, in ``arms``' order when ``turn`` is even and reversed when it is
    odd; ``{arm: (wall seconds, result)}``."""
    order = list(arms.items())
    if turn % 2:
        order.reverse()
    return {name: timed(call) for name, call in order}


def side_by_side(arms: Mapping[str, Callable[[], T]], rounds: int, *, first_turn: int = 0
                 ) -> tuple[dict[str, float], list[dict[str, tuple[float, T]]]]:
    """``rounds`` alternating rounds (turns ``first_turn``, ``first_turn + 1`` ...): the total
    wall seconds of each arm, and each round's ``{arm: (seconds, result)}``."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    per_round = [alternating_round(arms, first_turn + turn) for turn in range(rounds)]
    return {name: sum(done[name][0] for done in per_round) for name in arms}, per_round


def positive_int(text: str) -> int:
    """An argparse ``type`` for counts and repeats: an int of at least 1 (a timing over no text
    or no pass has no rate), else argparse's usage error naming the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value
