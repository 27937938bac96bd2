#!/usr/bin/env python3
"""Answer, time and peak memory of each hostile file (docs/benchmarks.md "Bounded work: files").

Run from the repository root:  python benchmarks/bench_hostile_files.py [--only NAME]

Writes each hostile input into a temporary folder — XML nested 2 000 deep (a .ros, a .gst), a zip of
50 members × 19 MB of zeros (deflate, 952 KB; bzip2, 8.5 KB; as BattleScribe data and inside a .rosz), an .xlsx whose dimension claims A1:XFD8000,
an .xlsx of 2 million shared strings — and hands each to the entry a user reaches, every case in a fresh Python
process (a fresh SQLite database in the temporary folder): POST /api/lists/import/ (signed in), `check_list`,
`export_list`, `import_package`, the staff import page's service (`battlescribe_preview`) and `sheet_import` (what
`import_cards` and the staff page call). Prints the answer (status, exit code or the error's first words), the wall
time of the call and the process's peak resident memory (ru_maxrss: C allocations of expat, zlib and openpyxl
included) above the process's size before the call.
"""
from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.hostile_files import GST_NS, ROS_NS, deep_xml, dimension_bomb, strings_bomb, zip_bomb  # noqa: E402


def make_files(folder: Path) -> dict[str, Path]:
    files = {"deep.ros": deep_xml("roster", ROS_NS), "deep.gst": deep_xml("gameSystem", GST_NS),
             "dimension.xlsx": dimension_bomb(), "strings.xlsx": strings_bomb()}
    paths = {}
    for name, raw in files.items():
        paths[name] = folder / name
        paths[name].write_bytes(raw)
    paths["bomb.zip"] = folder / "bomb.zip"
    zip_bomb(paths["bomb.zip"])
    paths["bomb-bzip2.zip"] = folder / "bomb-bzip2.zip"
    zip_bomb(paths["bomb-bzip2.zip"], method=zipfile.ZIP_BZIP2)
    paths["bomb.rosz"] = folder / "bomb.rosz"
    zip_bomb(paths["bomb.rosz"], members=1, size=950 * 1024 * 1024, suffix=".ros")
    return paths


CASES = {
    "deep .ros → POST /api/lists/import/": "api_ros:deep.ros",
    "deep .ros → check_list": "check_list:deep.ros",
    "deep .ros → export_list": "export_list:deep.ros",
    "deep .gst → import_package": "import_package:deep.gst",
    "zip, 50 × 19 MB → import_package": "import_package:bomb.zip",
    "zip, 50 × 19 MB → staff import page": "preview:bomb.zip",
    "bzip2 zip, 50 × 19 MB → import_package": "import_package:bomb-bzip2.zip",
    "bzip2 zip, 50 × 19 MB → staff import page": "preview:bomb-bzip2.zip",
    ".rosz of 950 MB → POST /api/lists/import/": "api_ros:bomb.rosz",
    ".xlsx A1:XFD8000 → import_cards": "sheet:dimension.xlsx",
    ".xlsx, 2 M shared strings → import_cards": "sheet:strings.xlsx",
}


