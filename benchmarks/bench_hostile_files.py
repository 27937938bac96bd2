#!/usr/bin/env python3
"""Answer, time and peak memory of each hostile file (docs/benchmarks.md "Bounded work: files").

Run from the repository root:  python benchmarks/bench_hostile_files.py [--only NAME]
                               python benchmarks/bench_hostile_files.py --gunicorn [--code DIR] [--only NAME]

Writes each hostile input into a temporary folder — XML nested 2 000 deep (a .ros, a .gst), a zip of
50 members × 19 MB of zeros (deflate, 952 KB; bzip2, 8.5 KB; as BattleScribe data and inside a .rosz), an .xlsx whose dimension claims A1:XFD8000,
an .xlsx of 2 million shared strings — and hands each to the entry a user reaches, every case in a fresh Python
process (a fresh SQLite database in the temporary folder): POST /api/lists/import/ (signed in), `check_list`,
`export_list`, `import_package`, the staff import page's service (`battlescribe_preview`) and `sheet_import` (what
`import_cards` and the staff page call). Prints the answer (status, exit code or the error's first words), the wall
time of the call and the process's peak resident memory (ru_maxrss: C allocations of expat, zlib and openpyxl
included) above the process's size before the call.

`--gunicorn` sends the files over HTTP to the production-like stack instead: a scratch PostgreSQL database
(`--database`, created, migrated with the bundled packages, a staff and a normal user, dropped at the end), Redis
(`--cache-url`, one database, flushed) and gunicorn with deploy/gunicorn.conf.py (3 sync workers, DEBUG off; the
cookies without `Secure`, as there is no TLS on loopback), restarted for each case, run from `--code` (another
checkout, e.g. an older commit, with this venv). It signs in through the login page (CSRF token, cookies), posts the
file to POST /api/lists/import/ or to the staff page /data/import/ as its forms do, and prints the status, the JSON
error or the page's first problem, the wall time (every request bounded by `--timeout`), the largest increase of a
worker's VmHWM over the request (peak MB), the largest VmHWM, the slowest /api/ping/ meanwhile and /api/health/'s
status afterwards.
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


# --- --gunicorn: the same files over HTTP to gunicorn + PostgreSQL + Redis -------------------------------------

HTTP_CASES = {  # name → (file, who, entry)
    "deep .ros → POST /api/lists/import/": ("deep.ros", "user", "api"),
    ".rosz of 950 MB → POST /api/lists/import/": ("bomb.rosz", "user", "api"),
    "deep .gst → staff import page": ("deep.gst", "staff", "battlescribe"),
    "zip, 50 × 19 MB → staff import page": ("bomb.zip", "staff", "battlescribe"),
    "bzip2 zip, 50 × 19 MB → staff import page": ("bomb-bzip2.zip", "staff", "battlescribe"),
    ".xlsx A1:XFD8000 → staff import page": ("dimension.xlsx", "staff", "sheet"),
    ".xlsx, 2 M shared strings → staff import page": ("strings.xlsx", "staff", "sheet"),
}
PASSWORD = "bench-hostile-files-1"


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as connection:
        connection.execute(sql)


def _prepare_database(code: Path, env: dict[str, str], database: str) -> None:
    """A fresh scratch database: migrate, the bundled packages, a staff user and a normal user; the static files
    (DEBUG off: the pages need collectstatic's manifest)."""
    _admin_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    _admin_sql(f'CREATE DATABASE "{database}"')
    full = dict(os.environ, HANGAR_INSECURE_DEV_KEY="1", DEBUG="0", DJANGO_SETTINGS_MODULE="hangar.settings", **env)
    manage = [sys.executable, str(code / "manage.py")]
    for args in (["migrate", "--noinput"], ["load_packages"], ["collectstatic", "--noinput"]):
        subprocess.run(manage + args, env=full, check=True, cwd=code, stdout=subprocess.DEVNULL)
    users = ("from django.contrib.auth import get_user_model; U = get_user_model(); "
             f"U.objects.create_user('bench-staff', password='{PASSWORD}', is_staff=True); "
             f"U.objects.create_user('bench-user', password='{PASSWORD}')")
    subprocess.run(manage + ["shell", "-c", users], env=full, check=True, cwd=code, stdout=subprocess.DEVNULL)


class _Browser:
    """Cookies, the CSRF token and multipart posts over plain HTTP, as a browser sends them."""

    def __init__(self, base: str, timeout: float) -> None:
        import http.cookiejar
        import urllib.request

        self.base, self.timeout = base, timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((cookie.value for cookie in self.jar if cookie.name == "csrftoken"), "")

    def request(self, path: str, fields: dict[str, str] | None = None,
                files: dict[str, tuple[str, bytes]] | None = None, headers: dict[str, str] | None = None):
        """(status, content type, body); a refused request's answer, not an exception."""
        import urllib.error
        import urllib.request

        data, extra = None, dict(headers or {})
        if fields is not None or files:
            boundary = "----hangar-bench-" + os.urandom(8).hex()
            parts = []
            for name, value in (fields or {}).items():
                parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                             .encode())
            for name, (filename, raw) in (files or {}).items():
                parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                             f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
                             + raw + b"\r\n")
            data = b"".join(parts) + f"--{boundary}--\r\n".encode()
            extra.update({"Content-Type": f"multipart/form-data; boundary={boundary}", "X-CSRFToken": self.csrf(),
                          "Referer": self.base + path})
        request = urllib.request.Request(self.base + path, data=data, headers=extra)
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), error.read()

    def log_in(self, username: str) -> None:
        got = self.request("/accounts/login/")
        if got[0] != 200:
            raise SystemExit(f"the login page answered {got[0]}: {got[2][:300]!r}")
        status, _, body = self.request("/accounts/login/", {"csrfmiddlewaretoken": self.csrf(), "username": username,
                                                         "password": PASSWORD, "next": "/"})
        if not any(cookie.name == "sessionid" for cookie in self.jar):
            raise SystemExit(f"signing in as {username} failed (status {status}): {_first_words('', body)}"
                             f" {[cookie.name for cookie in self.jar]}")


