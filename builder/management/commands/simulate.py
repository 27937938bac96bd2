"""`python manage.py simulate FILE --opponent SLUG --games N --seed S [--policy NAME] [--opponent-policy NAME]
[--seats both|list-first|random] [--workers K] [--json]` (docs/design.md §2.4), and
`python manage.py simulate --list-opponents SYSTEM`.

Plays the list in FILE (hangar.list/1 JSON, a BattleScribe roster or the text format) against a sample opponent of
the loaded catalog, in this process or in K local processes. The same seed gives the same summary, byte for byte,
whatever K is. Exit status: 0 done, 2 bad file or arguments (the message says which).

A **gauntlet**: several `--opponent SLUG[=WEIGHT]` and/or `--opponent-list FILE[=WEIGHT]` (any list
file, played by `--opponent-policy`), weights 1 unless given (a "meta": they are normalised), and/or `--field ID`
(a saved field's opponents with their weights, as `--user NAME` — or, without it, anyone with the link — sees it)
and/or `--event SLUG` (a tournament event's lists, each weighted by how many players brought it, once they are
shown to `--user`). It prints a row per
opponent (win rate, interval, game length) and the weighted total; each row is exactly the result of the plain run
against that opponent with the same seed.

`--seats` (rules_engine/core/seats.py): `both` (default) plays every deal twice, the list going first then second
(games 2d and 2d+1; an odd --games leaves the last deal with its list-first game only), `list-first` always gives
the list the first turn, `random` tosses a coin per game. The output gives the win rate going first and going
second, each with its 95 % interval, and who played each side.
"""
from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from builder import event_selectors, selectors
from builder.errors import ListNotFound, WorkOverBudget
from builder.management.commands.check_list import EXIT_BAD_FILE, read_list_file, require_catalog_tables
from builder.services.budget import COMMAND_MORE, check_run_work
from cards.models import Opponent
from cards.selectors import catalog_for
from cards.systems import SYSTEMS
from rules_engine.batch import MAX_LEGS, gauntlet_batch, gauntlet_result, run_batch
from rules_engine.core.seats import DEFAULT_SEATS, SEAT_MODES
from rules_engine.simulation import (
    MAX_GAMES,
    SimulationInputError,
    build_snapshot,
    check_list_size,
    check_run,
    simulate,
)
from rules_engine.systems import system as game_system


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
        parser.add_argument("--opponent", action="append", default=[], metavar="SLUG[=WEIGHT]",
                            help="opponent slug (see --list-opponents); give several, with weights, for a gauntlet")
        parser.add_argument("--opponent-list", action="append", default=[], metavar="FILE[=WEIGHT]",
                            help="a list file played as an opponent (by --opponent-policy): a gauntlet row")
        parser.add_argument("--games", type=int, default=1000, help=f"games to play (1..{MAX_GAMES}; default 1000)")
        parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
        parser.add_argument("--policy", default="greedy", help="the list's player: greedy (default), search (docs/simulations.md \"Search policy\") or random")
        parser.add_argument("--opponent-policy", default=None,
                            help="the other side's player, when a policy plays it (a deck, army or force): "
                                 "default the same as --policy")
        add_seats_argument(parser)
        parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        parser.add_argument("--list-opponents", metavar="SYSTEM", help="list the opponent slugs of a system")
        add_field_arguments(parser)

    def handle(self, *args, **options):
        if options["list_opponents"]:
            require_catalog_tables()
            return self.list_opponents(options["list_opponents"])
        if not options["file"]:
            raise bad_input("give a list FILE (or --list-opponents SYSTEM)")
        if not options["opponent"] and not options["opponent_list"] and not options["field"] \
                and not options["event"]:
            raise bad_input("--opponent is required (see --list-opponents SYSTEM), or --field ID or --event SLUG")
        if options["workers"] < 1:
            raise bad_input("--workers must be at least 1")
        document, catalog, opponents = read_run_inputs(options)
        policies = {"policy": options["policy"], "opponent_policy": options["opponent_policy"],
                    "seats": options["seats"]}
        gauntlet = len(opponents) > 1 or opponents[0][2] is not None or bool(options["opponent_list"]) \
            or bool(options["field"]) or bool(options["event"])
        try:
            if gauntlet:
                batch = gauntlet_batch([(key, 1.0 if weight is None else weight, build_snapshot(document, catalog.cards, opponent, **policies))
                                        for key, opponent, weight in opponents])
                for leg in batch["legs"]:  # a list past every format is refused as such, before its cost
                    check_list_size(leg["snapshot"])
                check_run_work(batch, options["games"], more=COMMAND_MORE)
                result = gauntlet_result(batch, run_batch(batch, games=options["games"], seed=options["seed"],
                                                          workers=options["workers"]),
                                         games=options["games"], seed=options["seed"])
            else:
                snapshot = build_snapshot(document, catalog.cards, opponents[0][1], **policies)
                check_run(snapshot, games=options["games"], seed=options["seed"])  # the list's size first
                check_run_work(snapshot, options["games"], more=COMMAND_MORE)
                result = simulate(snapshot, games=options["games"], seed=options["seed"], workers=options["workers"])
        except SimulationInputError as error:
            raise bad_input(f"{options['file']}: {error}") from None
        except WorkOverBudget as error:
            raise bad_input(f"{options['file']}: {error.message}") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(describe_gauntlet(result) if gauntlet else describe(result)))

    def list_opponents(self, system: str) -> None:
        rows = Opponent.objects.filter(system__slug=system).order_by("slug")
        if not rows.exists():
            raise bad_input(f"no opponents loaded for {system!r} (systems: {', '.join(SYSTEMS)})")
        for row in rows:
            kind = row.data.get("kind", "")
            self.stdout.write(f"{row.slug:<28} {kind:<10} {row.name}")


