"""The MWDA actions as typed records (rules_engine/mwda/actions.py): each equals, hashes, sorts and
serialises like the bare tuple it replaced, so the same games and stored replays see no difference."""
from __future__ import annotations

import json

import pytest

from rules_engine.mwda import actions as A
from tests.rules_engine.mwda import battle


def test_a_record_is_the_bare_tuple_of_its_fields():
    records = [A.PASS, A.vent(1), A.move(1, -1, True), A.advance(1, 3, False), A.shoot(1, 3, 0), A.close(1, 3),
               A.charge(1, 3), A.dfa(1, 3)]
    tuples = [("pass",), ("vent", 1), ("move", 1, -1, True), ("advance", 1, 3, False), ("shoot", 1, 3, 0),
              ("close", 1, 3), ("charge", 1, 3), ("dfa", 1, 3)]
    assert records == tuples
    assert [hash(r) for r in records] == [hash(t) for t in tuples]
    assert sorted(records) == sorted(tuples)
    assert json.dumps(records) == json.dumps(tuples)
    assert [A.record(t) for t in tuples] == records
    assert [type(A.record(t)) for t in tuples] == [A.Pass, A.Vent, A.Move, A.Advance, A.Shoot, A.Close, A.Charge,
                                                   A.Dfa]
    assert A.shoot(1, 3, 0) is A.shoot(1, 3, 0)  # made once, kept
    shot = A.shoot(2, 5, 1)
    assert (shot.kind, shot.uid, shot.target, shot.weapon) == ("shoot", 2, 5, 1)
    with pytest.raises(ValueError):
        A.record(("teleport", 99))


def test_the_state_lists_records_and_takes_bare_tuples_too():
    state = battle([("T-MECH", 10, 10)], [("T-TANK", 10, 18)])
    legal = state.legal_actions()
    assert legal[0] is A.PASS
    assert all(isinstance(a, (A.Pass, A.Vent, A.Move, A.Advance, A.Shoot, A.Close, A.Charge, A.Dfa)) for a in legal)
    shot = next(a for a in legal if isinstance(a, A.Shoot))
    assert state.describe(tuple(shot)) == state.describe(shot)
    before = len(state.events)
    state.apply(tuple(shot))  # a bare tuple equal to a legal record
    assert "attack" in [e.kind for e in list(state.events)[before:]]
