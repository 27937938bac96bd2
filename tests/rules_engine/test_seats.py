"""Fair seats and separate random streams (rules_engine/core/seats.py): a run plays each deal from both seats by
default, the dice, each side's set-up and each side's policy draw from their own streams, and the result gives the
list's win rate going first and going second."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from rules_engine.batch import gauntlet_batch, gauntlet_result, run_batch
from rules_engine.core.game import play_out
from rules_engine.core.policies import POLICIES, get_policy, register_policy
from rules_engine.core.seats import SEAT_MODES, check_seats, deal_of, first_of, game_plan, seat_pairs
from rules_engine.replay import replay_events
from rules_engine.simulation import SimulationInputError, build_snapshot, simulate, simulator_for

ROOT = Path(__file__).resolve().parents[2]


def package(system: str):
    core = json.loads(next((ROOT / "cards" / "packages" / system).glob("*.json")).read_text(encoding="utf-8"))
    return {card["code"]: card for card in core["cards"]}, {o["slug"]: o for o in core["opponents"]}


def sample_list(system: str, name: str):
    return json.loads((ROOT / "cards" / "packages" / system / "lists" / f"{name}.json").read_text(encoding="utf-8"))


# (system, list, an opponent a policy plays, an opponent whose order is fixed and why)
GAMES = {
    "hagmi": ("akane-assault", "sample-vanguard", ("coop-ironshell-cradle", "rules")),
    "mwda": ("republic-knight-guard", "steel-wolves-pack", ("goldfish", "no_turns")),
    "warcaster": ("isa-starsteel-vanguard", "marcher-dust-raiders", ("goldfish", "no_turns")),
}


def snap(system: str, *, opponent: str | None = None, seats: str | None = None, policy: str = "greedy",
         opponent_policy: str | None = None, document=None):
    cards, opponents = package(system)
    name, rival, _ = GAMES[system]
    return build_snapshot(document or sample_list(system, name), cards, opponents[opponent or rival], policy=policy,
                          opponent_policy=opponent_policy, seats=seats)


class _Burner:
    """A test policy: burns 1000 draws from its own stream, then chooses as the system's greedy (which draws
    nothing), so it plays exactly the greedy's games if no other stream depends on its draws."""

    greedy = ""

    def __init__(self) -> None:
        self.inner = get_policy(self.greedy)

    def choose(self, state, rng):
        for _ in range(1000):
            rng.random()
        return self.inner.choose(state, rng)


for _system in GAMES:
    if f"test-burner-{_system}" not in POLICIES:
        register_policy(f"test-burner-{_system}")(type(f"Burner{_system}", (_Burner,), {"greedy": f"{_system}-greedy"}))


# ---- the seat modes ---------------------------------------------------------------------------------------------


def test_seat_modes_deal_and_first_player():
    """both: deal i // 2, the list first on even games; list-first: always the list; random: the game's own seat
    stream; where seats do not apply every game is its own deal and the game's own rule decides (None)."""
    assert [deal_of(i, "both") for i in range(6)] == [0, 0, 1, 1, 2, 2]
    assert [first_of(7, i, "both") for i in range(4)] == [0, 1, 0, 1]
    assert [first_of(7, i, "list-first") for i in range(4)] == [0, 0, 0, 0]
    assert [deal_of(i, "list-first") for i in range(3)] == [deal_of(i, "random") for i in range(3)] == [0, 1, 2]
    randomly = [first_of(7, i, "random") for i in range(200)]
    assert randomly == [first_of(7, i, "random") for i in range(200)] and 60 < sum(randomly) < 140
    assert [deal_of(i, "both", applies=False) for i in range(3)] == [0, 1, 2]
    assert first_of(7, 3, "both", applies=False) is None
    assert seat_pairs(7, "both") == 3 and seat_pairs(7, "list-first") == 0 and seat_pairs(7, "both", False) == 0


def test_check_seats_accepts_the_three_modes_and_refuses_another():
    assert [check_seats(mode) for mode in SEAT_MODES] == list(SEAT_MODES)
    assert check_seats(None) == check_seats("") == "both"
    with pytest.raises(ValueError, match="expected one of both, list-first, random, got 'first'"):
        check_seats("first")


