"""`manage.py impact`: every distinct card one copy out on the same seeds, a verdict per card; the list's own games
are `simulate`'s, and their correlation figures are printed apart from the effects."""
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from tests.support.bundled_catalog import load_bundled_catalog

ROOT = Path(__file__).resolve().parents[2]
ARMY = ROOT / "cards/packages/mwda/lists/highland-line.json"
COMMON = [str(ARMY), "--opponent", "republic-knight-guard", "--seed", "1"]


@pytest.fixture
def bundled(db):
    load_bundled_catalog()


def run(*args) -> str:
    out = StringIO()
    call_command("impact", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_every_unit_gets_a_verdict_the_key_unit_is_confirmed_and_workers_change_nothing(bundled):
    report = json.loads(run(*COMMON, "--games", "1000", "--json"))
    assert report["variant"] == "impact" and report["games"] == 1000
    assert {change["card"] for change in report["changes"]} == {"MW-017", "MW-019", "MW-020"}
    top = report["changes"][0]
    assert top["card"] == "MW-017" and top["verdict"] == "helps" and top["stage"] == "confirm"
    screen = report["stages"][0]["games"]
    out = StringIO()
    call_command("simulate", *COMMON, "--games", str(screen), "--json", stdout=out, stderr=StringIO())
    assert report["baseline"]["opponents"][0]["result"] == json.loads(out.getvalue())
    assert json.loads(run(*COMMON, "--games", "1000", "--json", "--workers", "2")) == report
    text = run(*COMMON, "--games", "1000")
    effects = text.split("Effect of each card")[1]
    correlation = text.split("Correlation, not effect")[1].split("Effect of each card")[0]
    assert top["sentence"]["en"] in effects and "Holm" in effects
    assert "played in" in correlation and "Helps" not in correlation


def test_a_budget_below_the_minimum_exits_2_and_says_why(bundled):
    with pytest.raises(CommandError) as info:
        run(*COMMON, "--games", "999")
    assert info.value.returncode == 2 and "needs at least 1000 games in all" in str(info.value)
    assert "a test-every-card run of 3 cards against 1 opponent" in str(info.value)

