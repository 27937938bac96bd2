"""`manage.py doctor`: a budget of games, two stages, a verdict per change; its baseline is `simulate`."""
import json
from pathlib import Path

import pytest
from django.core.management import CommandError
from tests.support.commands import bundled, run  # noqa: F401 (a fixture)


ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "cards/packages/hagmi/lists/sample-fortress.json"


def test_the_doctor_baseline_equals_simulate_and_every_change_gets_a_verdict(bundled):
    """The screen's baseline is `simulate` with the screen's games and seed; every change gets a verdict and an
    interval that is never of zero width; local processes change nothing."""
    common = [str(LIST), "--opponent", "sample-vanguard", "--seed", "4"]
    report = json.loads(run("doctor", *common, "--games", "1100", "--changes", "4", "--json"))
    screen = report["stages"][0]
    assert screen["stage"] == "screen" and screen["games"] == 100 and report["games"] == 1100
    alone = json.loads(run("simulate", *common, "--games", str(screen["games"]), "--json"))
    assert report["baseline"]["opponents"][0]["result"] == alone
    assert len(report["changes"]) == 4
    for change in report["changes"]:
        low, high = change["stats"]["interval"]
        assert change["verdict"] in ("better", "none", "worse") and high - low > 0
        assert change["confirmed"] == (change["verdict"] == "better")
    assert report["games_played"] <= 1100
    again = json.loads(run("doctor", *common, "--games", "1100", "--changes", "4", "--json", "--workers", "2"))
    assert again == report
    text = run("doctor", *common, "--games", "1100", "--changes", "4")
    assert "list doctor" in text and report["changes"][0]["sentence"]["en"] in text and "Holm" in text


def test_the_doctor_refuses_a_budget_below_its_minimum_with_exit_status_2(bundled):
    """Below the minimum (100 games per list to screen, 300 per list to confirm) the command says why and exits 2."""
    with pytest.raises(CommandError) as info:
        run("doctor", str(LIST), "--opponent", "sample-vanguard", "--games", "40", "--changes", "4")
    assert info.value.returncode == 2
    assert "needs at least 1100 games in all" in str(info.value) and "40 given" in str(info.value)


def test_the_doctor_refuses_an_illegal_list(bundled, tmp_path):
    document = json.loads(LIST.read_text(encoding="utf-8"))
    document["sections"]["weapons"] = document["sections"]["weapons"][:3]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match="the list doctor needs a legal list"):
        run("doctor", str(path), "--opponent", "goldfish", "--games", "5000")


def test_the_doctor_needs_an_opponent(bundled):
    with pytest.raises(CommandError, match="--opponent is required"):
        run("doctor", str(LIST), "--games", "5")