def test_the_two_games_of_a_deal_share_their_streams_but_not_their_policy_streams():
    even, odd = game_plan(5, 4, "both"), game_plan(5, 5, "both")
    assert even.deal == odd.deal == 2 and (even.first, odd.first) == (0, 1)
    assert even.dice.getstate() == odd.dice.getstate()
    assert [s.getstate() for s in even.setup] == [s.getstate() for s in odd.setup]
    assert even.setup[0].getstate() != even.setup[1].getstate(), "each side has its own set-up stream"
    assert even.policies[0].getstate() != odd.policies[0].getstate(), "each game has its own policy streams"
    assert even.dice.getstate() != game_plan(5, 6, "both").dice.getstate()


# ---- the same opening in both seats ---------------------------------------------------------------------------


def _opening(system: str, state) -> object:
    """What a game was dealt: HAGMI the four-card opening hands (the first cards of each hand) and the decks of the
    player who has not drawn yet; MWDA the terrain and every unit's place; Warcaster the models and the hands."""
    if system == "hagmi":
        return [[state.cards[uid].code for uid in player.hand[:4]] for player in state.players]
    if system == "mwda":
        return [state.layout.name, [(u.uid, u.x, u.y) for u in state.units]]
    return [[(m.uid, m.x, m.y) for m in state.models], [list(side.hand) for side in state.sides]]


@pytest.mark.parametrize("system", sorted(GAMES))
def test_with_seats_both_the_two_games_of_a_deal_share_their_opening_and_dice(system):
    """Games 2d and 2d+1: the list goes first, then second, on the same deal: the same deck orders, deployment and
    terrain, and the dice generator is in the same state once the game is set up."""
    simulator = simulator_for(system)
    prepared = simulator.prepare(snap(system))
    for deal in range(3):
        first_game, second_game = (simulator.plan(prepared, 9, 2 * deal + k) for k in (0, 1))
        a = simulator.new_state(prepared, first_game)
        b = simulator.new_state(prepared, second_game)
        assert simulator.first_player_of(a) == 0 and simulator.first_player_of(b) == 1
        assert _opening(system, a) == _opening(system, b)
        if system != "hagmi":  # HAGMI's first turn has begun (its 兵站 roll is the first player's)
            assert a.rng.getstate() == b.rng.getstate()


def test_hagmi_both_seats_deal_the_same_decks():
    """HAGMI: each player's decks are in the same order in both games of a deal and the opening hands are the same;
    they differ only by the first player's 兵站 draw, taken off the top of those same decks."""
    simulator = simulator_for("hagmi")
    prepared = simulator.prepare(snap("hagmi"))
    for deal in range(3):
        a, b = (simulator.new_state(prepared, simulator.plan(prepared, 3, 2 * deal + k)) for k in (0, 1))
        for player in (0, 1):
            pa, pb = a.players[player], b.players[player]
            assert [a.cards[u].code for u in pa.hand[:4]] == [b.cards[u].code for u in pb.hand[:4]]
            assert pa.damage_deck == pb.damage_deck
            for zone in ("weapons", "tactics"):  # a draw pops the top (the end) of a deck
                x, y = getattr(pa, zone), getattr(pb, zone)
                shorter, longer = sorted((x, y), key=len)
                assert longer[:len(shorter)] == shorter, (player, zone)
        assert len(a.players[0].hand) > 4 and len(b.players[0].hand) == 4, "only the first player has drawn"
        assert len(b.players[1].hand) > 4 and len(a.players[1].hand) == 4


# ---- separate streams -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(GAMES))
def test_a_policy_that_burns_draws_from_its_stream_changes_nothing_else(system):
    """The list's policy draws 1000 numbers before every choice and then chooses as the greedy does: every game is
    the greedy's game, event for event (the dice, the shuffles and the opponent's stream never move)."""
    plain = snap(system)
    burner = snap(system, policy=f"test-burner-{system}", opponent_policy="greedy")
    simulator = simulator_for(system)
    for seats in SEAT_MODES:
        p_plain = simulator.prepare({**plain, "seats": seats})
        p_burn = simulator.prepare({**burner, "seats": seats})
        for index in range(4):
            games = []
            for prepared in (p_plain, p_burn):
                plan = simulator.plan(prepared, 21, index)
                state = play_out(simulator.new_state(prepared, plan), prepared.policies, plan.policies)
                games.append(state.events.to_list())
            assert games[0] == games[1], f"{seats}, game {index}"


