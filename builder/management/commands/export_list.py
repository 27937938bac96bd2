"""`python manage.py export_list FILE --as ros|rosz|text|json [--out PATH] [--lang ja|en]`.

Converts a list file of any accepted format (hangar.list/1 JSON, the text format, a BattleScribe .ros/.rosz roster)
into another: `ros`/`rosz` write a roster BattleScribe and New Recruit open (a list of any game, against the data
`export_package` writes, or a Warcaster list of cards imported from BattleScribe data, against that data), `text` the
readable text format (section headers in --lang), `json` hangar.list/1. Without --out the result goes to standard
output (a .rosz only to a file or a pipe: it is a zip). Exit status 0, or 2 for an unreadable file or a list that
cannot be written in that format (each card the catalog lacks named).
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from builder.listio import RosterExportError
from builder.management.commands.check_list import bad_file, read_list_file, require_catalog_tables, write_output
from builder.selectors import EXPORT_KINDS, list_export


class Command(BaseCommand):
    help = "Convert a list file (hangar.list/1 JSON, text or a BattleScribe roster) to ros, rosz, text or json."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a hangar.list/1 .json file, a BattleScribe .ros/.rosz roster or a .txt list")
        parser.add_argument("--as", dest="kind", required=True, choices=list(EXPORT_KINDS),
                            help="ros or rosz (BattleScribe / New Recruit roster), text or json (hangar.list/1)")
        parser.add_argument("--out", help="write to this file (default: standard output)")
        parser.add_argument("--lang", choices=["ja", "en"], default="en", help="section headers of the text format")

    def handle(self, *args, **options):
        path = Path(options["file"])
        document = read_list_file(path)
        kind = options["kind"]
        if kind != "json":
            require_catalog_tables()  # names, codes and BattleScribe ids come from the loaded catalog
        try:
            body = list_export(document, kind, lang=options["lang"])
        except RosterExportError as error:
            lines = [f"{path}: cannot be written as a BattleScribe roster:"]
            lines += [f"  {issue.message}" for issue in error.issues]
            raise bad_file("\n".join(lines)) from None
        raw = body.encode("utf-8") if isinstance(body, str) else body
        write_output(self, raw, out=options["out"], kind=kind, binary=kind == "rosz",
                     binary_refusal=f"{path}: a .rosz is a zip file: give --out PATH (or redirect the output to a "
                                    "file).")
