"""`python manage.py import_package FILE`: import one data package file (DESIGN.md §2.4)."""
from django.core.management.base import BaseCommand, CommandError

from cards.services import PackageError, package_import_file


class Command(BaseCommand):
    help = "Import one hangar.package/1 file. A bad file changes nothing and exits non-zero listing every error."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a hangar.package/1 JSON file")

    def handle(self, *args, **options):
        try:
            report = package_import_file(options["file"])
        except PackageError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(report.line())
