"""A site full of data, for the crawler test of every page in both languages (tests/web/test_every_word.py) and for
looking at the pages by hand: the bundled packages of the three games, a public list of each sample list, a
finished simulation of a list of each game against a real sample opponent, and a list with a history of edits
(notes, visibility, cards), so that every vocabulary a page can show is on some page.

    DEBUG=1 .venv/bin/python manage.py shell -c "from tests.support.showcase import main; main()"

fills the development database (a user `showcase`, password `showcase-pass-1`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

from builder import services
from builder.models import GameList, SimulationRun
from tests.support.bundled_catalog import load_bundled_catalog

PACKAGES = Path(settings.BASE_DIR) / "cards" / "packages"
# One run of each game: (system, the list's file, a real sample opponent of that game).
RUNS = (
    ("hagmi", "akane-assault.json", "sample-vanguard"),
    ("hagmi", "hibari-skirmish.json", "coop-ironshell-cradle"),
    ("mwda", "highland-line.json", "steel-wolves-pack"),
    ("warcaster", "isa-starsteel-vanguard.json", "marcher-dust-raiders"),
)
GAMES = 4


@dataclass
class Showcase:
    lists: dict[str, GameList] = field(default_factory=dict)  # file stem -> list
    runs: list[SimulationRun] = field(default_factory=list)
    edited: GameList | None = None
    matrices: list = field(default_factory=list)  # a matchup matrix of each game, and one "what beats my list"


def load_bundled() -> None:
    load_bundled_catalog()


def sample_document(system: str, filename: str) -> dict[str, Any]:
    return json.loads((PACKAGES / system / "lists" / filename).read_text(encoding="utf-8"))


def build_showcase(owner, *, play=None) -> Showcase:
    """Lists, runs and a history for `owner`. `play(run)` plays a run's chunks (default: in this process)."""
    show = Showcase()
    for folder in sorted(PACKAGES.iterdir()):
        for path in sorted((folder / "lists").glob("*.json")):
            show.lists[path.stem] = services.list_create(
                owner=owner, document=sample_document(folder.name, path.name), visibility="public")
    for system, filename, opponent in RUNS:
        game_list = show.lists[Path(filename).stem]
        run = services.simulation_start(user=owner, game_list=game_list, opponent_slug=opponent, policy="greedy",
                                        games=GAMES, seed=7)
        (play or _play_here)(run)
        show.runs.append(SimulationRun.objects.get(pk=run.pk))
    _matrices(owner, show, play or _play_here)
    edited = show.lists["akane-assault"]
    document = sample_document("hagmi", "akane-assault.json")
    first = document["sections"]["weapons"][0]
    first["qty"] = max(1, first["qty"] - 1)
    edited = services.list_update(game_list=edited, user=owner, notes="Tuned for the store championship.",
                                  expected_version=edited.version)
    edited = services.list_update(game_list=edited, user=owner, visibility="unlisted", document=document,
                                  expected_version=edited.version)
    show.edited = edited
    return show


def _matrices(owner, show: Showcase, play) -> None:
    """A matchup matrix of each game (its first two bundled lists against two of its sample opponents, or one),
    and "what beats" the first HAGMI list, every cell played."""
    from builder import selectors
    from builder.services import matrices
    from cards.models import Opponent

    def played(matrix):
        for cell in selectors.matrix_cells(matrix):
            if cell.run.is_active:
                play(cell.run)
        return matrix

    for system in ("hagmi", "mwda", "warcaster"):
        lists = [game_list for game_list in show.lists.values() if game_list.system.slug == system][:2]
        opponents = list(Opponent.objects.filter(system__slug=system).exclude(data__kind="goldfish")
                         .order_by("slug").values_list("slug", flat=True))[:2]
        show.matrices.append(played(matrices.matrix_start(
            user=owner, lists=[game_list.slug for game_list in lists], games=GAMES, seed=7,
            opponents=[{"opponent": slug, "weight": weight} for slug, weight in zip(opponents, (2, 1))])))
    show.matrices.append(played(matrices.beats_start(user=owner, game_list=show.lists["akane-assault"], games=2,
                                                     seed=7)))


def _play_here(run: SimulationRun) -> None:
    for index in range(run.chunks_total):
        services.simulation_chunk_play(run_id=run.pk, index=index, worker="showcase@here")


def main() -> None:  # pragma: no cover - a hand tool for the development database
    from django.contrib.auth import get_user_model

    load_bundled()
    user, created = get_user_model().objects.get_or_create(username="showcase")
    if created:
        user.set_password("showcase-pass-1")
        user.save()
    show = build_showcase(user)
    for run in show.runs:
        print(run.system, run.opponent, f"/simulations/{run.public_id}/", f"/simulations/{run.public_id}/games/0/")
    for stem, game_list in show.lists.items():
        print(stem, f"/lists/{game_list.slug}/")
    for matrix in show.matrices:
        print(matrix.kind, matrix.system, f"/matrices/{matrix.public_id}/")
