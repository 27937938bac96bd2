"""`manage.py matchups`: every cell is exactly what `simulate LIST --opponent ...` gives with the same games and
seed, the report is the same whatever --workers is, bad arguments exit 2 naming them."""
import json
from pathlib import Path

import pytest
from django.core.management import CommandError
from tests.support.commands import bundled, run  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
LISTS = ROOT / "cards/packages/hagmi/lists"


def test_a_cell_is_the_plain_simulate_run_and_workers_change_nothing(bundled):
    first, second = sorted(LISTS.glob("*.json"))[:2]
    args = [str(first), str(second), "--opponent", "sample-fortress=3", "--opponent-list", str(second),
            "--games", "40", "--seed", "9", "--json"]
    one = run("matchups", *args)
    assert one == run("matchups", *args, "--workers", "2")
    report = json.loads(one)
    assert [len(cells) for cells in report["cells"]] == [2, 2]
    plain = json.loads(run("simulate", str(second), "--opponent", "sample-fortress", "--games", "40", "--seed", "9",
                           "--json"))
    assert report["cells"][1][0] == plain
    total = report["rows"][1]["total"]
    expected = 0.75 * plain["wins"] / 40 + 0.25 * report["cells"][1][1]["wins"] / 40
    assert total["win_rate"] == pytest.approx(expected, abs=1e-6)
    text = run("matchups", *args[:-1])
    assert "weighted over the field" in text and "vs sample-fortress: win rate" in text


@pytest.mark.parametrize("args, message", [
    ([], "--opponent, --opponent-list, --field or --event is required"),
    (["--field", "nope"], "--field: no field 'nope' shared by its link"),
    (["--opponent", "goldfish", "--user", "someone"], "--user goes with --field or --event"),
    (["--opponent", "nope"], "no hagmi opponent 'nope'"),
    (["--opponent", "goldfish", "--games", "0"], "--games must be from 1"),
    (["--opponent-list", "no-such-list"], "no such list file, nor a saved list"),
])
def test_bad_arguments_exit_2_naming_them(bundled, args, message):
    first = sorted(LISTS.glob("*.json"))[0]
    with pytest.raises(CommandError, match=message) as info:
        run("matchups", str(first), *args)
    assert info.value.returncode == 2
