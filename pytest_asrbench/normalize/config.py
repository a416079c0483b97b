"""LanguageConfig: the validated content of one ``configs/<lang>.toml`` file.

A language is data first: the ordered list of normalizer steps and the tables those
steps read (fillers, spoken symbols, character folds, lexicon files). Unknown keys are
an error, so a typo in a config never silently turns a rule off. Every field is
documented in ``configs/README.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench.errors import ConfigError


class LanguageConfig(BaseModel):
    """One language's normalizer, as read from ``configs/<lang>.toml``.

    Optional rule fields do nothing unless the language turns them on: an empty table or
    ``false`` leaves the text unchanged.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: str = Field(description="BCP-47 tag of the language, e.g. 'en', 'hi', 'fr'.")
    version: str = Field(description="Version of this config; bump it whenever an output can change.")
    unit: Literal["word", "char"] = Field(description="Scoring unit: 'word' gives WER, 'char' gives CER.")
    steps: list[str] = Field(min_length=1, description="Ordered names of the normalizer steps.")
    remove_spaces: bool = Field(False, description="Drop all spaces after normalization (ja, zh, th).")
    keep_symbols: str = Field("", description="Symbol characters kept by the punctuation step ('%$' in en).")
    inner_punctuation: str = Field(
        "", description="Punctuation kept only between two letters or digits ('-_/' keeps ABC-123)."
    )
    fillers: list[str] = Field(default_factory=list, description="Whole words removed as hesitations.")
    lexicons: dict[str, str] = Field(
        default_factory=dict,
        description="Named TSV lexicon files, relative to the configs folder (e.g. spelling = 'en/spelling.tsv').",
    )
    spoken_symbols: dict[str, str] = Field(
        default_factory=dict, description="Spoken name of a symbol -> the symbol ('dash' = '-')."
    )
    spoken_symbols_code_only: list[str] = Field(
        default_factory=list,
        description="Spoken symbols that are also ordinary words: replaced only next to a code-like token.",
    )
    char_folds: dict[str, str] = Field(
        default_factory=dict, description="Character spellings treated as the same on both sides ('ज़' = 'ज')."
    )
    join_hyphenated_compounds: bool = Field(False, description="Anmelde-Konto = Anmeldekonto.")
    code_switch_languages: list[str] = Field(
        default_factory=list, description="Languages whose words are re-checked in error regions ('en' for hi)."
    )
    code_switch_phonetic: bool = Field(False, description="Turn on the Latin/Devanagari phonetic matcher.")

    @field_validator("spoken_symbols_code_only")
    @classmethod
    def _code_only_are_symbols(cls, value: list[str], info) -> list[str]:
        symbols = info.data.get("spoken_symbols", {})
        missing = [word for word in value if word not in symbols]
        if missing:
            raise ValueError(f"{missing} listed in spoken_symbols_code_only but not in spoken_symbols")
        return value

    @field_validator("char_folds")
    @classmethod
    def _folds_non_empty(cls, value: dict[str, str]) -> dict[str, str]:
        for source in value:
            if not source:
                raise ValueError("char_folds has an empty key; every fold needs a source spelling")
        return value


def load_config(path: Path) -> LanguageConfig:
    """Read and validate one language config file.

    Raises:
        ConfigError: the file is not valid TOML or does not match :class:`LanguageConfig`;
            the message names the file and each offending field.
    """
    data = load_toml(path.read_bytes(), path)
    try:
        return LanguageConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"{path}: {problems}. See configs/README.md for every field.") from exc
