"""`python manage.py doctor FILE --opponent SLUG[=WEIGHT] ... [--opponent-list FILE[=WEIGHT] ...] [--field ID] [--event SLUG] [--user NAME] --games N --seed S
[--changes K] [--workers W] [--policy NAME] [--opponent-policy NAME] [--seats MODE] [--json]`: the list
doctor.

Tries single changes to the list in FILE (one copy out, one copy of a catalog card in, one swap: at most K of them,
chosen by rules_engine.doctor.candidate_changes, each keeping the list legal) within a budget of N games in all
(rules_engine.doctor.run_doctor): the screen plays the list and every change on seed S against every opponent on the
same seeds (paired games), then the leaders are replayed on fresh seeds; only a change confirmed there, after Holm's
correction, is called better. Each change gets its verdict, its 95 % interval and its adjusted p-value; the cards the
list (almost) never used come first. The baseline is exactly what `simulate FILE` gives with the screen's games and
the same seed and opponent. The same seed gives the same report whatever W is.
Exit status: 0 done, 2 bad file or arguments, or a budget below the doctor's minimum (the message says which).
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from builder.errors import WorkOverBudget
from builder.management.commands.simulate import add_field_arguments, add_seats_argument, bad_input, read_run_inputs
from builder.services.budget import COMMAND_MORE, check_run_work
from rules_engine.doctor import TooFewGames, candidate_changes, doctor_batch, run_doctor, screen_stage
from rules_engine.simulation import MAX_GAMES, SimulationInputError, build_snapshot, check_list_size

DEFAULT_CHANGES = 30
DEFAULT_GAMES = 10_000


class Command(BaseCommand):
    help = "Try single changes to a list on the same seeds and rank them by how much they change its win rate."
    what_is_tried = "change"  # the budget's help: games in all, every stage, change and opponent together
    variant: str | None = None  # rules_engine.doctor's variant of the batch (None: the doctor's own changes)

    def add_arguments(self, parser):
        parser.add_argument("file", help="list file: hangar.list/1 JSON, a BattleScribe .ros/.rosz roster or the text format")
        parser.add_argument("--opponent", action="append", default=[], metavar="SLUG[=WEIGHT]",
                            help="opponent slug (see simulate --list-opponents); several, with weights, for a meta")
        parser.add_argument("--opponent-list", action="append", default=[], metavar="FILE[=WEIGHT]",
                            help="a list file played as an opponent (by --opponent-policy)")
        parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                            help=f"games in all, every stage, {self.what_is_tried} and opponent together (the budget, "
                                 f"up to {MAX_GAMES}; default {DEFAULT_GAMES}; refused below the minimum)")
        parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
        self.add_change_arguments(parser)
        parser.add_argument("--policy", default="greedy", help="the list's player: greedy (default), search or random")
        parser.add_argument("--opponent-policy", default=None, help="the other side's player (default: --policy)")
        add_seats_argument(parser)
        add_field_arguments(parser)
        parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def add_change_arguments(self, parser) -> None:
        parser.add_argument("--changes", type=int, default=DEFAULT_CHANGES,
                            help=f"how many changes to try at most (default {DEFAULT_CHANGES})")

    def changes_of(self, document: dict, catalog, options: dict) -> list:
        """The changes to try (ValueError: the list has none that can be tried, said in words)."""
        if options["changes"] < 1:
            raise bad_input("--changes must be at least 1")
        return candidate_changes(document, catalog, limit=options["changes"])

    def check_size(self, changes: list, opponents: list, options: dict) -> None:
        """Refuse a run too large to hold before anything is played (the doctor's changes are bounded by --changes)."""

    def describe(self, result: dict) -> list[str]:
        return describe(result)

    def handle(self, *args, **options):
        if not options["opponent"] and not options["opponent_list"] and not options["field"] \
                and not options["event"]:
            raise bad_input("--opponent is required (see simulate --list-opponents SYSTEM), or --field ID or "
                            "--event SLUG")
        if options["workers"] < 1:
            raise bad_input("--workers must be at least 1")
        document, catalog, opponents = read_run_inputs(options)
        policies = {"policy": options["policy"], "opponent_policy": options["opponent_policy"],
                    "seats": options["seats"]}
        try:
            changes = self.changes_of(document, catalog, options)
        except ValueError as error:
            raise bad_input(f"{options['file']}: {error}") from None
        self.check_size(changes, opponents, options)
        try:
            snapshots = [(key, 1.0 if weight is None else weight,
                          build_snapshot(document, catalog.cards, opponent, **policies))
                         for key, opponent, weight in opponents]
            batch = doctor_batch(snapshots[0][2], changes, snapshots, catalog.cards, variant=self.variant)
            for leg in batch["legs"]:  # a list past every format is refused as such, before its cost
                check_list_size(leg["snapshot"])
            screen_stage(batch, games=options["games"], seed=options["seed"])  # the minimum first: it says why
            check_run_work(batch, options["games"], more=COMMAND_MORE)
            quiet = options["json"]
            result = run_doctor(batch, games=options["games"], seed=options["seed"], workers=options["workers"],
                                on_stage=None if quiet else self.stage, on_chunk=None if quiet else self.progress)
        except TooFewGames as error:
            raise bad_input(f"{options['file']}: {error}") from None
        except SimulationInputError as error:
            raise bad_input(f"{options['file']}: {error}") from None
        except WorkOverBudget as error:
            raise bad_input(f"{options['file']}: {error.message}") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(self.describe(result)))

    def stage(self, stage: dict) -> None:
        lists = len(stage["legs"])
        self.stderr.write(f"  {stage['stage']}: {lists} lists and opponents × {stage['games']} games")

    def progress(self, done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            self.stderr.write(f"  {done}/{total} chunks played")


def describe(result: dict) -> list[str]:
    """The report in plain words: the stages, the list as it is, the cards it rarely used, then every change with
    its verdict, confirmed ones first."""
    policy = result["policy"] + (f" vs {result['opponent_policy']}" if result.get("opponent_policy") else "")
    lines = [f"{result['system']} list doctor ({policy}), {result['games_played']} of {result['games']} games"
             f" played, seed {result['seed']}, engine {result['engine_version']}"]
    for stage in result["stages"]:
        lines.append(f"  {stage['stage']}: the list and {stage['lists'] - 1} change(s) × {stage['games']} games"
                     f" per opponent (seed {stage['seed']})")
    for row in result["baseline"]["opponents"]:
        low, high = row["result"]["win_rate_interval"]
        lines.append(f"  as it is vs {row['opponent']} (weight {row['weight']:.2f}): win rate"
                     f" {row['result']['win_rate']:.1%} ({low:.1%}-{high:.1%})")
    for row in result.get("rarely_used") or []:
        how = "never used" if row["never"] else f"used {row['per_game']:.3f} times a game per copy"
        lines.append(f"  cut first? {row['name_en']} ({row['card']}, {row['copies']}×): {how}")
    if not result["changes"]:
        lines.append("  no single change keeps this list legal")
    for rank, change in enumerate(result["changes"], 1):
        mark = "*" if change["confirmed"] else " "
        lines.append(f"  {rank:>2}.{mark} {change['sentence']['en']}")
    lines.append("  * confirmed on fresh seeds. Holm's correction for the changes tested in each stage: the chance of"
                 " any false \"better\" or \"worse\" is at most 5 %.")
    return lines
