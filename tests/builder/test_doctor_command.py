"""`manage.py doctor` (issue 20): ranks single changes by paired win-rate change; its baseline is `simulate`."""
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from tests.support.bundled_catalog import load_bundled_catalog


ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "cards/packages/hagmi/lists/sample-fortress.json"


@pytest.fixture
def bundled(db):
    load_bundled_catalog()


def run(command: str, *args) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_doctor_baseline_equals_simulate_and_changes_are_ranked(bundled):
    args = [str(LIST), "--opponent", "sample-vanguard", "--games", "30", "--seed", "4"]
    report = json.loads(run("doctor", *args, "--changes", "4", "--json"))
    alone = json.loads(run("simulate", *args, "--json"))
    assert report["baseline"]["opponents"][0]["result"] == alone
    deltas = [change["stats"]["delta"] for change in report["changes"]]
    assert len(deltas) == 4 and deltas == sorted(deltas, reverse=True)
    assert json.loads(run("doctor", *args, "--changes", "4", "--json", "--workers", "2")) == report
    text = run("doctor", *args, "--changes", "4")
    assert "list doctor" in text and report["changes"][0]["sentence"]["en"] in text


def test_the_doctor_refuses_an_illegal_list(bundled, tmp_path):
    document = json.loads(LIST.read_text(encoding="utf-8"))
    document["sections"]["weapons"] = document["sections"]["weapons"][:3]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match="the list doctor needs a legal list"):
        run("doctor", str(path), "--opponent", "goldfish", "--games", "5")


def test_the_doctor_needs_an_opponent(bundled):
    with pytest.raises(CommandError, match="--opponent is required"):
        run("doctor", str(LIST), "--games", "5")
