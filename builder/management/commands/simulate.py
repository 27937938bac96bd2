"""`python manage.py simulate FILE --opponent SLUG --games N --seed S [--policy NAME] [--workers K] [--json]`
(DESIGN.md §2.4), and `python manage.py simulate --list-opponents SYSTEM`.

Plays the list in FILE (hangar.list/1 JSON or the text format) against a sample opponent of the loaded catalog,
in this process or in K local processes. The same seed gives the same summary, byte for byte, whatever K is.
Exit status: 0 done, 2 bad file or arguments (the message says which).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from builder.management.commands.check_list import EXIT_BAD_FILE, read_list_file, require_catalog_tables
from cards.models import Opponent
from cards.selectors import catalog_for
from cards.systems import SYSTEMS
from rules_engine.simulation import MAX_GAMES, SimulationInputError, build_snapshot, simulate


def bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=EXIT_BAD_FILE)


def opponent_data(system: str, slug: str) -> dict:
    row = Opponent.objects.filter(system__slug=system, slug=slug).first()
    if row is None:
        known = ", ".join(Opponent.objects.filter(system__slug=system).values_list("slug", flat=True)) or "none loaded"
        raise bad_input(f"--opponent: no {system} opponent {slug!r}; known: {known}")
    return {"slug": row.slug, **row.data}


class Command(BaseCommand):
    help = "Play a list many times against a sample opponent and print how it did."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="list file: hangar.list/1 JSON, a BattleScribe .ros/.rosz roster or the text format")
        parser.add_argument("--opponent", help="opponent slug (see --list-opponents)")
        parser.add_argument("--games", type=int, default=1000, help=f"games to play (1..{MAX_GAMES}; default 1000)")
        parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
        parser.add_argument("--policy", default="greedy", help="the list's player: greedy (default), search (docs/simulations.md \"Search policy\") or random")
        parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        parser.add_argument("--list-opponents", metavar="SYSTEM", help="list the opponent slugs of a system")

    def handle(self, *args, **options):
        if options["list_opponents"]:
            require_catalog_tables()
            return self.list_opponents(options["list_opponents"])
        if not options["file"]:
            raise bad_input("give a list FILE (or --list-opponents SYSTEM)")
        if not options["opponent"]:
            raise bad_input("--opponent is required (see --list-opponents SYSTEM)")
        if options["workers"] < 1:
            raise bad_input("--workers must be at least 1")
        document = read_list_file(Path(options["file"]))  # a bad file is refused first, with or without a database
        require_catalog_tables()
        system = document["system"]
        catalog = catalog_for(system)
        if catalog is None:
            raise bad_input(f"no {system} catalog is loaded: run `python manage.py load_packages` first")
        opponent = opponent_data(system, options["opponent"])
        try:
            snapshot = build_snapshot(document, catalog.cards, opponent, policy=options["policy"])
            result = simulate(snapshot, games=options["games"], seed=options["seed"], workers=options["workers"])
        except SimulationInputError as error:
            raise bad_input(f"{options['file']}: {error}") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(describe(result)))

    def list_opponents(self, system: str) -> None:
        rows = Opponent.objects.filter(system__slug=system).order_by("slug")
        if not rows.exists():
            raise bad_input(f"no opponents loaded for {system!r} (systems: {', '.join(SYSTEMS)})")
        for row in rows:
            kind = row.data.get("kind", "")
            self.stdout.write(f"{row.slug:<28} {kind:<10} {row.name}")


def describe(result: dict) -> list[str]:
    """The summary in plain words."""
    low, high = result.get("win_rate_interval", [0, 0])
    lines = [
        f"{result['system']} vs {result['opponent']} ({result['policy']}), {result['games']} games, seed {result['seed']},"
        f" engine {result['engine_version']}",
        f"  win rate {result['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}):"
        f" {result['wins']} won, {result['losses']} lost, {result['draws']} drawn",
    ]
    for key, value in result.items():
        if isinstance(value, dict) and "mean" in value and value["mean"] is not None:
            lines.append(f"  {key.replace('_', ' ')}: mean {value['mean']:.2f}")
    if result.get("ended_by"):
        lines.append("  ended by: " + ", ".join(f"{reason} {count}" for reason, count in result["ended_by"].items()))
    return lines
