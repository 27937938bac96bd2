"""`python manage.py check_data_source NAME [--import]`: check a registered data source for updates now, in this
shell (docs/data-packages.md "Data sources"), and print what changed; with --import, import an update found as the
package's next version. The same check and import as the staff page's buttons (cards.datasources)."""
from django.core.management.base import BaseCommand, CommandError

from cards import datasources
from cards.models import DataSource


class Command(BaseCommand):
    help = ("Check a registered BattleScribe data source for updates (fetched now: https only, bounded) and print "
            "what changed; --import imports an update as the package's next version.")

    def add_arguments(self, parser):
        parser.add_argument("name", help="the data source's name, as registered on the data import page")
        parser.add_argument("--import", action="store_true", dest="do_import",
                            help="import the update found as the package's next version")

    def handle(self, *args, **options):
        source = DataSource.objects.filter(name=options["name"]).first()
        if source is None:
            names = ", ".join(DataSource.objects.values_list("name", flat=True)) or "none"
            raise CommandError(f"no data source named {options['name']!r} (registered: {names})")
        source = datasources.source_check_now(source)
        for item in source.found:
            before = "-" if item["before"] is None else item["before"]
            now = "-" if item["revision"] is None else item["revision"]
            self.stdout.write(f"  {item['change']:8} {item['type']:10} {item['name']} ({item['file']}): "
                              f"revision {before} -> {now}")
        if source.status == DataSource.Status.FAILED:
            where = " ".join(f"{key}={source.error[key]}" for key in ("url", "file", "path", "id")
                             if source.error.get(key))
            raise CommandError(f"{source.name}: check failed ({source.error_code}): "
                               f"{source.error.get('message', '')}{' [' + where + ']' if where else ''}")
        if source.status == DataSource.Status.CURRENT:
            self.stdout.write(f"{source.name}: no update (package {source.package_slug})")
            return
        diff = source.preview["diff"]
        self.stdout.write(f"{source.name}: update for package {source.preview['package']['slug']} "
                          f"version {source.preview['package']['version']}: cards added {len(diff['added'])}, "
                          f"changed {len(diff['changed'])}, removed {len(diff['removed'])}")
        if not options["do_import"]:
            self.stdout.write("run again with --import to import it as the package's next version")
            return
        try:
            imported = datasources.source_import(source, sha256=source.pending_sha256)
        except datasources.ImportRefused as refused:
            problems = "; ".join(problem["message"] for problem in refused.problems)
            raise CommandError(f"{source.name}: import refused ({refused.reason}){': ' + problems if problems else ''}")
        self.stdout.write(imported.line())
