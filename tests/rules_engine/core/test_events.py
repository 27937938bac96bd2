"""The append-only event log: a game can be stored and read back."""
import json

import pytest

from rules_engine.core.events import Event, EventLog


def _log() -> EventLog:
    log = EventLog()
    log.record("draw", 1, 0, dict(deck="weapons", cards=["HS-001"]))
    log.record("attack", 1, 0, dict(attacker="HS-002", target="HS-010"))
    log.record("destroyed", 1, None, dict(card="HS-010"))
    return log


def test_record_logs_immutable_events_in_order():
    log = _log()
    assert [e.kind for e in log] == ["draw", "attack", "destroyed"]
    assert len(log) == 3 and log[2].player is None
    assert log.of_kind("attack")[0].data == {"attacker": "HS-002", "target": "HS-010"}
    assert type(log[0]) is Event and log[0] == Event("draw", 1, 0, {"deck": "weapons", "cards": ["HS-001"]})
    with pytest.raises(AttributeError):
        log[0].turn = 2  # type: ignore[misc]


def test_log_survives_a_json_round_trip():
    log = _log()
    raw = json.loads(json.dumps(log.to_list()))
    assert raw[0] == {"kind": "draw", "turn": 1, "player": 0, "data": {"deck": "weapons", "cards": ["HS-001"]}}
    assert EventLog.from_list(raw) == log


def test_copy_is_independent_of_later_appends():
    log = _log()
    copy = log.copy()
    log.record("charge", 2, 1, dict(amount=1))
    assert len(copy) == 3 and len(log) == 4


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"kind": "", "turn": 1, "player": 0, "data": {}}, r"event\[1\]\.kind"),
        ({"kind": "draw", "turn": "1", "player": 0, "data": {}}, r"event\[1\]\.turn"),
        ({"kind": "draw", "turn": 1, "player": "p1", "data": {}}, r"event\[1\]\.player"),
        ({"kind": "draw", "turn": 1, "player": 0, "data": []}, r"event\[1\]\.data"),
        ("draw", r"event\[1\]: expected an object"),
    ],
)
def test_from_list_names_the_bad_event_and_field(raw, message):
    good = {"kind": "draw", "turn": 1, "player": 0, "data": {}}
    with pytest.raises(ValueError, match=message):
        EventLog.from_list([good, raw])


def test_from_list_refuses_a_non_list():
    with pytest.raises(ValueError, match="expected a list"):
        EventLog.from_list({"kind": "draw"})
    assert Event.from_dict({"kind": "x", "turn": 0, "player": None}).data == {}
