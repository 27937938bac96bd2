"""`manage.py simulate` (docs/design.md §2.4): same seed, same summary byte for byte, whatever --workers is."""
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from tests.support.bundled_catalog import load_bundled_catalog


ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "cards/packages/hagmi/lists/akane-assault.json"


@pytest.fixture
def bundled(db):
    load_bundled_catalog()


def simulate(*args) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_simulate_json_is_byte_identical_whatever_the_workers(bundled):
    args = [str(LIST), "--opponent", "sample-fortress", "--games", "1100", "--seed", "42", "--json"]
    one = simulate(*args)
    two = simulate(*args, "--workers", "2")
    assert one == two
    result = json.loads(one)
    assert result["games"] == 1100 and result["seed"] == 42 and result["opponent"] == "sample-fortress"
    assert result["wins"] + result["losses"] + result["draws"] == 1100
    low, high = result["win_rate_interval"]
    assert low <= result["win_rate"] <= high
    for key in ("turns", "damage_per_turn", "first_unit_turn", "cards_played", "ended_by", "engine_version"):
        assert key in result
    assert sum(result["turns"]["histogram"].values()) == 1100


def test_another_seed_gives_another_run(bundled):
    args = [str(LIST), "--opponent", "goldfish", "--games", "200", "--json"]
    assert simulate(*args, "--seed", "1") != simulate(*args, "--seed", "2")


def test_plain_output_says_the_win_rate(bundled):
    text = simulate(str(LIST), "--opponent", "goldfish", "--games", "50", "--seed", "5")
    assert "win rate" in text and "50 games" in text


def test_list_opponents_names_every_hagmi_opponent(bundled):
    text = simulate("--list-opponents", "hagmi")
    for slug in ("goldfish", "coop-ironshell-cradle", "coop-abyssal-ark", "sample-vanguard", "sample-fortress"):
        assert slug in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--opponent", "nope"], "no hagmi opponent 'nope'"),
        (["--opponent", "goldfish", "--games", "0"], "games"),
        (["--opponent", "goldfish", "--policy", "clairvoyant"], "unknown policy"),
        ([], "--opponent is required"),
    ],
)
def test_bad_arguments_fail_with_a_clear_message(bundled, args, message):
    with pytest.raises(CommandError, match=message):
        simulate(str(LIST), *args)


def test_sample_decks_are_playable_as_the_players_side(bundled):
    for path in sorted((ROOT / "cards/packages/hagmi/lists").glob("*.json")):
        result = json.loads(simulate(str(path), "--opponent", "goldfish", "--games", "20", "--seed", "9", "--json"))
        assert result["games"] == 20, path.name


@pytest.mark.parametrize("command", ["simulate", "check_list"])
def test_commands_explain_a_database_that_is_not_set_up(db, monkeypatch, command):
    """A fresh checkout without `migrate`: a clear error with the set-up command and exit status 2, not a traceback."""
    from django.db import connection

    monkeypatch.setattr(connection.introspection, "table_names", lambda *a, **k: ["django_migrations"])
    with pytest.raises(CommandError, match=r"database is not set up .*cards_opponent.*python3 dev.py run") as error:
        extra = ["--opponent", "goldfish"] if command == "simulate" else []
        call_command(command, str(LIST), *extra, stdout=StringIO())
    assert error.value.returncode == 2


def test_simulate_list_opponents_explains_a_database_that_is_not_set_up(db, monkeypatch):
    from django.db import connection

    monkeypatch.setattr(connection.introspection, "table_names", lambda *a, **k: [])
    with pytest.raises(CommandError, match="database is not set up"):
        call_command("simulate", "--list-opponents", "warcaster", stdout=StringIO())


