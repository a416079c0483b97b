"""Frozen evaluation protocols: named sets of config profiles whose step lists never change.

A protocol (zh-eval-v1) is a language's published text cleaning for benchmark figures. It is
declared by its language package (``normalize/languages/zh/eval_v1.py``) with the exact step
list of every profile it reads, and the language config defines those profiles
(``[profiles.eval_v1]`` ...). :func:`checked_protocol` refuses a config whose profiles differ from
the declaration (a project config layer that "fixes" a step, a hand edit), so a figure labelled
zh-eval-v1 is always made by zh-eval-v1. A change is a new protocol (zh-eval-v2), registered
next to the old one, which stays callable. The CER views
(:mod:`pytest_asrbench.scoring.views.cer_views`) read protocols from here, by language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import LanguageConfig


@dataclass(frozen=True)
class EvalProtocol:
    """One frozen protocol of one language.

    Attributes:
        name: the published name (``"zh-eval-v1"``).
        language: the config tag (``"zh"``).
        punct_profile: the profile of both sides with punctuation kept (``cer_punct``).
        normalized_profile: the profile of both sides with punctuation removed (``cer_normalized``,
            and the reference side of ``cer_script_normalized``).
        script_profiles: ``((script, profile), ...)``: the hypothesis profile converting to each
            script; the order is the tie-break of script detection (the first wins).
        steps: ``{profile: (step, ...)}``, the frozen list of every profile above.
    """

    name: str
    language: str
    punct_profile: str
    normalized_profile: str
    script_profiles: tuple[tuple[str, str], ...]
    steps: Mapping[str, tuple[str, ...]]

    def __post_init__(self) -> None:
        named = {self.punct_profile, self.normalized_profile, *(profile for _, profile in self.script_profiles)}
        if named != set(self.steps):
            raise ValueError(f"protocol {self.name}: steps must list exactly the profiles it names "
                             f"({sorted(named)}), got {sorted(self.steps)}")

    @property
    def scripts(self) -> tuple[str, ...]:
        """The scripts a hypothesis can be converted to, in tie-break order."""
        return tuple(script for script, _ in self.script_profiles)

    def script_profile(self, script: str) -> str:
        """The profile converting a hypothesis to ``script``.

        Raises:
            ValueError: the protocol has no such script (the message lists its scripts).
        """
        for name, profile in self.script_profiles:
            if name == script:
                return profile
        raise ValueError(f"{self.name} has no script {script!r}; its scripts: {', '.join(self.scripts) or 'none'}")


#: ``{language: {protocol name: protocol}}`` in registration order (the last is the current one).
_PROTOCOLS: dict[str, dict[str, EvalProtocol]] = {}


def register_protocol(protocol: EvalProtocol) -> EvalProtocol:
    """Add ``protocol`` for its language and return it; it becomes the language's current one.

    Raises:
        ValueError: another protocol is already registered under the same name.
    """
    known = _PROTOCOLS.setdefault(protocol.language, {})
    if protocol.name in known and known[protocol.name] != protocol:
        raise ValueError(f"an evaluation protocol named {protocol.name!r} is already registered; "
                         "a changed protocol needs a new name (zh-eval-v2)")
    known[protocol.name] = protocol
    return protocol


def protocols(language: str) -> dict[str, EvalProtocol]:
    """``{name: protocol}`` of ``language`` (a resolved tag), oldest first; empty when it has none."""
    return dict(_PROTOCOLS.get(language, {}))


def current_protocol(language: str) -> EvalProtocol | None:
    """The newest protocol of ``language``, or ``None``."""
    known = _PROTOCOLS.get(language)
    return list(known.values())[-1] if known else None


def checked_protocol(config: LanguageConfig, name: str | None = None) -> EvalProtocol:
    """The protocol ``name`` (default: the current one) of ``config``'s language, after checking
    that the config defines each of its profiles with exactly the frozen step list.

    Raises:
        ConfigError: the language has no protocol, or no protocol ``name`` (the message lists
            them); a profile is missing or lists other steps than the frozen ones (the message
            names the profile, both lists and the fix: a new protocol, never an edit).
    """
    known = _PROTOCOLS.get(config.language, {})
    protocol = current_protocol(config.language) if name is None else known.get(name)
    if protocol is None:
        which = f"named {name!r} " if name else ""
        raise ConfigError(f"no evaluation protocol {which}for {config.language!r}; "
                          f"its protocols: {', '.join(known) or 'none'}")
    for profile, frozen in protocol.steps.items():
        defined = config.profiles.get(profile)
        if defined is None:
            raise ConfigError(f"{config.language}.toml: {protocol.name} needs [profiles.{profile}] with steps "
                              f"{list(frozen)}; define it (or use a config that does)")
        if tuple(defined.steps) != frozen:
            raise ConfigError(
                f"{config.language}.toml: [profiles.{profile}] lists {list(defined.steps)}, but {protocol.name} "
                f"is frozen with {list(frozen)}. Restore the frozen list; a changed cleaning is a new "
                f"protocol (new profiles and steps), never an edit of {protocol.name}")
    return protocol