def add_seats_argument(parser) -> None:
    """--seats both|list-first|random (simulate and doctor); a bad value exits 2 naming the choices."""
    parser.add_argument("--seats", default=DEFAULT_SEATS, choices=SEAT_MODES,
                        help="who takes the first turn: both (default: every deal played twice, going first then "
                             "second; an odd --games leaves the last deal with its list-first game only), "
                             "list-first, or random (a coin toss per game). No effect against 機獣 (co-op: the "
                             "players always go first) or a goldfish (it takes no turns)")


def read_run_inputs(options) -> tuple[dict, object, list[tuple[str, dict, float | None]]]:
    """The list file (a bad file is refused first, with or without a database), its system's catalog and the
    opponents of --opponent and --opponent-list (simulate and doctor)."""
    document = read_list_file(Path(options["file"]))
    require_catalog_tables()
    system = document["system"]
    catalog = catalog_for(system)
    if catalog is None:
        raise bad_input(f"no {system} catalog is loaded: run `python manage.py load_packages` first")
    opponents = gauntlet_opponents(system, catalog, options["opponent"], options["opponent_list"])
    if options.get("field"):
        opponents = field_opponents_of(system, catalog, options["field"], options.get("user"), opponents)
    if options.get("event"):
        opponents = event_opponents_of(system, catalog, options["event"], options.get("user"), opponents)
    return document, catalog, opponents


def add_field_arguments(parser) -> None:
    """--field ID, --event SLUG [--user NAME] (simulate, doctor, impact, matchups): a field's opponents, an event's
    lists, as that player may see them."""
    parser.add_argument("--field", metavar="ID", help="a field's id: its opponents, with their weights, after any "
                        "--opponent and --opponent-list (as anyone with its link sees it, or as --user)")
    parser.add_argument("--event", metavar="SLUG", help="a tournament event's id: each distinct list its players "
                        "submitted, weighted by how many brought it, after the other opponents; only once its lists "
                        "are shown to --user (the organiser: always)")
    parser.add_argument("--user", metavar="NAME", help="with --field or --event: the player whose field, lists or "
                        "event may be used (default: none, so only an unlisted or public field and its shared lists, "
                        "or an open event's shown lists)")


def command_user(username: str | None, option: str = "--user"):
    """The player named by --user, or None without it; an unknown name exits 2."""
    if not username:
        return None
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise bad_input(f"{option}: no player {username!r}")
    return user


