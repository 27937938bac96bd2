"""`python manage.py export_package SYSTEM SLUG --as battlescribe --out DIR [--zipped]`: a loaded package of any
game as BattleScribe data — a game system (.gst) and a catalogue (.cat), or zipped .gstz/.catz — that BattleScribe
and New Recruit open and that `import_package DIR` reads back to the same package (docs/data-packages.md
"BattleScribe data out")."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.selectors import package_battlescribe, packages_list
from cards.systems import SYSTEMS


class Command(BaseCommand):
    help = ("Write a loaded package as BattleScribe data (a .gst game system and a .cat catalogue) into a folder. "
            "Exits non-zero naming the unknown system or package, or the folder that cannot be written.")

    def add_arguments(self, parser):
        parser.add_argument("system", metavar="SYSTEM", help="the game: " + ", ".join(sorted(SYSTEMS)))
        parser.add_argument("slug", metavar="SLUG", help="the package's slug (python manage.py load_packages lists "
                                                         "the bundled ones)")
        parser.add_argument("--as", dest="kind", required=True, choices=["battlescribe"],
                            help="battlescribe: a .gst game system and a .cat catalogue")
        parser.add_argument("--out", required=True, metavar="DIR", help="the folder to write the files into "
                                                                        "(made if missing)")
        parser.add_argument("--zipped", action="store_true", help="write zipped .gstz/.catz files")

    def handle(self, *args, **options):
        system, slug = options["system"], options["slug"]
        if system not in SYSTEMS:
            raise CommandError(f"unknown game system {system!r}; known: {', '.join(sorted(SYSTEMS))}")
        files = package_battlescribe(system, slug, zipped=options["zipped"])
        if files is None:
            known = ", ".join(p.slug for p in packages_list(system).order_by("slug")) or "none loaded"
            raise CommandError(f"{system} has no package {slug!r} (loaded: {known})")
        out = Path(options["out"])
        try:
            out.mkdir(parents=True, exist_ok=True)
            for name, raw in files.items():
                (out / name).write_bytes(raw)
        except OSError as error:
            raise CommandError(f"{out}: cannot be written ({error.strerror or error})") from None
        for name, raw in files.items():
            self.stdout.write(f"{out / name}: {len(raw)} bytes")