def test_a_gauntlet_prints_a_row_per_opponent_equal_to_its_plain_run(bundled, tmp_path):
    """Several --opponent (with weights) and --opponent-list; each row is the plain run, same seed."""
    other = ROOT / "cards/packages/hagmi/lists/sample-vanguard.json"
    args = [str(LIST), "--opponent", "sample-fortress=3", "--opponent", "goldfish", "--opponent-list", f"{other}=1",
            "--games", "40", "--seed", "8", "--json"]
    gauntlet = json.loads(simulate(*args))
    assert [row["key"] for row in gauntlet["opponents"]] == ["sample-fortress", "goldfish", "list:sample-vanguard"]
    assert [row["weight"] for row in gauntlet["opponents"]] == [0.6, 0.2, 0.2]
    alone = json.loads(simulate(str(LIST), "--opponent", "sample-fortress", "--games", "40", "--seed", "8", "--json"))
    assert gauntlet["opponents"][0]["result"] == alone
    listed = gauntlet["opponents"][2]
    as_sample = json.loads(simulate(str(LIST), "--opponent", "sample-vanguard", "--games", "40", "--seed", "8", "--json"))
    assert listed["win_rate"] == as_sample["win_rate"]  # the same list as the bundled sample opponent plays the same
    assert json.loads(simulate(*args, "--workers", "2")) == gauntlet
    text = simulate(*args[:-1])
    assert "gauntlet" in text and "weighted total" in text and "list:sample-vanguard" in text


def test_opponent_policy_is_in_the_result(bundled):
    result = json.loads(simulate(str(LIST), "--opponent", "sample-fortress", "--opponent-policy", "random",
                                 "--games", "20", "--json"))
    assert result["opponent_policy"] == "random" and result["policy"] == "greedy"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--opponent", "goldfish=lots"], "the weight after '=' must be a number, got 'lots'"),
        (["--opponent", "goldfish", "--opponent", "goldfish=2"], "goldfish given twice"),
        (["--opponent-list", "/nope/none.json"], "no such file"),
        (["--opponent", "goldfish", "--opponent-policy", "nope"], "opponent_policy: unknown policy 'nope'"),
    ],
)
def test_bad_gauntlet_arguments_say_what_is_wrong(bundled, args, message):
    with pytest.raises(CommandError, match=message):
        simulate(str(LIST), *args, "--games", "5")


@pytest.mark.parametrize("seats", ["both", "list-first", "random"])
def test_simulate_accepts_each_seat_mode_and_reports_both_seats(bundled, seats):
    """--seats both|list-first|random: the result's seat block, the win rate going first and going second (each
    with its interval) and the policy on each side, in the JSON and in the plain output."""
    args = [str(LIST), "--opponent", "sample-fortress", "--games", "21", "--seed", "3", "--seats", seats]
    result = json.loads(simulate(*args, "--json"))
    assert result["seats"]["mode"] == seats and result["policies"] == {"list": "greedy", "opponent": "greedy"}
    first, second = result["seats"]["first"], result["seats"]["second"]
    assert first["games"] + second["games"] == 21 and first["wins"] + second["wins"] == result["wins"]
    if seats == "both":  # an odd count: the last deal has its list-first game only
        assert (first["games"], second["games"], result["seats"]["pairs"]) == (11, 10, 10)
    text = simulate(*args)
    assert "going first" in text and "list played by greedy, opponent by greedy" in text
    if seats != "list-first":
        assert "going second " in text and "% (" in text.split("going second ")[1]


def test_simulate_against_the_beasts_says_the_order_is_fixed_by_the_rules(bundled):
    text = simulate(str(LIST), "--opponent", "coop-ironshell-cradle", "--games", "4", "--seed", "1")
    assert "order fixed by the rules (the players always go first)" in text and "opponent by the rules" in text


def test_a_bad_seat_mode_is_refused_naming_the_choices(bundled):
    with pytest.raises(CommandError, match=r"--seats: invalid choice: 'first' \(choose from .*both.*list-first.*random"):
        simulate(str(LIST), "--opponent", "goldfish", "--seats", "first")


def test_doctor_takes_the_seat_mode_into_every_leg(bundled):
    out = StringIO()
    # 900 games: the doctor's minimum budget for 2 changes against one opponent
    call_command("doctor", str(LIST), "--opponent", "sample-fortress", "--games", "900", "--seed", "2", "--changes", "2",
                 "--seats", "list-first", "--json", stdout=out)
    result = json.loads(out.getvalue())
    for row in result["baseline"]["opponents"]:
        assert row["result"]["seats"]["mode"] == "list-first" and row["result"]["seats"]["second"]["games"] == 0
    with pytest.raises(CommandError, match="--seats: invalid choice"):
        call_command("doctor", str(LIST), "--opponent", "goldfish", "--seats", "sometimes", stdout=StringIO())
