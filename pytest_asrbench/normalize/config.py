"""LanguageConfig: the validated content of one ``configs/<lang>.toml`` file.

A language is data first: the ordered list of normalizer steps, the shared tables several
steps read (``fillers``, ``char_folds``, ``[lexicons]``), and one option table per step that
takes options (``[options.<step>]``, validated by the step's own model, see
:mod:`pytest_asrbench.normalize.checks`). Unknown keys are an error, so a typo in a config
never silently turns a rule off. Every field is documented in ``configs/README.md``.

Each field says what it names in its ``signature`` metadata (:data:`SIGNATURE_ROLES`): the
metric signatures read those fields (``signature_fields``) instead of guessing from key names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pytest_asrbench._shared.config_layers import is_base, resolved_config
from pytest_asrbench.errors import ConfigError

#: What a config field can name, for the metric signatures: ``steps`` (step names whose code
#: counts), ``files`` (paths under configs/ whose content counts), ``languages`` (other
#: languages whose configs count), ``profiles`` (named step lists whose steps count).
SIGNATURE_ROLES = ("steps", "files", "languages", "profiles")

#: Keys of the flat configs before per-step tables: where each one lives now.
MOVED_KEYS: dict[str, str] = {
    "keep_symbols": "it is now `keep_symbols` of [options.punctuation]",
    "inner_punctuation": "it is now `inner_punctuation` of [options.punctuation]",
    "spoken_symbols": "it is now the table [options.spoken_symbols.symbols]",
    "spoken_symbols_code_only": "it is now `code_only` of [options.spoken_symbols]",
    "remove_spaces": "remove it: listing the `remove_spaces` step turns the rule on",
    "join_hyphenated_compounds": "remove it: listing the `hyphen_compounds` step turns the rule on",
}


def _role(role: str) -> dict[str, str]:
    assert role in SIGNATURE_ROLES, role
    return {"signature": role}


class StepOptions(BaseModel):
    """Base of every step's option model (``@step(name, options=MyOptions)``): frozen, and an
    unknown key is an error, like the config itself."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Profile(BaseModel):
    """A named step list over the same tables as the language's default ``steps``
    (``[profiles.<name>] steps = [...]``). A profile that a benchmark or a frozen view uses is
    never edited in place: a change is a new profile (``surface-v2``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    steps: list[str] = Field(min_length=1, description="Ordered names of the profile's steps.",
                             json_schema_extra=_role("steps"))
    note: str = Field("", description="What the profile is for (shown nowhere else; for readers).")


class LanguageConfig(BaseModel):
    """One language's normalizer, as read from ``configs/<lang>.toml``.

    Optional tables do nothing unless the language fills them: an empty table leaves the
    text unchanged. ``options`` holds the raw per-step tables; each is validated against its
    step's model when the config is loaded (:func:`pytest_asrbench.normalize.checks.check_config`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: str = Field(description="BCP-47 tag of the language, e.g. 'en', 'hi', 'fr'.")
    version: str = Field(description="Version of this config; bump it whenever an output can change.")
    unit: Literal["word", "char"] = Field(description="Scoring unit: 'word' gives WER, 'char' gives CER.")
    steps: list[str] = Field(min_length=1, description="Ordered names of the normalizer steps.",
                             json_schema_extra=_role("steps"))
    fillers: list[str] = Field(
        default_factory=list,
        description="Shared: whole words removed as hesitations (steps fillers, fillers_any_case; "
                    "spoken_symbols skips them).")
    char_folds: dict[str, str] = Field(
        default_factory=dict,
        description="Shared: character spellings treated as the same on both sides ('ज़' = 'ज'); read by "
                    "char_folds and by every step or view that folds its tables the same way.")
    decimal_separator: str = Field(
        ".", min_length=1, max_length=1,
        description="Shared by the number machinery: the decimal separator ('.' in en, ',' in de); the "
                    "punctuation step keeps it between two digits.")
    group_separator: str = Field(
        ",", max_length=1,
        description="Shared by the number machinery: the digit-group separator (',' in en, '.' in de, "
                    "'' for none); the digit_groups step drops it.")
    lexicons: dict[str, str] = Field(
        default_factory=dict,
        description="Named TSV lexicon files, relative to the configs folder (e.g. spelling = 'en/spelling.tsv').",
        json_schema_extra=_role("files"),
    )
    options: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Per-step option tables: [options.<step>] (see configs/README.md).")
    profiles: dict[str, Profile] = Field(
        default_factory=dict, description="Named other step lists over the same tables: [profiles.<name>].",
        json_schema_extra=_role("profiles"))
    code_switch_languages: list[str] = Field(
        default_factory=list, description="Languages whose words are re-checked in error regions ('en' for hi).",
        json_schema_extra=_role("languages"))
    code_switch_detection: Literal["script", "lexicon"] | None = Field(
        None, validate_default=True,
        description="How a word's language is told in the code-switch rescue: 'script' (the second "
                    "language is the Latin-script words: hi) or 'lexicon' (same script: a word is the "
                    "second language's by word frequencies; de, nl, fr, es, it). Required with "
                    "code_switch_languages.")
    code_switch_matcher: str | None = Field(
        None,
        description="Name of a cross-script word matcher in the code-switch rescue "
                    "(scoring/views/codeswitch/matchers.py): 'devanagari_phonetic' for hi.")
    code_switch_zipf_margin: float = Field(
        1.0, ge=0,
        description="'lexicon' detection: a word is the second language's when its Zipf frequency there "
                    "exceeds its frequency in this language by at least this much.")
    code_switch_home_words: list[str] = Field(
        default_factory=list,
        description="'lexicon' detection: words always this language's own, whatever the frequencies "
                    "(words of both languages: de 'die', 'will'; fr 'son').")
    romanized_matching: bool = Field(
        False, description="Code-switch rescue: a Latin-script hypothesis word that transliterates a "
                           "Devanagari reference word counts as correct (mujhe = मुझे). Off by default.")
    loanword_matcher: Literal["", "katakana", "hangul"] = Field(
        "", description="Character-scored languages: a Latin name against its rendering in this script is "
                        "compared in that script ('katakana' for ja, 'hangul' for ko; '' for none).")
    repeats: dict[str, str | list[str]] = Field(
        default_factory=dict,
        description="Why a step is listed more than once: step -> the reason of its second listing (a "
                    "list: one reason per listing after the first). Required for every repeated step.")

    @field_validator("code_switch_detection")
    @classmethod
    def _detection_with_languages(cls, value, info):
        languages = info.data.get("code_switch_languages") or []
        if languages and value is None:
            raise ValueError("code_switch_languages is set but code_switch_detection is not; set it to "
                             "'script' (the second language in another script) or 'lexicon' (same script)")
        if value is not None and not languages:
            raise ValueError("code_switch_detection is set without code_switch_languages; name the second "
                             "language(s) or drop it")
        return value

    @field_validator("group_separator")
    @classmethod
    def _separators_differ(cls, value: str, info) -> str:
        decimal = info.data.get("decimal_separator")
        if value and value == decimal:
            raise ValueError(f"group_separator {value!r} is also the decimal_separator; they must differ")
        for char in value + (decimal or ""):
            if char.isalnum() or char.isspace():
                raise ValueError(f"separator {char!r} is a letter, digit or space; use a punctuation character")
        return value

    @field_validator("repeats")
    @classmethod
    def _reasons_non_empty(cls, value: dict[str, str | list[str]]) -> dict[str, str | list[str]]:
        for name, reasons in value.items():
            for reason in [reasons] if isinstance(reasons, str) else reasons:
                if not reason.strip():
                    raise ValueError(f"repeats.{name} has an empty reason; say why the step runs again")
        return value

    @field_validator("char_folds")
    @classmethod
    def _folds_non_empty(cls, value: dict[str, str]) -> dict[str, str]:
        for source in value:
            if not source:
                raise ValueError("char_folds has an empty key; every fold needs a source spelling")
        return value


