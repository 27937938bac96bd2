#!/usr/bin/env python3
"""Time the text list reader (builder.listio.parse_list_text) on bodies made to be slow (docs/benchmarks.md,
"Text import with many braces").

Run from the repository root:  python benchmarks/bench_text_import.py [--bytes N] [--repeat R] [--shape NAME ...]

Each shape is a body of about N bytes (default 2 MiB, the upload limit) of 4 000-character entry lines (the longest
line the reader reads) under one section header, read with a small catalog; prints the best wall time of R runs
(default 3) and the time per MB. Shapes:

  braces      1 x {"{{{{…{{}        many "{" on a line ending with "}" (13.8 s per 2 MB before)
  nested      1 x {"a":{"a":{…      objects nested as deep as a line allows, never closed
  quoted      1 x {"{":1,"{":1,…x}  braces inside strings, the last character wrong
  spaces      1 x a      …      }   a long run of spaces (regexes that backtrack on them)
  valid       1 Titan {"k": […]}    a long line with valid options (the work a real list costs)
  normal      2 補給物資             a normal list: 1 000 such lines (the most a list holds), not N bytes

Every body is refused (ListFormatError) except `valid` and `normal`; what is timed is reading it, collecting every
problem and writing the first 50 with their suggestions. Pure Python, no Django.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from builder.listio import MAX_ENTRIES, ListFormatError, parse_list_text  # noqa: E402
from rules_engine.core.catalog import Catalog  # noqa: E402

LINE = 4000  # builder.listio.text.MAX_LINE_LENGTH


def _line(shape: str) -> str:
    head = "1 x "
    room = LINE - len(head)
    if shape == "braces":
        return head + '{"' + "{" * (room - 3) + "}"
    if shape == "nested":
        return head + ('{"a":' * (room // 5)).ljust(room - 1, " ") + "}"
    if shape == "quoted":
        return head + "{" + ('"{":1,' * ((room - 3) // 6)) + "x}"
    if shape == "spaces":
        return head + "a" + " " * (room - 2) + "}"
    if shape == "valid":
        return "1 Titan " + '{"k": [' + ",".join(["1"] * ((LINE - 20) // 2)) + "]}"
    if shape == "normal":
        return "2 補給物資"
    raise ValueError(shape)


SHAPES = ("braces", "nested", "quoted", "spaces", "valid", "normal")


def body(shape: str, size: int) -> str:
    line = _line(shape)
    count = MAX_ENTRIES if shape == "normal" else max(1, size // (len(line.encode("utf-8")) + 1))
    return "System: hagmi\n[兵器]\n" + "\n".join([line] * count) + "\n"


def catalog() -> Catalog:
    cards = [{"code": f"HS-{i:03}", "name": name, "name_en": f"Card {i}", "category": "tactic", "frame": "blue"}
             for i, name in enumerate(["補給物資", "照明弾", "装甲改修", "急速展開", "迂回機動"], start=1)]
    cards.append({"code": "HS-100", "name": "Titan", "category": "unit", "frame": "black"})
    return Catalog.build("hagmi", cards, [])


def measure(text: str, repeat: int) -> tuple[float, str]:
    cat = catalog()
    best, outcome = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            doc = parse_list_text(text, lambda system: cat)
            outcome = f"read, {sum(len(entries) for entries in doc['sections'].values())} entries"
        except ListFormatError as error:
            outcome = f"refused, {error.total} problems"
        best = min(best, time.perf_counter() - start)
    return best, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bytes", type=int, default=2 * 1024 * 1024)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shape", action="append", choices=SHAPES, help="default: all")
    args = parser.parse_args()
    print(f"{'shape':<8} {'bytes':>9} {'lines':>6} {'best of ' + str(args.repeat):>12} {'s/MB':>8}  outcome")
    for shape in args.shape or SHAPES:
        text = body(shape, args.bytes)
        size = len(text.encode("utf-8"))
        seconds, outcome = measure(text, args.repeat)
        print(f"{shape:<8} {size:>9} {text.count(chr(10)) - 2:>6} {seconds:>10.3f} s {seconds / size * 1e6:>8.3f}  "
              f"{outcome}")


if __name__ == "__main__":
    main()
