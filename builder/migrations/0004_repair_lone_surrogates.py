"""Repair lists stored with lone surrogates (docs/security.md, "Text that cannot be stored").

Before the fix, a JSON "\\udfff" escape in an entry's options reached the database: on SQLite a JSON column stores
it escaped, so the list, its entries and revision 1 were committed, and from then on every page and API answer
showing them failed (a lone surrogate cannot be encoded as UTF-8). The readers refuse such text now; this replaces
each lone surrogate still stored (in a string or a key) with U+FFFD, the replacement character, so those lists can
be shown, exported and edited again. A card code repaired this way is unknown to the catalog (validation reports
list.unknown_card), as any unknown code is.

What can hold one: the JSON columns ListEntry.options, ListRevision.document and GameList.validation (text columns
cannot: SQLite's driver refuses to write the string, so such a write failed and was rolled back). PostgreSQL never
stored any (jsonb refuses a lone surrogate escape), so there is nothing to scan there. Simulation runs are left
alone: a run's snapshot is hashed as UTF-8 before it is written, so a snapshot holding one was never stored.
Self-contained on purpose (a migration must not change when the app's code does); running it again changes nothing.
"""
import re

from django.db import migrations

SURROGATES = re.compile("[\ud800-\udfff]")
BATCH = 500


def repaired(value):
    """`value` with every lone surrogate in a string or key replaced by U+FFFD (keys that become equal: the last
    one wins, as in any JSON object with a repeated key)."""
    if isinstance(value, str):
        return SURROGATES.sub("\ufffd", value)
    if isinstance(value, list):
        return [repaired(item) for item in value]
    if isinstance(value, dict):
        return {repaired(key): repaired(item) for key, item in value.items()}
    return value


def _repair(model, fields):
    changed = 0
    rows = model.objects.only("pk", *fields).order_by("pk").iterator(chunk_size=BATCH)
    for row in rows:
        updates = {}
        for name in fields:
            value = getattr(row, name)
            fixed = repaired(value)
            if fixed != value:
                updates[name] = fixed
        if updates:
            model.objects.filter(pk=row.pk).update(**updates)
            changed += 1
    return changed


def repair_lone_surrogates(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        return  # jsonb and text columns refuse lone surrogates: none can be stored
    for model_name, fields in (
        ("GameList", ("name", "notes", "format", "validation")),
        ("ListEntry", ("section", "card", "options")),
        ("ListRevision", ("document", "notes")),
    ):
        _repair(apps.get_model("builder", model_name), fields)


class Migration(migrations.Migration):

    dependencies = [
        ("builder", "0003_simulationrun_chunk_size"),
    ]

    operations = [
        migrations.RunPython(repair_lone_surrogates, migrations.RunPython.noop, elidable=True),
    ]
