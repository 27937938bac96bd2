"""The list editor's draft: one click (add, +, −, remove) applied to an unsaved hangar.list/1 document.

The draft travels in the editor form; nothing is saved until the user presses Save (services.list_update with the
version they edited). Pure functions: the document in, a new document out.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from builder.listio import MAX_QTY  # quantity 1..999 (docs/api.md limits)

OPS = ("add", "inc", "dec", "remove", "loadout")


class EditError(ValueError):
    """A click the editor cannot apply; the message says which button and why."""


@dataclass(frozen=True)
class Edit:
    op: str
    section: str
    card: str

    @classmethod
    def parse(cls, value: str) -> "Edit":
        """"add:weapons:HS-001" -> Edit("add", "weapons", "HS-001")."""
        parts = (value or "").split(":", 2)
        if len(parts) != 3 or parts[0] not in OPS or not parts[1] or not parts[2]:
            raise EditError(f"Unknown editor action {value!r}.")
        return cls(*parts)


def apply_loadout(document: dict[str, Any], edit: Edit, sections: list[str], cortex: str | None,
                  weapons: list[str]) -> dict[str, Any]:
    """A copy of `document` whose warjack entry `edit.card` carries {"cortex", "weapons"} options (W5 checks them).
    An empty choice removes that key; no cortex and no weapons removes the options."""
    if edit.section not in sections:
        raise EditError(f"No section {edit.section!r} in this list (sections: {', '.join(sections)}).")
    doc = copy.deepcopy(document)
    entries = doc.setdefault("sections", {}).setdefault(edit.section, [])
    entry = next((entry for entry in entries if entry.get("card") == edit.card), None)
    if entry is None:
        raise EditError(f"{edit.card} is not in {edit.section}.")
    options = {key: value for key, value in (entry.get("options") or {}).items() if key not in ("cortex", "weapons")}
    if cortex:
        options["cortex"] = cortex
    if weapons:
        options["weapons"] = list(weapons)
    if options:
        entry["options"] = options
    else:
        entry.pop("options", None)
    return doc


def apply_edit(document: dict[str, Any], edit: Edit, sections: list[str]) -> dict[str, Any]:
    """A copy of `document` with `edit` applied. Quantities stay within 1..MAX_QTY; 0 removes the entry."""
    if edit.section not in sections:
        raise EditError(f"No section {edit.section!r} in this list (sections: {', '.join(sections)}).")
    doc = copy.deepcopy(document)
    entries = doc.setdefault("sections", {}).setdefault(edit.section, [])
    index = next((i for i, entry in enumerate(entries) if entry.get("card") == edit.card), None)
    if edit.op == "add" and index is None:
        entries.append({"card": edit.card, "qty": 1})
        return doc
    if index is None:
        raise EditError(f"{edit.card} is not in {edit.section}.")
    entry = entries[index]
    qty = entry.get("qty") if isinstance(entry.get("qty"), int) else 1
    if edit.op in ("add", "inc"):
        entry["qty"] = min(MAX_QTY, qty + 1)
    elif edit.op == "dec" and qty > 1:
        entry["qty"] = qty - 1
    else:  # remove, or − on the last copy
        del entries[index]
    return doc