def event_opponents_of(system: str, catalog, slug: str, username: str | None,
                       found: list[tuple[str, dict, float | None]]) -> list[tuple[str, dict, float | None]]:
    """`found` and then the lists of event `slug`'s field (builder.event_selectors.event_field: each distinct list
    submitted, weighted by how many players brought it) as (key, opponent, weight), when `username` (or, without
    it, anyone) may see the event's lists; otherwise, another game's event or an event with no list, exits 2."""
    user = command_user(username)
    who = f"{username} may" if username else "anyone may"
    try:
        event = event_selectors.event_get(slug=slug, user=user)
    except ListNotFound:
        event = None
    if event is None or not event_selectors.event_lists_visible(event, user):
        raise bad_input(f"--event: no event {slug!r} whose lists {who} see (an event's lists are shown when its "
                        "organiser publishes them)")
    if event.system.slug != system:
        raise bad_input(f"--event {slug}: a {event.system.slug} event cannot play a {system} list")
    entries = event_selectors.event_field(event, user=user)
    if not entries:
        raise bad_input(f"--event {slug}: no list has been submitted to this event")
    if len(found) + len(entries) > MAX_LEGS:  # the site plays the most brought lists; a command plays all or none
        besides = f" and the {len(found)} other opponents" if found else ""
        raise bad_input(f"--event {slug}: its {len(entries)} lists{besides} are more than the {MAX_LEGS} opponents a "
                        "run may play (the site plays the lists brought by most players)")
    rows = list(found)
    for entry in entries:
        for card in (item["card"] for items in entry["document"]["sections"].values() for item in items):
            if card not in catalog.cards:
                raise bad_input(f"--event {slug}: list {entry['name']!r} has card {card!r}, not in the {system} "
                                "catalog")
        rows.append((entry["key"], game_system(system).list_opponent(entry["document"], slug=entry["key"],
                                                                     name=entry["name"]), float(entry["weight"])))
    return rows


def field_opponents_of(system: str, catalog, field_id: str, username: str | None,
                       found: list[tuple[str, dict, float | None]]) -> list[tuple[str, dict, float | None]]:
    """`found` and then the entries of field `field_id` that the player `username` (or anyone with the link) may
    see, each as (key, opponent, weight); a field or list they may not see, or another game's, exits 2."""
    user = command_user(username)
    try:
        field = selectors.field_get(slug=field_id, user=user)
    except ListNotFound:
        who = f"that {username} may see" if username else "shared by its link"
        raise bad_input(f"--field: no field {field_id!r} {who}") from None
    if field.system.slug != system:
        raise bad_input(f"--field {field_id}: a {field.system.slug} field cannot play a {system} list")
    entries = selectors.field_opponents(field, user=user)
    if not entries:
        raise bad_input(f"--field {field_id}: no opponent of this field may be played")
    rows = list(found)
    for entry in entries:
        if "opponent" in entry:
            rows.append((entry["opponent"], opponent_data(system, entry["opponent"]), entry["weight"]))
            continue
        game_list = selectors.list_get(slug=entry["list"], user=user)
        document = selectors.list_document(game_list)
        for card in (item["card"] for items in document["sections"].values() for item in items):
            if card not in catalog.cards:
                raise bad_input(f"--field {field_id}: list {entry['list']} has card {card!r}, not in the {system} "
                                "catalog")
        key = f"list:{entry['list']}"
        rows.append((key, game_system(system).list_opponent(document, slug=key, name=game_list.name or key),
                     entry["weight"]))
    keys = [key for key, _, _ in rows]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise bad_input(f"--field {field_id}: {', '.join(twice)} given twice")
    return rows


def gauntlet_opponents(system: str, catalog, opponents: list[str], lists: list[str]) -> list[tuple[str, dict, float | None]]:
    """(key, opponent, weight or None) of every --opponent and --opponent-list, in the order given (simulate and
    doctor)."""
    found: list[tuple[str, dict, float | None]] = []
    for given in opponents:
        slug, weight = split_weight(given, "--opponent")
        found.append((slug, opponent_data(system, slug), weight))
    for given in lists:
        path, weight = split_weight(given, "--opponent-list", path=True)
        document = read_list_file(Path(path))
        if document["system"] != system:
            raise bad_input(f"--opponent-list {path}: a {document['system']} list cannot play a {system} list")
        for position, entry in enumerate(entry for entries in document["sections"].values() for entry in entries):
            if entry["card"] not in catalog.cards:
                raise bad_input(f"--opponent-list {path}: card {entry['card']!r} is not in the {system} catalog")
        key = f"list:{Path(path).stem}"
        opponent = game_system(system).list_opponent(document, slug=key, name=document.get("name") or "")
        found.append((key, opponent, weight))
    keys = [key for key, _, _ in found]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise bad_input(f"--opponent: {', '.join(twice)} given twice")
    return found


