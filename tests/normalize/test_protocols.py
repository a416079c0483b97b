"""Frozen evaluation protocols (normalize/protocols.py): declaration, registry and the config check."""

import pytest

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize import protocols
from pytest_asrbench.normalize.languages.zh.eval_v1 import PROTOCOL
from pytest_asrbench.normalize.protocols import EvalProtocol, checked_protocol, current_protocol, register_protocol
from pytest_asrbench.normalize.registry import get_config


def _protocol(name="xx-eval-v1", **changes):
    fields = dict(name=name, language="xx", punct_profile="p", normalized_profile="n",
                  script_profiles=(("a", "s_a"),), steps={"p": ("nfc",), "n": ("nfc",), "s_a": ("nfc",)})
    fields.update(changes)
    return EvalProtocol(**fields)


@pytest.fixture
def scratch(monkeypatch):
    monkeypatch.setattr(protocols, "_PROTOCOLS", {})


def test_a_protocol_must_declare_exactly_the_profiles_it_names():
    with pytest.raises(ValueError, match=r"steps must list exactly the profiles it names"):
        _protocol(steps={"p": ("nfc",), "n": ("nfc",)})


def test_the_last_registered_protocol_is_current_and_older_ones_stay(scratch):
    v1 = register_protocol(_protocol())
    v2 = register_protocol(_protocol("xx-eval-v2"))
    assert current_protocol("xx") is v2
    assert list(protocols.protocols("xx")) == ["xx-eval-v1", "xx-eval-v2"]
    assert protocols.protocols("xx")["xx-eval-v1"] is v1
    assert current_protocol("yy") is None


def test_a_changed_protocol_under_an_old_name_is_refused(scratch):
    register_protocol(_protocol())
    register_protocol(_protocol())  # the same declaration again (a re-import) is fine
    with pytest.raises(ValueError, match="already registered; a changed protocol needs a new name"):
        register_protocol(_protocol(punct_profile="other", steps={"other": (), "n": (), "s_a": ()}))


def test_script_profiles_in_tie_break_order():
    assert PROTOCOL.scripts == ("simplified", "traditional")
    assert PROTOCOL.script_profile("traditional") == "eval_v1_script_traditional"
    with pytest.raises(ValueError, match="zh-eval-v1 has no script 'hongkong'"):
        PROTOCOL.script_profile("hongkong")


def test_the_shipped_zh_config_matches_the_frozen_protocol():
    assert checked_protocol(get_config("zh")) is PROTOCOL
    assert checked_protocol(get_config("zh"), "zh-eval-v1") is PROTOCOL


def test_a_language_without_protocols_is_a_config_error():
    with pytest.raises(ConfigError, match="no evaluation protocol for 'en'"):
        checked_protocol(get_config("en"))
