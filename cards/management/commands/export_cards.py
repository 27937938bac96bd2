"""`python manage.py export_cards --system S --package SLUG [--format csv|tsv|xlsx] [--lang en|ja] [-o FILE]`: a
package's cards as a spreadsheet that import_cards reads back to the same cards (docs/data-packages.md)."""
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.services import PackageError, sheet_export, sheet_template
from cards.sheetfiles import SheetError
from cards.systems import SYSTEMS


class Command(BaseCommand):
    help = "Write a package's cards as a spreadsheet (one row per card), in English or Japanese column names."

    def add_arguments(self, parser):
        parser.add_argument("--system", required=True, choices=sorted(SYSTEMS))
        parser.add_argument("--package", help="the package slug (not with --template)")
        parser.add_argument("--template", action="store_true",
                            help="every column, with one example card of each kind from the bundled package")
        parser.add_argument("--format", dest="fmt", choices=("csv", "tsv", "xlsx"), default="csv")
        parser.add_argument("--lang", choices=("en", "ja"), default="en", help="the language of the column names")
        parser.add_argument("-o", "--output", help="the file to write (default: standard output; not for xlsx)")

    def handle(self, *args, **options):
        if options["template"] == bool(options["package"]):
            raise CommandError("give either --package SLUG or --template")
        try:
            if options["template"]:
                data = sheet_template(options["system"], fmt=options["fmt"], lang=options["lang"])
            else:
                data = sheet_export(options["system"], options["package"], fmt=options["fmt"], lang=options["lang"])
        except (PackageError, SheetError) as error:
            raise CommandError(str(error)) from error
        if options["output"]:
            Path(options["output"]).write_bytes(data)
        elif options["fmt"] == "xlsx":
            raise CommandError("an .xlsx workbook needs a file: give -o FILE")
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
