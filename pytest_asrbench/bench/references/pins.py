"""What the Thai benchmark's references are built from: pinned dataset commits and the
expected number of clips of every set.

Source: the benchmark's reference-builder specification. Every dataset is read at one commit, so a build never changes;
a new commit or count is a new version of the references, not an edit of this table alone.
"""

from __future__ import annotations

from types import MappingProxyType

FLEURS = "google/fleurs"
TVSPEECH = "typhoon-ai/TVSpeech"
GIGASPEECH2 = "speechcolab/gigaspeech2"
ISAN = "typhoon-ai/thai-dialect-isan-dataset"
LOTUSDIS = "nectec/LOTUSDIS"

#: Dataset repository -> the commit (40 hex digits) every file is read at.
REVISIONS = MappingProxyType({
    FLEURS: "70bb2e84b976b7e960aa89f1c648e09c59f894dd",
    TVSPEECH: "b5cca17eb2933e96badabb96531545ed1f1bc318",
    GIGASPEECH2: "8dc0d0e502b7e6d5649a13cd4b677cf10c0b21e3",
    ISAN: "dfc7e495b3069940880d184f0acfcc6b3cd4f364",
    LOTUSDIS: "45145d7ca2286498a31958b35628ab3c1969f808",
})

#: Datasets behind access terms: a Hugging Face login (``huggingface-cli login`` or
#: ``HF_TOKEN``) of an account that accepted them on the dataset's page (approval is automatic).
GATED = frozenset({GIGASPEECH2})

#: LOTUSDIS microphones, each its own set ``lotus_<mic>``, as the ``mic`` column spells them:
#: con123 conference microphone, lav123 lapel, jbl speakerphone, bt3m and bt10m far channels.
LOTUS_MICS = ("con123", "lav123", "jbl", "bt3m", "bt10m")

#: Set name -> expected number of clips (long-form sets: recordings), in the build order.
EXPECTED_CLIPS = MappingProxyType({
    "fleurs": 1021,
    "tvspeech": 570,
    "gs2": 8823,
    "isan": 500,
    **{f"lotus_{mic}": 5516 for mic in LOTUS_MICS},
    "tv_long": 18,
    "gs2_long": 31,
})

#: GigaSpeech2 recordings left out of ``gs2_long``: recording 26's references do not match its
#: audio (every model scores about 70% CER on it).
GS2_LONG_EXCLUDED = frozenset({"26"})

#: Bytes fetched per request when a parquet file is read through the hub's file system: small,
#: so reading a text column pulls in little of the audio stored beside it.
PARQUET_BLOCK_SIZE = 1 << 16
