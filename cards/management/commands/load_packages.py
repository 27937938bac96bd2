"""`python manage.py load_packages`: load every bundled data package (docs/design.md §2.4); safe to run again."""
from django.core.management.base import BaseCommand, CommandError

from cards.services import PackageError, bundled_package_files, package_import_file


class Command(BaseCommand):
    help = "Load every bundled data package (cards/packages/<system>/*.json). Unchanged packages are skipped."

    def handle(self, *args, **options):
        files = bundled_package_files()
        if not files:
            self.stdout.write("No bundled packages found.")
            return
        for path in files:
            try:
                report = package_import_file(path)
            except PackageError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(report.line())
