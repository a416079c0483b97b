"""How a Korean word (어절) ends: a stem followed by a chain of particles and endings.

Korean attaches particles to the word they follow (``3월에서는`` = ``3월`` + ``에서`` + ``는``),
so a rule that must know whether a counter ends its word (the original requirements: "after 한/두/세/네
the counter must end the word or be followed by a particle", so ``네 개인정보`` stays) asks
:class:`ParticleChain` whether the rest of the word is particles. The particles are data
(``configs/ko/particles.tsv``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache


class ParticleChain:
    """Whether a text is empty or a chain of listed particles (longest tried first).

    ``ParticleChain(["에서", "는", "에"])("에서는")`` is True; ``("인정보")`` is False.
    """

    def __init__(self, particles: Iterable[str]):
        self.particles = tuple(sorted(set(particles), key=len, reverse=True))
        self._check = lru_cache(maxsize=4096)(self._is_chain)

    def __call__(self, text: str) -> bool:
        return self._check(text)

    def _is_chain(self, text: str) -> bool:
        return not text or any(text.startswith(p) and self._check(text[len(p):]) for p in self.particles)