def child(action: str, path: Path, tmp: Path) -> None:
    """One case in this (fresh) process: prints answer, seconds, peak MB above the start."""
    os.environ.update({"DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite3'}", "DEBUG": "0", "ALLOWED_HOSTS": "*",
                       "HANGAR_INSECURE_DEV_KEY": "1", "DJANGO_SETTINGS_MODULE": "hangar.settings"})
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    call_command("migrate", verbosity=0)
    raw = path.read_bytes()
    client = None
    if action == "api_ros":
        from django.contrib.auth import get_user_model
        from django.test import Client

        user, _ = get_user_model().objects.get_or_create(username="bench")
        client = Client(raise_request_exception=False)
        client.force_login(user)
    warm_up(action, path.parent, client)  # imports and first-request work, so that only the file is measured
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    try:
        if action == "api_ros":
            response = client.post("/api/lists/import/", {"file": _named(raw, path.name)}, secure=True)
            kind = response.get("Content-Type", "")
            answer = f"{response.status_code} {'JSON' if 'json' in kind else kind.split(';')[0]}"
            if "json" in kind:
                answer += ": " + response.json().get("error", {}).get("message", "")
        elif action in ("check_list", "export_list"):
            args = [str(path)] + (["--as", "json"] if action == "export_list" else [])
            try:
                call_command(action, *args, stdout=io.StringIO())
                answer = "exit 0"
            except CommandError as error:
                answer = f"exit {error.returncode}: {error}"
        elif action == "import_package":
            try:
                call_command("import_package", str(path), stdout=io.StringIO())
                answer = "exit 0"
            except CommandError as error:
                answer = f"exit {error.returncode}: {error}"
        elif action == "preview":
            from cards.services import Upload, battlescribe_preview

            try:
                battlescribe_preview([Upload(path.name, raw)])
                answer = "preview shown"
            except Exception as error:  # the page shows the service's refusal
                answer = f"refused: {error}"
        elif action == "sheet":
            from cards.services import sheet_import

            try:
                sheet_import(raw, filename=path.name, system="hagmi", slug="bench", dry_run=True)
                answer = "read"
            except Exception as error:
                problems = getattr(error, "problems", None)
                answer = f"refused: {problems[0] if problems else error}"
        else:
            raise SystemExit(f"unknown action {action}")
    except BaseException as error:  # what a user sees before the fix: a traceback
        answer = f"traceback: {type(error).__name__}"
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    answer = " ".join(answer.replace(str(path.parent) + "/", "").split())
    print(f"{answer[:150]}\t{seconds:.2f}\t{(peak - before) / 1024:.0f}")


def warm_up(action: str, folder: Path, client) -> None:
    """The same entry once with a small bad file of the same kind (not measured)."""
    from django.core.management import call_command
    from django.core.management.base import CommandError

    small = folder / ("warm.xlsx" if action == "sheet" else "warm.zip" if action == "preview" else "warm.ros")
    small.write_bytes(b"PK\x03\x04 not a zip" if action in ("sheet", "preview") else b"<roster/>")
    try:
        if action == "api_ros":
            client.post("/api/lists/import/", {"file": _named(small.read_bytes(), small.name)}, secure=True)
        elif action in ("check_list", "export_list"):
            call_command(action, str(small), *(["--as", "json"] if action == "export_list" else []),
                         stdout=io.StringIO())
        elif action == "import_package":
            call_command("import_package", str(small.with_suffix(".gst")), stdout=io.StringIO())
        elif action == "preview":
            from cards.services import Upload, battlescribe_preview

            battlescribe_preview([Upload(small.name, small.read_bytes())])
        elif action == "sheet":
            from cards.services import sheet_import

            sheet_import(small.read_bytes(), filename=small.name, system="hagmi", slug="bench", dry_run=True)
    except (CommandError, Exception):  # the small file is refused: that is the point
        pass


def _named(raw: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--child", nargs=3, metavar=("ACTION", "PATH", "TMP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), Path(args.child[2]))
        return
    folder = Path(tempfile.mkdtemp(prefix="hangar-hostile-"))
    paths = make_files(folder)
    for name, path in sorted(paths.items()):
        print(f"# {name}: {path.stat().st_size / 1024:.1f} KB")
    print(f"{'input → entry':<44} {'s':>6} {'peak MB':>8}  answer")
    for name, spec in CASES.items():
        if args.only and args.only not in name:
            continue
        action, file = spec.split(":")
        tmp = Path(tempfile.mkdtemp(prefix="case-", dir=folder))
        done = subprocess.run([sys.executable, __file__, "--child", action, str(paths[file]), str(tmp)],
                              capture_output=True, text=True, cwd=ROOT)
        line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else f"crashed\t-\t-"
        answer, seconds, peak = (line.split("\t") + ["", ""])[:3]
        print(f"{name:<44} {seconds:>6} {peak:>8}  {answer}", flush=True)


if __name__ == "__main__":
    main()
