"""`manage.py simulate FILE --field ID`, `manage.py doctor FILE --field ID` and `manage.py matchups LIST --field ID`: a
field's opponents with their
weights, as anyone with its link (or `--user`) sees them; a private list inside never plays for anyone else, and
a field nobody may use exits 2."""
import json
from pathlib import Path

import pytest
from django.core.management import CommandError

from builder import services
from tests.support.commands import bundled, run  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "cards/packages/hagmi/lists/sample-fortress.json"


def test_simulate_and_doctor_play_a_field(bundled, owner):
    document = json.loads(LIST.read_text(encoding="utf-8"))
    secret = services.list_create(owner=owner, document={**document, "name": "Secret plan"}, visibility="private")
    field = services.field_create(owner=owner, system="hagmi", name="League", visibility="unlisted", entries=[
        {"opponent": "sample-vanguard", "weight": 3}, {"list": secret.slug}])
    shared = json.loads(run("simulate", str(LIST), "--field", field.slug, "--games", "4", "--seed", "2", "--json"))
    assert [(row["key"], row["weight"]) for row in shared["opponents"]] == [("sample-vanguard", 1.0)]
    owned = json.loads(run("simulate", str(LIST), "--field", field.slug, "--user", owner.username, "--games", "4",
                           "--seed", "2", "--json"))
    assert [(row["key"], row["weight"]) for row in owned["opponents"]] == [
        ("sample-vanguard", 0.75), (f"list:{secret.slug}", 0.25)]
    assert owned["opponents"][0]["result"] == shared["opponents"][0]["result"]  # the same seed, the same row
    report = json.loads(run("doctor", str(LIST), "--field", field.slug, "--games", "900", "--changes", "1",
                            "--seed", "2", "--json"))
    assert [row["opponent"] for row in report["baseline"]["opponents"]] == ["sample-vanguard"]


def test_a_field_that_may_not_be_used_exits_2(bundled, owner):
    private = services.field_create(owner=owner, system="hagmi", name="Mine", entries=[{"opponent": "goldfish"}])
    for args in (["--field", private.slug], ["--field", "nope"], ["--field", private.slug, "--user", "nobody"]):
        with pytest.raises(CommandError) as info:
            run("simulate", str(LIST), *args, "--games", "4")
        assert info.value.returncode == 2 and "--" in str(info.value)
    with pytest.raises(CommandError) as info:  # "test every card" is the doctor's command: it takes --field too
        run("impact", str(LIST), "--field", private.slug, "--games", "900")
    assert info.value.returncode == 2 and "--field" in str(info.value)


def test_matchups_plays_a_field_as_its_columns(bundled, owner):
    document = json.loads(LIST.read_text(encoding="utf-8"))
    secret = services.list_create(owner=owner, document={**document, "name": "Secret plan"}, visibility="private")
    field = services.field_create(owner=owner, system="hagmi", name="League", visibility="unlisted", entries=[
        {"opponent": "sample-vanguard", "weight": 3}, {"list": secret.slug}])
    args = [str(LIST), "--field", field.slug, "--games", "4", "--seed", "2", "--json"]
    shared = json.loads(run("matchups", *args))  # anyone with the link: the private list never plays
    assert [(column["key"], column["weight"]) for column in shared["columns"]] == [("sample-vanguard", 3.0)]
    owned = json.loads(run("matchups", *args, "--user", owner.username))
    assert [(column["key"], column["weight"]) for column in owned["columns"]] == [
        ("sample-vanguard", 3.0), (f"list:{secret.slug}", 1.0)]
    assert owned["cells"][0][0] == shared["cells"][0][0]  # the same seed, the same cell
    plain = json.loads(run("matchups", str(LIST), "--opponent", "sample-vanguard", "--games", "4", "--seed", "2",
                           "--json"))
    assert plain["cells"][0][0] == shared["cells"][0][0]
