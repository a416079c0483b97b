"""Long-form sets: one reference per recording, its clips joined in recording order.

Rules (reference-builder specification): a long-form reference is the clip references of one
group (a TVSpeech video, a GigaSpeech2 recording), sorted by their place in the recording,
each stripped and joined with one space; id and cluster are the group. Groups come in the order
their first clip appears in the clip set; excluded groups are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pytest_asrbench.bench.references.model import Reference


def join_recordings(clips: Iterable[Reference], order: Callable[[Reference], int],
                    exclude: frozenset[str] = frozenset()) -> list[Reference]:
    """One :class:`Reference` per cluster of ``clips`` not in ``exclude``: its clips sorted by
    ``order`` (their index in the recording), texts stripped and joined by one space.

    ``[("0", "a", cluster v), ("1", "b ", cluster v)]`` -> ``[("v", "a b", cluster v)]``.
    """
    groups: dict[str, list[Reference]] = {}
    for clip in clips:
        groups.setdefault(clip.cluster, []).append(clip)
    return [Reference(id=group, text=" ".join(clip.text.strip() for clip in sorted(members, key=order)), cluster=group)
            for group, members in groups.items() if group not in exclude]
