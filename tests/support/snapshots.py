"""Real HAGMI snapshots from the bundled package (cards/packages/hagmi), built without the database."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules_engine.simulation import build_snapshot

HAGMI_PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages" / "hagmi"


def bundled_hagmi_snapshot(list_name: str = "sample-vanguard", opponent: str = "goldfish",
                           policy: str = "greedy") -> dict[str, Any]:
    """A bundled sample list (cards/packages/hagmi/lists/<list_name>.json) against a bundled opponent."""
    package = json.loads((HAGMI_PACKAGES / "core.json").read_text(encoding="utf-8"))
    cards = {card["code"]: card for card in package["cards"]}
    found = next((row for row in package["opponents"] if row["slug"] == opponent), None)
    if found is None:
        raise ValueError(f"no bundled HAGMI opponent {opponent!r}")
    document = json.loads((HAGMI_PACKAGES / "lists" / f"{list_name}.json").read_text(encoding="utf-8"))
    return build_snapshot(document, cards, {"slug": opponent, **found}, policy=policy)


def bundled_hagmi_list(list_name: str = "sample-vanguard") -> dict[str, Any]:
    """A bundled sample list document (hangar.list/1)."""
    return json.loads((HAGMI_PACKAGES / "lists" / f"{list_name}.json").read_text(encoding="utf-8"))


def bundled_hagmi_catalog():
    """The bundled HAGMI package as the construction rules and the list doctor read it (a rules_engine Catalog)."""
    from rules_engine.core.catalog import Catalog

    package = json.loads((HAGMI_PACKAGES / "core.json").read_text(encoding="utf-8"))
    return Catalog.build("hagmi", package["cards"], package["formats"])