def _first_words(kind: str, body: bytes) -> str:
    """The JSON error's code and message, or the page's first problem row (or its title)."""
    import html
    import json
    import re

    text = body.decode("utf-8", "replace")
    if "json" in kind:
        try:
            error = json.loads(text).get("error") or {}
        except (ValueError, AttributeError):
            return "JSON (unreadable)"
        return f"JSON {error.get('code', '')}: {error.get('message', '')}"
    found = re.search(r'id="import-problems".*?<tbody>(.*?)</tr>', text, re.S)
    if not found:
        found = re.search(r"<title>(.*?)</title>", text, re.S)
    words = html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))) if found else text[:80]
    return "HTML: " + " ".join(words.split())


def run_gunicorn(code: Path, paths: dict[str, Path], only: str | None, timeout: float, database: str,
                 cache_url: str) -> None:
    """Each case on a freshly started gunicorn (3 sync workers), so that VmHWM starts from the workers' size."""
    import threading
    import urllib.request

    from _server import high_water_kb, start_gunicorn, stop_gunicorn, worker_pids

    env = {"DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}", "CACHE_URL": cache_url,
           "CELERY_BROKER_URL": cache_url,
           # plain HTTP on loopback, no nginx in front: the cookies must travel without TLS
           "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0"}
    _prepare_database(code, env, database)
    log_path = Path(tempfile.gettempdir()) / f"{database}-gunicorn.log"
    log_path.write_bytes(b"")
    print(f"# gunicorn's log: {log_path}")
    print(f"# code: {code} ({subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=code, text=True, capture_output=True).stdout.strip()})")
    print(f"{'input → entry':<46} {'status':>6} {'s':>6} {'peak MB':>8} {'HWM MB':>7} {'ping':>6}  answer")
    try:
        for name, (file, who, entry) in HTTP_CASES.items():
            if only and only not in name:
                continue
            _flush_cache(cache_url)
            with open(log_path, "ab") as log:
                server, base = start_gunicorn(code, env, log=log)
            try:
                browser = _Browser(base, timeout)
                browser.log_in(f"bench-{who}")
                workers = worker_pids(server.pid)
                before = {pid: high_water_kb(pid) for pid in workers}
                pings, done = [], threading.Event()

                def ping() -> None:
                    while not done.is_set():
                        start = time.perf_counter()
                        try:
                            urllib.request.urlopen(f"{base}/api/ping/", timeout=timeout).read()
                            pings.append(time.perf_counter() - start)
                        except OSError:
                            pings.append(float("inf"))
                        time.sleep(0.1)

                pinger = threading.Thread(target=ping)
                pinger.start()
                raw = paths[file].read_bytes()
                start = time.perf_counter()
                try:
                    if entry == "api":
                        status, kind, body = browser.request("/api/lists/import/", {}, {"file": (file, raw)},
                                                             {"Accept": "application/json"})
                    elif entry == "battlescribe":
                        status, kind, body = browser.request(
                            "/data/import/", {"csrfmiddlewaretoken": browser.csrf(), "kind": "battlescribe"},
                            {"bs-files": (file, raw)})
                    else:
                        status, kind, body = browser.request(
                            "/data/import/", {"csrfmiddlewaretoken": browser.csrf(), "kind": "sheet",
                                              "sheet-system": "hagmi", "sheet-package": "bench"},
                            {"sheet-file": (file, raw)})
                    answer = _first_words(kind, body)
                except OSError as error:  # timed out, connection reset (a worker killed)
                    status, answer = "-", f"{type(error).__name__}: {error}"
                seconds = time.perf_counter() - start
                done.set()
                pinger.join()
                after = {pid: high_water_kb(pid) for pid in workers}
                health = browser.request("/api/health/")[0]
                alive = [pid for pid in workers if after[pid]]
                increase = max((after[pid] - before[pid] for pid in alive), default=0)
                slowest = max(pings, default=0.0)
                print(f"{name:<46} {status:>6} {seconds:>6.2f} {increase / 1024:>8.0f} "
                      f"{max(after.values(), default=0) / 1024:>7.0f} {slowest:>6.2f}  {answer[:160]} "
                      f"[health {health}; {len(alive)}/{len(workers)} workers alive]", flush=True)
            finally:
                stop_gunicorn(server)
    finally:
        _admin_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        _flush_cache(cache_url)