def split_weight(given: str, option: str, *, path: bool = False) -> tuple[str, float | None]:
    """"SLUG=0.3" → ("SLUG", 0.3); "SLUG" → ("SLUG", None). For a file, "=" belongs to the name unless what follows
    the last "=" is a number."""
    name, sep, weight = given.rpartition("=")
    if not sep:
        return given, None
    try:
        value = float(weight)
    except ValueError:
        if path:
            return given, None
        raise bad_input(f"{option} {given}: the weight after '=' must be a number, got {weight!r}") from None
    if not 0 <= value < float("inf") or value != value:
        raise bad_input(f"{option} {given}: the weight must be a number ≥ 0")
    return name, value



def opponent_label(key: str, name: str | None) -> str:
    """How the text output names an opponent: its key (a sample opponent's slug, `list:<file or id>`), but a list
    of an event's field by its name (its key, `event:<event>:<digest>`, means nothing to a reader)."""
    return f"{name or key} (event)" if key.startswith("event:") else key


def describe_gauntlet(result: dict) -> list[str]:
    """A gauntlet in plain words: a row per opponent and the weighted total."""
    policy = result["policy"] + (f" vs {result['opponent_policy']}" if result.get("opponent_policy") else "")
    lines = [f"{result['system']} gauntlet ({policy}), {result['games']} games per opponent, seed {result['seed']},"
             f" engine {result['engine_version']}"]
    first = next((row["result"] for row in result["opponents"] if "seats" in row.get("result", {})), None)
    if first is not None:
        lines.append("  " + seats_line(first))
    unit = result["total"]["length"]["unit"]
    for row in result["opponents"]:
        low, high = row["win_rate_interval"]
        length = row["length"]["mean"]
        label = opponent_label(row["key"], row.get("name"))
        lines.append(f"  {label:<28} weight {row['weight']:.2f}  win rate {row['win_rate']:.1%}"
                     f" ({low:.1%}-{high:.1%})  {unit} {length:.1f}" if length is not None else
                     f"  {label:<28} weight {row['weight']:.2f}  win rate {row['win_rate']:.1%} ({low:.1%}-{high:.1%})")
        if "seats" in row.get("result", {}):
            lines.append(f"  {'':<28} {seat_rates(row['result']['seats'])}")
    low, high = result["total"]["win_rate_interval"]
    lines.append(f"  {'weighted total':<28}               win rate {result['total']['win_rate']:.1%} ({low:.1%}-{high:.1%})")
    return lines


def describe(result: dict) -> list[str]:
    """The summary in plain words."""
    low, high = result.get("win_rate_interval", [0, 0])
    lines = [
        f"{result['system']} vs {result['opponent']} ({result['policy']}), {result['games']} games, seed {result['seed']},"
        f" engine {result['engine_version']}",
        f"  win rate {result['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}):"
        f" {result['wins']} won, {result['losses']} lost, {result['draws']} drawn",
    ]
    if "seats" in result:
        lines.append("  " + seat_rates(result["seats"]))
        lines.append("  " + seats_line(result))
    for key, value in result.items():
        if isinstance(value, dict) and "mean" in value and value["mean"] is not None:
            lines.append(f"  {key.replace('_', ' ')}: mean {value['mean']:.2f}")
    if result.get("ended_by"):
        lines.append("  ended by: " + ", ".join(f"{reason} {count}" for reason, count in result["ended_by"].items()))
    return lines


def seat_rates(seats: dict) -> str:
    """"going first 55.0% (48.1%-61.7%, 250 games), going second ..." ("no games" for an empty seat)."""
    parts = []
    for seat in ("first", "second"):
        block = seats[seat]
        if block["games"]:
            low, high = block["win_rate_interval"]
            parts.append(f"going {seat} {block['win_rate']:.1%} ({low:.1%}-{high:.1%}, {block['games']} games)")
        else:
            parts.append(f"going {seat}: no games")
    return ", ".join(parts)


def seats_line(result: dict) -> str:
    """The seat mode (or why the order is fixed) and who played each side."""
    seats = result["seats"]
    if not seats["applies"]:
        mode = ("order fixed by the rules (the players always go first)" if seats["fixed_by"] == "rules"
                else "order fixed (the opponent takes no turns)")
    elif seats["mode"] == "both":
        mode = f"seats: both ({seats['pairs']} deals played going first and going second)"
    else:
        mode = f"seats: {seats['mode']}"
    policies = result.get("policies") or {}
    return (f"{mode}; list played by {policies.get('list')}, opponent by "
            f"{policies.get('opponent') or 'the rules'}")
