"""Benchmark construction validation (rules_engine.construction.validate_list) on synthetic catalogs.

Run from the repository root:  python benchmarks/bench_validate.py [--runs N]
Prints the median and 95th percentile, in milliseconds, for a 200-card HAGMI deck, a 300-point MWDA army and a
Warcaster skirmish list. Target: median ≤ 0.5 ms each. Pure Python, no Django.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine.construction import validate_list  # noqa: E402
from rules_engine.core.catalog import Catalog  # noqa: E402


def hagmi_case() -> tuple[dict[str, Any], Catalog]:
    """A legal 200-card deck: 90 兵器 (45 names × 2), 90 作戦 (45 × 2), 11 damage, 9 秘策, from a 300-card catalog."""
    cards = (
        [{"code": f"HW-{i:03}", "name": f"兵装{i}", "category": "unit", "frame": "black", "cost": 1} for i in range(100)]
        + [{"code": f"HT-{i:03}", "name": f"作戦{i}", "category": "tactic", "frame": "blue", "cost": 1} for i in range(100)]
        + [{"code": f"HD-{i:03}", "name": f"損傷{i}", "category": "damage", "frame": "red"} for i in range(50)]
        + [{"code": f"HX-{i:03}", "name": f"秘{i}", "category": "design", "frame": "white"} for i in range(50)]
    )
    formats = [{"slug": "tactics-v4", "default": True, "options": {}}]
    sections = {
        "weapons": [{"card": f"HW-{i:03}", "qty": 2} for i in range(45)],
        "tactics": [{"card": f"HT-{i:03}", "qty": 2} for i in range(45)],
        "damage": [{"card": f"HD-{i:03}", "qty": 1} for i in range(11)],
        "secret": [{"card": f"HX-{i:03}", "qty": 1} for i in range(9)],
    }
    doc = {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "sections": sections}
    return doc, Catalog.build("hagmi", cards, formats)


def mwda_case() -> tuple[dict[str, Any], Catalog]:
    """A 300-point army of 12 units (one Mobile HQ, two uniques) from a 200-unit catalog."""
    cards = [
        {"code": f"MW-{i:03}", "name": f"Unit {i}", "kind": "mech", "points": 25, "faction": "republic",
         "unique": i % 10 == 0, "order_bonus": 1 if i == 43 else 0}
        for i in range(200)
    ]
    formats = [{"slug": "tournament-300", "default": True, "options": {"point_limit": 300}}]
    army = [{"card": f"MW-{i:03}", "qty": 1} for i in (0, 10, 43, 1, 2, 3, 4, 5)] + [{"card": "MW-006", "qty": 4}]
    doc = {"schema": "hangar.list/1", "system": "mwda", "format": "tournament-300", "sections": {"army": army}}
    return doc, Catalog.build("mwda", cards, formats)


def warcaster_case() -> tuple[dict[str, Any], Catalog]:
    """A legal skirmish list: 1 hero, 8 units incl. 2 warjacks with loadouts, 15 cyphers."""
    suits = ["fury", "geometric", "harmonic", "overdrive"]
    cards = (
        [{"code": "WC-H1", "name": "Hero", "kind": "hero", "faction": "marcher-worlds"}]
        + [{"code": f"WC-S{i}", "name": f"Squad {i}", "kind": "squad", "faction": "marcher-worlds"} for i in range(6)]
        + [{"code": "WC-J1", "name": "Jack", "kind": "warjack", "faction": "marcher-worlds", "weapon_points": 6}]
        + [{"code": "WC-C1", "name": "Cortex", "kind": "cortex", "faction": "marcher-worlds"}]
        + [{"code": f"WC-W{i}", "name": f"Gun {i}", "kind": "weapon", "faction": "marcher-worlds", "cost": 3} for i in range(3)]
        + [{"code": f"WC-Y{i:02}", "name": f"Cypher {i}", "kind": "cypher", "suit": suits[i % 4]} for i in range(40)]
    )
    formats = [{"slug": "skirmish", "default": True, "options": {"max_heroes": 1, "max_units": 8}}]
    loadout = {"cortex": "WC-C1", "weapons": ["WC-W0", "WC-W1"]}
    force = [{"card": "WC-H1", "qty": 1}] + [{"card": f"WC-S{i}", "qty": 1} for i in range(6)]
    force += [{"card": "WC-J1", "qty": 1, "options": loadout}, {"card": "WC-J1", "qty": 1, "options": loadout}]
    rack = [{"card": f"WC-Y{i:02}", "qty": 1} for i in range(15)]
    doc = {"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish",
           "sections": {"force": force, "rack": rack}}
    return doc, Catalog.build("warcaster", cards, formats)


def measure(run: Callable[[], Any], runs: int) -> tuple[float, float]:
    for _ in range(50):  # warm-up
        run()
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    return statistics.median(timings), timings[int(0.95 * (len(timings) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    runs = parser.parse_args().runs
    print(f"validate_list, {runs} runs each (target: median <= 0.5 ms)")
    for label, case in (
        ("HAGMI 200-card deck", hagmi_case),
        ("MWDA 300-point army", mwda_case),
        ("Warcaster skirmish list", warcaster_case),
    ):
        doc, catalog = case()
        result = validate_list(doc, catalog)
        errors = [v["code"] for v in result["violations"] if v["severity"] == "error"]
        assert not errors, f"{label}: the benchmark list should be legal, got {errors}"
        median, p95 = measure(lambda: validate_list(doc, catalog), runs)
        print(f"  {label:<26} median {median:.3f} ms   p95 {p95:.3f} ms")


if __name__ == "__main__":
    main()
