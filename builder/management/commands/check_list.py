"""`python manage.py check_list FILE [--json] [--lang ja|en]` (docs/design.md §2.4).

FILE is a hangar.list/1 JSON file, a BattleScribe / New Recruit roster (.ros or .rosz, read against the imported
BattleScribe data), or a text list (.txt, or anything that is not JSON). Exit status:
0 legal, 1 illegal (the violations are printed), 2 unreadable or malformed file (the message names the file,
and the line for text lists).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.utils import DatabaseError

from builder.listio import ListFormatError, is_roster, parse_list_json, parse_list_text, parse_roster
from cards.selectors import catalog_for
from rules_engine.construction import validate_list

EXIT_ILLEGAL = 1
EXIT_BAD_FILE = 2
MAX_FILE_BYTES = 20 * 1024 * 1024


def bad_file(message: str) -> CommandError:
    return CommandError(message, returncode=EXIT_BAD_FILE)


def write_output(command, raw: bytes, *, out: str | None, kind: str, binary: bool, binary_refusal: str) -> None:
    """An export command's bytes: to the file `out` (a line on stderr says how many), else to standard output —
    text as text; `binary` bytes (a zip, a PDF) only to a file or a pipe, never to a terminal or a captured
    output, where `binary_refusal` says what to do instead (exit 2)."""
    if out:
        path = Path(out)
        try:
            path.write_bytes(raw)
        except OSError as error:
            raise bad_file(f"{path}: cannot be written ({error.strerror or error}).") from None
        command.stderr.write(f"{path}: {len(raw)} bytes ({kind})")
        return
    if not binary:
        command.stdout.write(raw.decode("utf-8"), ending="")
        return
    if command.stdout._out is not sys.stdout or sys.stdout.isatty():
        raise bad_file(binary_refusal)
    command.stdout.flush()
    sys.stdout.buffer.write(raw)
    sys.stdout.buffer.flush()


SET_UP = ("run `python3 dev.py run` once (it sets everything up), or `python manage.py migrate` then "
          "`python manage.py load_packages`")


def require_catalog_tables() -> None:
    """A clear error, not a database traceback, when the database has not been set up (the catalog's tables)."""
    from cards.models import Card, GameSystem, Opponent  # the apps are loaded by the time a command runs

    try:
        tables = set(connection.introspection.table_names())
    except DatabaseError as error:
        raise bad_file(f"the database cannot be read ({error}): {SET_UP}") from None
    missing = sorted({model._meta.db_table for model in (GameSystem, Card, Opponent)} - tables)
    if missing:
        raise bad_file(f"the database is not set up (no table {', '.join(missing)}): {SET_UP}")


def looks_like_json(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in {".json", ".txt"}:
        return suffix == ".json"
    return text.lstrip().startswith("{")


def read_list_file(path: Path) -> dict[str, Any]:
    """The normalised hangar.list/1 document in `path`, or a CommandError naming the file (and line)."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise bad_file(f"{path}: the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB.")
        raw = path.read_bytes()
        if is_roster(path.name):
            return _read_roster(path, raw)
        text = raw.decode("utf-8-sig")
    except FileNotFoundError:
        raise bad_file(f"{path}: no such file.") from None
    except IsADirectoryError:
        raise bad_file(f"{path}: is a directory, not a list file.") from None
    except OSError as error:
        raise bad_file(f"{path}: cannot be read ({error.strerror}).") from None
    except UnicodeDecodeError as error:
        raise bad_file(f"{path}: is not UTF-8 text (byte {error.start}).") from None
    try:
        if looks_like_json(path, text):
            return parse_list_json(text)
        require_catalog_tables()  # the text format names cards: reading it needs the catalog
        return parse_list_text(text, catalog_for)
    except ListFormatError as error:
        raise format_error(path, error) from None


def format_error(path: Path, error: ListFormatError) -> CommandError:
    """Every problem of an unreadable list file, one line each, prefixed by the file."""
    lines = [f"{path}: {issue.message}" for issue in error.issues]
    if error.total > len(error.issues):
        lines.append(f"{path}: ... and {error.total - len(error.issues)} more problems")
    return bad_file("\n".join(lines))


def _read_roster(path: Path, raw: bytes) -> dict[str, Any]:
    """A BattleScribe roster, read against the loaded BattleScribe data (the catalog)."""
    require_catalog_tables()
    try:
        return parse_roster(raw, catalog_for, filename=path.name)
    except ListFormatError as error:
        raise format_error(path, error) from None


def describe(path: Path, result: dict[str, Any]) -> list[str]:
    """The verdict and each violation in plain words."""
    severities = [violation["severity"] for violation in result["violations"]]
    errors, warnings = severities.count("error"), severities.count("warning")
    verdict = "LEGAL" if result["legal"] else "ILLEGAL"
    counts = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    lines = [f"{path}: {verdict} ({result['system']}, format {result['format'] or '-'}; {counts})"]
    for violation in result["violations"]:
        rule = violation["rule"] or "-"
        lines.append(f"  {violation['severity']:<7} {rule:<4} {violation['message']}  [{violation['code']}]")
    summary = ", ".join(f"{key} {value}" for key, value in result["summary"].items())
    if summary:
        lines.append(f"  summary: {summary}")
    return lines


class Command(BaseCommand):
    help = "Check a list file (hangar.list/1 JSON, a BattleScribe roster or the text format) against the loaded catalog."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a hangar.list/1 .json file, a BattleScribe .ros/.rosz roster or a .txt list")
        parser.add_argument("--json", action="store_true", help="print the validation result as JSON")
        parser.add_argument("--lang", choices=["ja", "en"], default="en", help="language of the messages")

    def handle(self, *args, **options):
        path = Path(options["file"])
        document = read_list_file(path)  # a bad file is refused first, with or without a database
        require_catalog_tables()
        catalog = catalog_for(document["system"])
        if catalog is None:
            raise bad_file(
                f"{path}: no cards are loaded for system {document['system']!r}; run `manage.py load_packages`."
            )
        result = validate_list(document, catalog, lang=options["lang"])
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            self.stdout.write("\n".join(describe(path, result)))
        if not result["legal"]:
            self.stdout.flush()
            sys.exit(EXIT_ILLEGAL)
