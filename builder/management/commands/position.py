"""`python manage.py position FILE [--json] [--play ID [ID ...]] [--simulate N --seed S [--policy P]]`
(docs/positions.md).

Loads the position (hangar.position/1) in FILE against the loaded catalog and prints its state and legal actions,
each with its stable id. `--play` applies action ids in order and prints the events they logged (in words; as
JSON with `--json`) and the resulting position. `--simulate N --seed S` plays N games on from the position (after
any `--play`) and prints the same summary as `simulate`. `--lang ja|en` chooses the words of the events.
Exit status: 0 done, 2 bad file, bad position or an action that is not legal (the message names the field).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from builder.management.commands.check_list import EXIT_BAD_FILE, require_catalog_tables
from builder.management.commands.simulate import describe
from builder.services.budget import COMMAND_MORE, run_budget
from builder.services.positions import MAX_POSITION_BYTES, PositionInvalid, position_analyse, position_read
from rules_engine.positions import MAX_POSITION_GAMES


def bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=EXIT_BAD_FILE)


def outline(value: Any, indent: str = "  ") -> list[str]:
    """A position's state as indented lines: one per field, short lists on one line."""
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item and not _short(item):
                lines.append(f"{indent}{key}:")
                lines.extend(outline(item, indent + "  "))
            else:
                lines.append(f"{indent}{key}: {_flat(item)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)) and not _short(item):
                lines.append(f"{indent}[{index}]")
                lines.extend(outline(item, indent + "  "))
            else:
                lines.append(f"{indent}[{index}] {_flat(item)}")
    return lines


def _short(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(item, (dict, list)) for item in value) and len(value) <= 30


def _flat(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flat(item) for item in value) + "]" if value else "none"
    if isinstance(value, dict):
        return "{}" if not value else json.dumps(value, ensure_ascii=False)
    if value is None:
        return "-"
    return str(value)


class Command(BaseCommand):
    help = "Show a position (hangar.position/1), play actions from it, or simulate games on from it."

    def add_arguments(self, parser):
        parser.add_argument("file", help="position file: hangar.position/1 JSON (docs/positions.md)")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument("--play", nargs="+", metavar="ID", default=[], help="action ids to play, in order")
        parser.add_argument("--simulate", type=int, metavar="N",
                            help=f"games to play on from the position (1..{MAX_POSITION_GAMES})")
        parser.add_argument("--seed", type=int, default=1, help="seed of the simulated games (default 1)")
        parser.add_argument("--policy", default="greedy", help="who plays both sides: greedy (default) or random")
        parser.add_argument("--lang", choices=["en", "ja"], default="en", help="language of the events in words")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_POSITION_BYTES:
                raise bad_input(f"{path}: larger than {MAX_POSITION_BYTES // 1024 // 1024} MB")
            raw = path.read_bytes()
        except OSError as error:
            raise bad_input(f"{path}: cannot be read ({error.strerror or error})") from None
        try:
            doc = position_read(raw, str(path))
        except PositionInvalid as error:
            raise bad_input(error.message) from None
        require_catalog_tables()
        try:
            result = position_analyse(doc, actions=options["play"], games=options["simulate"], seed=options["seed"],
                                      policy=options["policy"], budget=run_budget(), more=COMMAND_MORE)
        except PositionInvalid as error:
            raise bad_input(f"{path}: {error.message}") from None
        if options["json"]:
            shown = {key: result[key] for key in ("system", "position", "moves", "events", "over", "summary")}
            self.stdout.write(json.dumps(shown, ensure_ascii=False, indent=2))
            return
        with translation.override(options["lang"]):
            self.stdout.write("\n".join(self.words(result, played=bool(options["play"]))))

    def words(self, result: dict[str, Any], *, played: bool) -> list[str]:
        lines: list[str] = []
        if played:
            lines.append(f"Events ({len(result['events'])}):")
            lines.extend(f"  {line}" for line in event_lines(result))
            lines.append("")
        position = {key: value for key, value in result["position"].items() if key not in ("random", "list")}
        lines.append("Position:" if not played else "Position after the actions:")
        lines.extend(outline(position))
        lines.append("")
        if result["over"]:
            lines.append("The game is over: no legal actions.")
        else:
            lines.append(f"Legal actions ({len(result['moves'])}):")
            moves = action_lines(result)
            width = max(len(ident) for ident, _ in moves) if moves else 0
            lines.extend(f"  {ident:<{width}}  {words}" for ident, words in moves)
        if result["summary"] is not None:
            lines.append("")
            lines.append("Simulated on from here:")
            lines.extend(describe(result["summary"]))
        return lines


def event_lines(result: dict[str, Any]) -> list[str]:
    """The events as sentences (builder/web/gamereport.py, the replay page's words); a line per event."""
    from builder.services.positions import position_cards
    from builder.web import positionboard

    cards = position_cards(result["position"])
    names = positionboard.namer(result["system"], result["position"], result, cards)
    return positionboard.event_lines(result["system"], result, cards, names)


def action_lines(result: dict[str, Any]) -> list[tuple[str, str]]:
    """(id, the action in words) for each legal action."""
    from builder.services.positions import position_cards
    from builder.web import positionboard

    cards = position_cards(result["position"])
    names = positionboard.namer(result["system"], result["position"], result, cards)
    return [(move["id"], positionboard.action_words(result["system"], move["action"], names, result["position"],
                                                     result))
            for move in result["moves"]]
