"""One reference clip of a benchmark set: ``{"id", "text", "cluster"}``.

``id`` is the key hypotheses are matched on; ``cluster`` is the unit the bootstrap resamples
(a recording, a video, a speaker or a meeting: clips of one cluster are not independent).
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_asrbench.bench.errors import SourceFormatError


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference transcript. ``id`` and ``cluster`` are non-empty strings; ``text`` is a
    string (it may be empty).

    Raises:
        SourceFormatError: a field is not a string, or ``id``/``cluster`` is empty.
    """

    id: str
    text: str
    cluster: str

    def __post_init__(self) -> None:
        for field in ("id", "text", "cluster"):
            value = getattr(self, field)
            if not isinstance(value, str):
                raise SourceFormatError(f"clip {self.id!r}: {field} must be a string, got {type(value).__name__} {value!r}")
        if not self.id.strip():
            raise SourceFormatError(f"a clip has an empty id (text {self.text[:40]!r})")
        if not self.cluster.strip():
            raise SourceFormatError(f"clip {self.id!r} has an empty cluster")

    def to_dict(self) -> dict[str, str]:
        """``{"id", "text", "cluster"}``, the JSONL record."""
        return {"id": self.id, "text": self.text, "cluster": self.cluster}