def signature_fields(role: str) -> list[str]:
    """Names of the :class:`LanguageConfig` fields whose ``signature`` metadata is ``role``
    (one of :data:`SIGNATURE_ROLES`). Profiles' own step lists are :class:`Profile` fields."""
    if role not in SIGNATURE_ROLES:
        raise ValueError(f"unknown signature role {role!r}; known: {', '.join(SIGNATURE_ROLES)}")
    return [name for name, info in LanguageConfig.model_fields.items()
            if (info.json_schema_extra or {}).get("signature") == role]


def _problem(err: dict) -> str:
    where = ".".join(str(p) for p in err["loc"]) or "<root>"
    if err["type"] == "extra_forbidden" and len(err["loc"]) == 1 and err["loc"][0] in MOVED_KEYS:
        return f"{where}: no longer a top-level key; {MOVED_KEYS[err['loc'][0]]}"
    return f"{where}: {err['msg']}"


def load_config(path: Path, shown: Path | str | None = None) -> LanguageConfig:
    """Read and validate one language config file (its shape; the step names, per-step tables
    and profiles are checked against the step registry by ``checks.check_config``). A file
    with ``extends = "<name>"`` is read over the config it names in the same folder (the
    shipped ``de.toml`` over ``_european.toml``; rules in ``configs/README.md``).

    ``shown`` is the file the messages name (default ``path``): for a project's config merged
    over a shipped one, the project's own file, not the merged copy.

    Raises:
        ConfigError: the file is not valid TOML or does not match :class:`LanguageConfig`;
            the message names the file and each offending field (and where a moved key lives now);
            the file is a base (``_european.toml``), which is no language; its ``extends`` is bad.
    """
    shown = path if shown is None else shown
    if is_base(path.stem):
        raise ConfigError(f"{shown}: a config whose name starts with '_' is a base that languages extend "
                          f"(extends = \"{path.stem}\"), not a language; load one of the languages that extend it")
    data = resolved_config(path)
    try:
        return LanguageConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(_problem(err) for err in exc.errors())
        raise ConfigError(f"{shown}: {problems}. See configs/README.md for every field.") from exc
