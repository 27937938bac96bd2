#!/usr/bin/env python3
"""Time and memory of importing a spreadsheet of cards (docs/benchmarks.md "Spreadsheet import").

Run from the repository root:  python benchmarks/bench_sheet_import.py [--rows 2000] [--repeat 3]

Makes a HAGMI sheet of N rows (the bundled cards over and over with new codes, skills and all) as CSV and as .xlsx,
and times, in a fresh SQLite database in a temporary folder: `sheet_import` with --dry-run (read, check every row
alone and the package as a whole, diff) and for real (the same, then the package import), each against its
reference, `package_import` of the same cards as a JSON package (the work any package import does). Prints the best
wall time of R runs and the peak of Python allocations (tracemalloc) of one run.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="hangar-sheet-"))
    os.environ.update({"DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite3'}", "DEBUG": "1",
                       "HANGAR_INSECURE_DEV_KEY": "1", "DJANGO_SETTINGS_MODULE": "hangar.settings"})
    import django

    django.setup()
    from django.core.management import call_command

    from cards import sheetfiles, spreadsheet
    from cards.models import DataPackage
    from cards.selectors import catalog_forget
    from cards.package_validation import validator_for
    from cards.services import package_import, sheet_import

    call_command("migrate", verbosity=0)
    bundled = json.loads((ROOT / "cards" / "packages" / "hagmi" / "core.json").read_text(encoding="utf-8"))
    cards = []
    for index in range(args.rows):
        card = dict(bundled["cards"][index % len(bundled["cards"])])
        card["code"] = f"HX-{index + 1:05d}"
        cards.append(card)
    rows = spreadsheet.write_rows(cards, "hagmi", validator_for("hagmi").schema)
    files = {"csv": sheetfiles.write_file(rows, "csv"), "xlsx": sheetfiles.write_file(rows, "xlsx")}
    package = {"schema": "hangar.package/1", "system": "hagmi", "slug": "bench", "version": "1", "title": "bench",
               "cards": cards}
    cases = {"json package (reference)": lambda: package_import(package)}
    for fmt, raw in files.items():
        cases[f"{fmt} --dry-run"] = lambda raw=raw, fmt=fmt: sheet_import(
            raw, filename=f"bench.{fmt}", system="hagmi", slug="bench", dry_run=True)
        cases[f"{fmt} import"] = lambda raw=raw, fmt=fmt: sheet_import(
            raw, filename=f"bench.{fmt}", system="hagmi", slug="bench", version="1", title="bench")
    print(f"{args.rows} rows; csv {len(files['csv']) / 1e6:.2f} MB, xlsx {len(files['xlsx']) / 1e6:.2f} MB")
    print(f"{'case':<28} {'best s':>8} {'rows/s':>8} {'peak MB':>8}")
    for name, run in cases.items():
        best = float("inf")
        for _ in range(args.repeat + 1):  # the last run measures memory
            DataPackage.objects.all().delete()  # every case writes into an empty catalog (not timed)
            catalog_forget()
            if _ == args.repeat:
                tracemalloc.start()
                run()
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                break
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
        print(f"{name:<28} {best:>8.2f} {args.rows / best:>8.0f} {peak / 1e6:>8.1f}")


if __name__ == "__main__":
    main()
