"""`python manage.py import_package PATH [PATH ...]`: import one data package file (docs/design.md §2.4), or
BattleScribe data — a .gst/.gstz game system with its .cat/.catz catalogues, as a folder, a .zip or several paths —
as a package (rules_engine.formats.battlescribe; docs/data-packages.md "BattleScribe data")."""
from django.core.management.base import BaseCommand, CommandError

from cards.services import PackageError, import_paths


class Command(BaseCommand):
    help = ("Import one hangar.package/1 file, or BattleScribe data (a folder, a .zip, or .gst/.gstz with .cat/.catz "
            "files). A bad file changes nothing and exits non-zero naming what was refused.")

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH",
                            help="a hangar.package/1 JSON file, or BattleScribe data (folder, .zip, .gst(z), .cat(z))")

    def handle(self, *args, **options):
        try:
            report = import_paths(options["paths"])
        except PackageError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(report)