def _flush_cache(cache_url: str) -> None:
    """Empty only the benchmark's Redis database (the throttles' counters of the previous case)."""
    import redis

    redis.Redis.from_url(cache_url).flushdb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--gunicorn", action="store_true",
                        help="send the files over HTTP to gunicorn + PostgreSQL + Redis instead")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="with --gunicorn: the Django project gunicorn runs (default: this checkout)")
    parser.add_argument("--timeout", type=float, default=60.0, help="with --gunicorn: seconds per request")
    parser.add_argument("--database", default="hangar_bench_files",
                        help="with --gunicorn: the scratch PostgreSQL database (created, then dropped)")
    parser.add_argument("--cache-url", default="redis://127.0.0.1:6379/14",
                        help="with --gunicorn: the Redis database of the cache and broker (flushed)")
    parser.add_argument("--child", nargs=3, metavar=("ACTION", "PATH", "TMP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), Path(args.child[2]))
        return
    folder = Path(tempfile.mkdtemp(prefix="hangar-hostile-"))
    paths = make_files(folder)
    for name, path in sorted(paths.items()):
        print(f"# {name}: {path.stat().st_size / 1024:.1f} KB")
    if args.gunicorn:
        run_gunicorn(args.code.resolve(), paths, args.only, args.timeout, args.database, args.cache_url)
        return
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