@pytest.mark.parametrize("system", sorted(GAMES))
def test_replacing_the_lists_policy_leaves_the_dice_and_the_opponents_set_up(system):
    """A random list policy instead of the greedy: game i's dice stream and the opponent's set-up are the same."""
    simulator = simulator_for(system)
    greedy = simulator.prepare(snap(system, seats="list-first"))
    rand = simulator.prepare(snap(system, seats="list-first", policy="random", opponent_policy="greedy"))
    for index in range(3):
        a = simulator.new_state(greedy, simulator.plan(greedy, 4, index))
        b = simulator.new_state(rand, simulator.plan(rand, 4, index))
        assert _opening(system, a) == _opening(system, b)
        assert simulator.plan(greedy, 4, index).policies[1].getstate() == \
            simulator.plan(rand, 4, index).policies[1].getstate()


def test_hagmi_a_list_one_card_shorter_does_not_reshuffle_the_opponents_deck():
    """The list's deck is shuffled with the list's own set-up stream: one card fewer leaves the opponent's decks
    (and the dice) exactly as they were."""
    document = copy.deepcopy(sample_list("hagmi", "akane-assault"))
    entry = document["sections"]["weapons"][0]
    entry["qty"] -= 1
    if entry["qty"] == 0:
        document["sections"]["weapons"].pop(0)
    simulator = simulator_for("hagmi")
    full = simulator.prepare(snap("hagmi", seats="list-first"))
    short = simulator.prepare(snap("hagmi", seats="list-first", document=document))
    for index in range(4):
        a = simulator.new_state(full, simulator.plan(full, 8, index))
        b = simulator.new_state(short, simulator.plan(short, 8, index))
        them_a, them_b = a.players[1], b.players[1]
        codes = lambda state, uids: [state.cards[uid].code for uid in uids]  # noqa: E731
        for zone in ("hand", "weapons", "tactics", "damage_deck"):
            assert codes(a, getattr(them_a, zone)) == codes(b, getattr(them_b, zone)), zone
        assert a.rng.getstate() == b.rng.getstate()


def test_mwda_a_smaller_army_does_not_move_the_opponents_deployment():
    document = copy.deepcopy(sample_list("mwda", "republic-knight-guard"))
    army = document["sections"]["army"]
    army[-1]["qty"] = army[-1].get("qty", 1) - 1
    if army[-1]["qty"] == 0:
        army.pop()
    simulator = simulator_for("mwda")
    full = simulator.prepare(snap("mwda"))
    small = simulator.prepare(snap("mwda", document=document))
    for index in range(4):
        a = simulator.new_state(full, simulator.plan(full, 8, index))
        b = simulator.new_state(small, simulator.plan(small, 8, index))
        theirs = lambda state: [(u.spec.code, u.x, u.y) for u in state.units if u.side == 1]  # noqa: E731
        assert a.layout.name == b.layout.name and theirs(a) == theirs(b)


# ---- results ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(GAMES))
def test_per_seat_figures_add_up_to_the_totals(system):
    for seats in SEAT_MODES:
        result = simulate(snap(system, seats=seats), games=9, seed=2)
        by_seat = result["seats"]
        assert by_seat["mode"] == seats and by_seat["applies"] is True and by_seat["fixed_by"] is None
        first, second = by_seat["first"], by_seat["second"]
        for name in ("wins", "losses", "draws"):
            assert first[name] + second[name] == result[name]
        assert first["games"] + second["games"] == 9
        for seat in (first, second):
            low, high = seat["win_rate_interval"]
            assert low <= seat["win_rate"] <= high
        if seats == "both":  # an odd count: the last deal has its list-first game only
            assert (first["games"], second["games"], by_seat["pairs"]) == (5, 4, 4)
        elif seats == "list-first":
            assert (first["games"], second["games"], by_seat["pairs"]) == (9, 0, 0)
        assert result["policies"] == {"list": "greedy", "opponent": "greedy"}


