"""`python manage.py event_export EVENT --as csv|json|pdf-pack [--output FILE] [--lang ja|en]` (docs/events.md
"Exports").

Writes an event's lists: `csv` one row per player (player, list, faction or main card, points/size, legal, errors,
verification code, submitted at; words in --lang), `json` every list (hangar.event-lists/1), `pdf-pack` one
printable sheet per page. EVENT is the event's id (its slug, as in /events/<id>/; one that begins with "-" goes
after `--`). Without --output the result goes
to standard output (a PDF only to a file or a pipe). The command line is the operator's: it reads every event.
Exit status 0, or 2 for an unknown event or a file that cannot be written.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from builder import event_exports
from builder.management.commands.check_list import bad_file, require_catalog_tables, write_output
from builder.models import Event


class Command(BaseCommand):
    help = "Export an event's lists as CSV, JSON (hangar.event-lists/1) or a PDF pack (one sheet per page)."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's id (as in /events/<id>/)")
        parser.add_argument("--as", dest="kind", required=True, choices=list(event_exports.EXPORT_KINDS),
                            help="csv (one row per player), json (every list) or pdf-pack (one sheet per page)")
        parser.add_argument("--output", "--out", dest="output", help="write to this file (default: standard output)")
        parser.add_argument("--lang", choices=["ja", "en"], default="en", help="the words of the CSV and the PDF")

    def handle(self, *args, **options):
        require_catalog_tables()
        slug, kind, lang = options["event"], options["kind"], options["lang"]
        event = Event.objects.select_related("system", "organiser").filter(slug=slug).first() \
            if isinstance(slug, str) and len(slug) <= 32 else None
        if event is None:
            raise bad_file(f"No event with id {str(slug)[:40]!r}: give the id from the event's address "
                           f"(/events/<id>/).")
        if kind == "csv":
            raw = event_exports.export_csv(event, lang=lang).encode("utf-8")
        elif kind == "json":
            raw = (json.dumps(event_exports.export_json(event), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        else:
            raw = event_exports.export_pdf_pack(event, lang=lang)
        write_output(self, raw, out=options["output"], kind=kind, binary=kind == "pdf-pack",
                     binary_refusal="A PDF is a binary file: give --output FILE (or redirect the output to a file).")
