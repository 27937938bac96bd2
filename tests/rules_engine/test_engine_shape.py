"""What the three engines share (docs/architecture.md): each state refuses an illegal action itself, once
(`State.apply` raises IllegalActionError and changes nothing), and every finished game ends with one of the end
reasons of rules_engine/core/outcome.py."""
from __future__ import annotations

import pytest

from rules_engine.core.game import IllegalActionError, apply_checked, play_out
from rules_engine.core.outcome import END_REASONS
from rules_engine.core.rng import game_rng
from rules_engine.simulation import simulate, simulator_for
from tests.rules_engine.test_same_games import benchmark_cases

CASES = benchmark_cases()
ONE_PER_SYSTEM = {snapshot["system"]: snapshot for snapshot in reversed(list(CASES.values()))}


def _start(snapshot):
    prepared = simulator_for(snapshot["system"]).prepare(snapshot)
    rng = game_rng(5, 0)
    return prepared, prepared.game.new_initial_state(rng), rng


@pytest.mark.parametrize("system", sorted(ONE_PER_SYSTEM))
def test_an_illegal_action_is_refused_by_the_state_and_changes_nothing(system):
    _prepared, state, _rng = _start(ONE_PER_SYSTEM[system])
    before = (len(state.events), state.current_player(), list(state.legal_actions()))
    with pytest.raises(IllegalActionError, match="illegal action"):
        state.apply(("teleport", 99))
    assert (len(state.events), state.current_player(), list(state.legal_actions())) == before
    with pytest.raises(IllegalActionError, match=r"caller chose illegal action \('teleport', 99\).*legal: "):
        apply_checked(state, ("teleport", 99))


@pytest.mark.parametrize("system", sorted(ONE_PER_SYSTEM))
def test_a_finished_game_refuses_any_action(system):
    prepared, state, rng = _start(ONE_PER_SYSTEM[system])
    play_out(state, prepared.policies, rng)
    with pytest.raises(IllegalActionError):
        state.apply(("pass",))


@pytest.mark.parametrize("system", sorted(ONE_PER_SYSTEM))
def test_every_game_ends_with_a_reason_of_the_one_vocabulary(system):
    result = simulate(ONE_PER_SYSTEM[system], games=20, seed=3, workers=1)
    assert result["ended_by"] and set(result["ended_by"]) <= set(END_REASONS), result["ended_by"]


@pytest.mark.parametrize("system", sorted(ONE_PER_SYSTEM))
def test_a_finished_state_says_its_outcome_and_a_running_one_none(system):
    """Outcome(winner, reason) on every terminal state, the same for all three engines; the winner agrees with
    returns() (+1 for the winner) and the reason is one of the one vocabulary."""
    prepared, state, rng = _start(ONE_PER_SYSTEM[system])
    assert state.outcome() is None
    seen = set()
    for game in range(8):
        rng = game_rng(11, game)
        state = play_out(prepared.game.new_initial_state(rng), prepared.policies, rng)
        end = state.outcome()
        assert end is not None and end.reason in END_REASONS
        returns = state.returns()
        assert end.winner == (None if returns[0] == returns[1] else 0 if returns[0] > returns[1] else 1)
        assert state.clone().outcome() == end
        seen.add(end.reason)
    assert seen