@pytest.mark.parametrize("system", sorted(GAMES))
def test_where_the_order_is_fixed_seats_do_not_apply(system):
    """機獣討滅戦線 (the players always go first) and a goldfish (no turns): each game its own deal, the game's own
    first player, the result says why, and no policy plays the opponent."""
    fixed, reason = GAMES[system][2]
    result = simulate(snap(system, opponent=fixed), games=6, seed=1)
    assert result["seats"]["applies"] is False and result["seats"]["fixed_by"] == reason
    assert result["seats"]["pairs"] == 0
    assert result["seats"]["first"]["games"] + result["seats"]["second"]["games"] == 6
    assert result["policies"]["opponent"] is None
    if system == "hagmi":
        assert result["seats"]["first"]["games"] == 6, "the players always go first against 機獣"
    assert simulate(snap(system, opponent=fixed, seats="random"), games=6, seed=1)["wins"] == result["wins"]


@pytest.mark.parametrize("seats", SEAT_MODES)
def test_results_are_byte_identical_whatever_the_chunks_and_the_workers(seats):
    snapshot = snap("mwda", seats=seats)
    whole = json.dumps(simulate(snapshot, games=23, seed=4, chunk_size=23), sort_keys=True)
    for chunk_size in (1, 5, 10):
        assert json.dumps(simulate(snapshot, games=23, seed=4, chunk_size=chunk_size), sort_keys=True) == whole
    assert json.dumps(simulate(snapshot, games=23, seed=4, chunk_size=5, workers=2), sort_keys=True) == whole


@pytest.mark.parametrize("seats", SEAT_MODES)
def test_a_gauntlet_with_seats_is_byte_identical_whatever_the_workers_and_each_row_is_its_plain_run(seats):
    cards, opponents = package("hagmi")
    document = sample_list("hagmi", "akane-assault")
    legs = [(slug, 1.0, build_snapshot(document, cards, opponents[slug], policy="greedy", seats=seats))
            for slug in ("sample-vanguard", "coop-ironshell-cradle")]
    batch = gauntlet_batch(legs)
    one = gauntlet_result(batch, run_batch(batch, games=8, seed=3), games=8, seed=3)
    two = gauntlet_result(batch, run_batch(batch, games=8, seed=3, workers=2, chunk_size=3), games=8, seed=3)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert one["opponents"][0]["result"] == simulate(legs[0][2], games=8, seed=3)
    assert one["opponents"][0]["result"]["seats"]["mode"] == seats


def test_a_replay_is_the_runs_game_in_its_seat():
    snapshot = snap("mwda")
    simulator = simulator_for("mwda")
    prepared = simulator.prepare(snapshot)
    for index in (0, 1):
        replayed = replay_events(snapshot, 6, index)
        assert replayed["record"] == simulator.play_game(prepared, simulator.plan(prepared, 6, index))
        assert replayed["record"]["seat"] == ("first" if index == 0 else "second")


def test_a_bad_seat_mode_and_a_first_player_option_are_refused_naming_the_field():
    with pytest.raises(SimulationInputError, match=r"^seats: expected one of both, list-first, random"):
        snap("mwda", seats="sometimes")
    bad = {**snap("mwda"), "seats": "sometimes"}
    with pytest.raises(SimulationInputError, match=r"^seats:"):
        simulator_for("mwda").prepare(bad)
    with pytest.raises(SimulationInputError, match=r"^seats:"):
        simulate(bad, games=2, seed=1)
    fixed = {**snap("mwda"), "options": {"first_player": 1}}
    with pytest.raises(SimulationInputError, match=r"^snapshot.options.first_player: .*set by `seats`"):
        simulate(fixed, games=2, seed=1)
    prepared = simulator_for("mwda").prepare(fixed)  # a game set up by hand, outside a run, follows the option
    assert prepared.game.new_initial_state(random.Random(3)).first == 1
    goldfish = {**snap("mwda", opponent="goldfish"), "options": {"first_player": 1}}
    assert simulate(goldfish, games=3, seed=1)["seats"]["second"]["games"] == 3, "the option decides there"


def test_a_default_snapshot_has_no_seats_key_and_hashes_as_before():
    assert "seats" not in snap("mwda") and "seats" not in snap("mwda", seats="both")
    assert snap("mwda", seats="random")["seats"] == "random"


def test_engines_take_the_first_player_and_keep_their_own_order_without_it():
    """`new_initial_state(rng, first_player=...)`; None keeps the option or the roll (positions, replays, tests)."""
    for system in GAMES:
        simulator = simulator_for(system)
        prepared = simulator.prepare(snap(system))
        game = prepared.game
        for first in (0, 1):
            state = game.new_initial_state(random.Random(1), first_player=first)
            assert simulator.first_player_of(state) == first
        with pytest.raises(ValueError):
            game.new_initial_state(random.Random(1), first_player=2)
    coop = simulator_for("hagmi").prepare(snap("hagmi", opponent="coop-ironshell-cradle")).game
    with pytest.raises(ValueError, match="players always take their turns first"):
        coop.new_initial_state(random.Random(1), first_player=1)


