"""Surface metrics of a bench run: the egress audit sees a socket opened through Python, and
the runtime closure sums the installed bytes of the distributions the run imported."""

from __future__ import annotations

import socket

from pytest_asrbench.bench.run.surface import egress_audit, egress_section, runtime_closure


def test_the_egress_audit_records_a_connection_attempt_and_nothing_outside_its_block():
    with egress_audit() as events:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.01)
            try:
                sock.connect(("127.0.0.1", 9))  # the discard port: refused or timed out, never reached
            except OSError:
                pass
    assert len(events) == 1 and events[0].startswith("socket.connect")
    section = egress_section(events)
    assert section["socket_events"] == 1 and "audit hook" in section["method"]
    with socket.socket() as sock:  # outside the block: not recorded
        sock.settimeout(0.01)
        try:
            sock.connect(("127.0.0.1", 9))
        except OSError:
            pass
    assert len(events) == 1


def test_a_block_with_no_network_records_no_event():
    with egress_audit() as events:
        sum(range(10))
    assert egress_section(events)["socket_events"] == 0


def test_the_runtime_closure_counts_the_imported_distributions_bytes():
    import jsonschema  # a core dependency, installed with the package

    closure = runtime_closure({"jsonschema": jsonschema, "json": None})
    assert list(closure["distributions"]) == ["jsonschema"]  # json is the standard library: not counted
    assert closure["bytes"] == closure["distributions"]["jsonschema"] > 0
