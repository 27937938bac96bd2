"""`python manage.py matchups LIST [LIST ...] --opponent SLUG[=WEIGHT] ... [--opponent-list FILE|ID[=WEIGHT] ...]
[--field ID] [--event SLUG] [--user NAME] --games N --seed S [--policy NAME] [--opponent-policy NAME] [--seats MODE] [--workers W] [--json]`: a matchup
matrix here, without the workers.

Each LIST (a row) is a list file (hangar.list/1 JSON, a BattleScribe roster, the text format) or the id of a saved
list; each opponent (a column) a sample opponent or a list file or saved list id played by --opponent-policy, then
the entries of a saved field (`--field ID`, as `--user NAME` — or, without it, anyone with the link — sees it: another
player's private list never enters), then the lists of a tournament event (`--event SLUG`: each distinct list its
players submitted, weighted by how many brought it, once its lists are shown to `--user`). Every
cell is exactly the plain run `simulate LIST --opponent ...` gives with the same games and seed (its `result`), so
it is also the cell the site's matrix (builder.services.matrices) stores; each row gets the weighted win rate over
the opponents with its 95 % interval. The same seed gives the same report whatever W is. At most 64 cells.
Exit status: 0 done, 2 bad file or arguments (the message says which).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from builder import selectors
from builder.errors import WorkOverBudget
from builder.management.commands.check_list import read_list_file, require_catalog_tables
from builder.management.commands.simulate import (
    add_field_arguments, add_seats_argument, bad_input, event_opponents_of, field_opponents_of, opponent_data,
    opponent_label, split_weight,
)
from builder.models import GameList
from builder.services.budget import COMMAND_MORE, check_run_work
from builder.services.matrices import MAX_CELLS
from cards.selectors import catalog_for
from rules_engine.batch import gauntlet_batch, leg_results, run_batch, weighted_total
from rules_engine.simulation import MAX_GAMES, SimulationInputError, build_snapshot, check_list_size
from rules_engine.systems import system as game_system


def read_list(given: str, option: str) -> tuple[str, dict]:
    """(name, document) of a list file, or of a saved list by its id when no such file exists."""
    path = Path(given)
    if path.exists():
        document = read_list_file(path)
        return document.get("name") or path.stem, document
    require_catalog_tables()
    game_list = GameList.objects.select_related("system").filter(slug=given).first() \
        if selectors.LIST_SLUG.fullmatch(given) else None
    if game_list is None:
        raise bad_input(f"{option} {given}: no such list file, nor a saved list with that id")
    return game_list.name or given, selectors.list_document(game_list)


class Command(BaseCommand):
    help = "Play lists against a field of opponents: a win rate with its 95 % interval per list and opponent."

    def add_arguments(self, parser):
        parser.add_argument("lists", nargs="+", metavar="LIST", help="list files or saved list ids (the rows)")
        parser.add_argument("--opponent", action="append", default=[], metavar="SLUG[=WEIGHT]",
                            help="a sample opponent (see simulate --list-opponents), with an optional weight")
        parser.add_argument("--opponent-list", action="append", default=[], metavar="FILE|ID[=WEIGHT]",
                            help="a list file or saved list id played as an opponent (by --opponent-policy)")
        parser.add_argument("--games", type=int, default=1000, help=f"games per cell (1..{MAX_GAMES}; default 1000)")
        parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
        parser.add_argument("--policy", default="greedy", help="the lists' player: greedy (default), search or random")
        parser.add_argument("--opponent-policy", default=None, help="the other side's player (default: --policy)")
        add_seats_argument(parser)
        add_field_arguments(parser)
        parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
        parser.add_argument("--json", action="store_true", help="print the matrix as JSON")

    def handle(self, *args, **options):
        if not options["opponent"] and not options["opponent_list"] and not options["field"] \
                and not options["event"]:
            raise bad_input("--opponent, --opponent-list, --field or --event is required (see simulate "
                            "--list-opponents SYSTEM)")
        if options["user"] and not options["field"] and not options["event"]:
            raise bad_input("--user goes with --field or --event")
        if options["workers"] < 1:
            raise bad_input("--workers must be at least 1")
        if not 1 <= options["games"] <= MAX_GAMES:
            raise bad_input(f"--games must be from 1 to {MAX_GAMES}")
        rows = [read_list(given, "LIST") for given in options["lists"]]
        system = rows[0][1]["system"]
        for given, (_name, document) in zip(options["lists"], rows):
            if document["system"] != system:
                raise bad_input(f"LIST {given}: a {document['system']} list; the first list is a {system} list")
        require_catalog_tables()
        catalog = catalog_for(system)
        if catalog is None:
            raise bad_input(f"no {system} catalog is loaded: run `python manage.py load_packages` first")
        columns = self.opponents(system, catalog, options)
        cells = len(rows) * len(columns)
        if cells > MAX_CELLS:
            raise bad_input(f"{len(rows)} lists × {len(columns)} opponents is {cells} cells, more than {MAX_CELLS}")
        policies = {"policy": options["policy"], "opponent_policy": options["opponent_policy"],
                    "seats": options["seats"]}
        games, seed = options["games"], options["seed"]
        try:
            legs = []
            for row, (_name, document) in enumerate(rows):
                for key, opponent, weight in columns:
                    legs.append((f"{row}:{key}", weight, build_snapshot(document, catalog.cards, opponent, **policies)))
            batch = gauntlet_batch(legs)
            for leg in batch["legs"]:  # a list past every format is refused as such, before its cost
                check_list_size(leg["snapshot"])
            check_run_work(batch, games, more=COMMAND_MORE)
            summaries = run_batch(batch, games=games, seed=seed, workers=options["workers"],
                                  on_chunk=None if options["json"] else self.progress)
            results = leg_results(batch, summaries, games=games, seed=seed)
        except SimulationInputError as error:
            raise bad_input(str(error)) from None
        except WorkOverBudget as error:
            raise bad_input(error.message) from None
        report = matrix_report(rows, columns, results, options)
        if options["json"]:
            self.stdout.write(json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(describe(report)))

    def opponents(self, system: str, catalog, options) -> list[tuple[str, dict, float]]:
        found = []
        for given in options["opponent"]:
            slug, weight = split_weight(given, "--opponent")
            found.append((slug, opponent_data(system, slug), 1.0 if weight is None else weight))
        for given in options["opponent_list"]:
            where, weight = split_weight(given, "--opponent-list", path=True)
            name, document = read_list(where, "--opponent-list")
            if document["system"] != system:
                raise bad_input(f"--opponent-list {where}: a {document['system']} list cannot play a {system} list")
            for entries in document["sections"].values():
                for entry in entries:
                    if entry["card"] not in catalog.cards:
                        raise bad_input(f"--opponent-list {where}: card {entry['card']!r} is not in the {system} "
                                        "catalog")
            key = f"list:{Path(where).stem}"
            found.append((key, game_system(system).list_opponent(document, slug=key, name=name),
                          1.0 if weight is None else weight))
        if options["field"]:
            found = [(key, opponent, 1.0 if weight is None else weight) for key, opponent, weight in
                     field_opponents_of(system, catalog, options["field"], options["user"],
                                        [(key, opponent, weight) for key, opponent, weight in found])]
        if options["event"]:
            found = [(key, opponent, 1.0 if weight is None else weight) for key, opponent, weight in
                     event_opponents_of(system, catalog, options["event"], options["user"], found)]
        keys = [key for key, _o, _w in found]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise bad_input(f"--opponent: {', '.join(twice)} given twice")
        if not any(weight > 0 for _k, _o, weight in found):
            raise bad_input("--opponent: at least one opponent needs a weight above 0")
        return found

    def progress(self, done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            self.stderr.write(f"  {done}/{total} chunks played")


def matrix_report(rows, columns, results, options) -> dict:
    """The matrix as JSON: rows (with the weighted total), columns, and cells[row][column] (each the plain run's
    result)."""
    width = len(columns)
    grid = [results[row * width:(row + 1) * width] for row in range(len(rows))]
    return {
        "system": results[0]["system"], "games": options["games"], "seed": options["seed"],
        "seats": options["seats"], "policy": options["policy"], "opponent_policy": options["opponent_policy"],
        "engine_version": results[0]["engine_version"],
        "columns": [{"key": key, "name": opponent.get("name") or key, "weight": weight}
                    for key, opponent, weight in columns],
        "rows": [{"name": name, "total": weighted_total([(weight, cell["wins"], options["games"])
                                                         for (_k, _o, weight), cell in zip(columns, cells)])}
                 for (name, _document), cells in zip(rows, grid)],
        "cells": grid,
    }


def describe(report: dict) -> list[str]:
    """The matrix in plain words: a line per list and opponent, then the list's weighted total."""
    policy = report["policy"] + (f" vs {report['opponent_policy']}" if report.get("opponent_policy") else "")
    lines = [f"{report['system']} matchup matrix ({policy}, seats {report['seats']}), {report['games']} games per "
             f"cell, seed {report['seed']}, engine {report['engine_version']}"]
    for row, cells in zip(report["rows"], report["cells"]):
        lines.append(f"  {row['name']}")
        for column, cell in zip(report["columns"], cells):
            low, high = cell["win_rate_interval"]
            lines.append(f"    vs {opponent_label(column['key'], column.get('name'))}: win rate {cell['win_rate']:.1%} ({low:.1%}-{high:.1%}), "
                         f"{cell['wins']} won, {cell['losses']} lost, {cell['draws']} drawn")
        total = row["total"]
        low, high = total["win_rate_interval"]
        lines.append(f"    weighted over the field: {total['win_rate']:.1%} ({low:.1%}-{high:.1%})")
    lines.append("  (95 % intervals)")
    return lines