def test_a_stream_draws_what_a_generator_seeded_with_its_derived_seed_draws():
    """The streams are seeded on first use (cheaper), with exactly derive_seed's seed: (seed, "deal", d, "dice"),
    (seed, "deal", d, "setup", side), (seed, "game", i, "policy", side)."""
    from rules_engine.core.rng import derive_seed

    plan = game_plan(11, 7, "both")
    expected = {
        "dice": random.Random(derive_seed(11, "deal", 3, "dice")),
        "setup list": random.Random(derive_seed(11, "deal", 3, "setup", "list")),
        "setup opponent": random.Random(derive_seed(11, "deal", 3, "setup", "opponent")),
        "policy list": random.Random(derive_seed(11, "game", 7, "policy", "list")),
        "policy opponent": random.Random(derive_seed(11, "game", 7, "policy", "opponent")),
    }
    got = dict(zip(expected, (plan.dice, *plan.setup, *plan.policies)))
    for name, stream in got.items():
        reference = expected[name]
        deck = list(range(30))
        reference.shuffle(deck)
        mine = list(range(30))
        stream.shuffle(mine)
        assert mine == deck and stream.random() == reference.random(), name
        assert type(stream) is random.Random and stream.getstate() == reference.getstate(), name
    fresh = game_plan(11, 7, "both").policies[0]
    assert fresh.getstate() == random.Random(derive_seed(11, "game", 7, "policy", "list")).getstate()
    assert fresh.choice("abcdef") == random.Random(derive_seed(11, "game", 7, "policy", "list")).choice("abcdef")


@pytest.mark.parametrize("system", sorted(GAMES))
def test_a_search_policy_never_draws_from_the_real_games_dice(system):
    """The search policies play their rollouts on clones whose generator is drawn from the policy's own stream:
    choosing leaves the real state's dice generator exactly where it was."""
    simulator = simulator_for(system)
    prepared = simulator.prepare(snap(system))
    plan = simulator.plan(prepared, 5, 0)
    state = simulator.new_state(prepared, plan)
    search = get_policy(f"{system}-search")
    before = state.rng.getstate()
    policy_stream = plan.policies[state.current_player()]
    drawn_before = policy_stream.getstate()
    search.choose(state, policy_stream)
    assert state.rng.getstate() == before
    assert policy_stream.getstate() != drawn_before, "the search drew from its own stream"


def test_games_played_on_from_a_position_report_no_seats():
    """A position says whose turn it is: its games' summary names both sides' policies but has no seat figures."""
    from rules_engine.positions import export_position, simulate_position

    simulator = simulator_for("mwda")
    snapshot = snap("mwda")
    prepared = simulator.prepare(snapshot)
    state = simulator.new_state(prepared, simulator.plan(prepared, 1, 0))
    doc = export_position("mwda", state)
    doc["list"], doc["opponent"] = snapshot["list"], snapshot["opponent"]
    result = simulate_position(doc, snapshot["cards"], games=2, seed=1)
    assert "seats" not in result and result["policies"] == {"list": "greedy", "opponent": "greedy"}


def test_play_out_hands_each_player_its_own_generator_and_refuses_a_wrong_count():
    from rules_engine.core.game import EngineError

    simulator = simulator_for("warcaster")  # its greedy never draws (MWDA's draws its patience)
    prepared = simulator.prepare(snap("warcaster", policy="random", opponent_policy="greedy"))
    plan = simulator.plan(prepared, 2, 0)
    with pytest.raises(EngineError, match="2 policies but 1 policy generators"):
        play_out(simulator.new_state(prepared, plan), prepared.policies, [plan.policies[0]])
    state = simulator.new_state(prepared, plan)
    list_stream, their_stream = plan.policies
    play_out(state, prepared.policies, (list_stream, their_stream))
    assert type(list_stream) is random.Random, "the list's random policy drew from its own stream"
    assert "_key" in their_stream.__dict__, "the greedy opponent never drew: its stream was never even seeded"
