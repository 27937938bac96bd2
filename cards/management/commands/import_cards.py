"""`python manage.py import_cards FILE --system hagmi|mwda|warcaster --package SLUG [--dry-run]`: a sheet of
cards (CSV, TSV or .xlsx, one row per card; docs/data-packages.md "Spreadsheets") becomes the cards of a package."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.services import sheet_import
from cards.sheetfiles import SHEET_SUFFIXES, SheetError
from cards.systems import SYSTEMS

MAX_BYTES = 20 * 1024 * 1024


class Command(BaseCommand):
    help = ("Import a spreadsheet of cards (CSV, TSV or .xlsx) as the cards of a package. Every bad cell is listed "
            "with its row, column and value, and nothing is written; --dry-run shows what would change.")

    def add_arguments(self, parser):
        parser.add_argument("file", help=f"the sheet: {', '.join(SHEET_SUFFIXES)}")
        parser.add_argument("--system", required=True, choices=sorted(SYSTEMS), help="the game of the cards")
        parser.add_argument("--package", required=True, help="the package slug (a new slug makes a new package)")
        parser.add_argument("--dry-run", action="store_true", help="check and show the changes, write nothing")
        parser.add_argument("--package-version", dest="package_version",
                            help="the new version (default: the current one if no card changes, else today)")
        parser.add_argument("--title", help="the package's title (default: its current one, or the slug)")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_BYTES:
                raise CommandError(f"{path}: the file is larger than {MAX_BYTES} bytes")
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{path}: cannot read the file: {error.strerror or error}") from error
        try:
            report = sheet_import(raw, filename=str(path), system=options["system"], slug=options["package"],
                                  dry_run=options["dry_run"], version=options["package_version"],
                                  title=options["title"])
        except SheetError as error:
            raise CommandError(str(error)) from error
        for line in report.lines():
            self.stdout.write(line)
