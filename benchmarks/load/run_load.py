#!/usr/bin/env python3
"""Load test: locust users against gunicorn + PostgreSQL + Redis + real Celery workers, on this machine.

    python3 benchmarks/load/run_load.py [--users 50] [--spawn-rate 10] [--duration 60]
        [--worker-class gthread|sync] [--workers N] [--threads 4] [--keep-alive 5] [--celery-concurrency 1]
        [--think 0.5:2.5] [--seed S] [--port P]

One command, from any folder, with only Python 3.11 (the stdlib) to start it:

1. makes benchmarks/load/.venv with the pinned benchmarks/load/requirements.txt (locust) if it is missing or stale;
2. drops and creates the PostgreSQL database `hangar_load` on 127.0.0.1:5432 (user postgres, trust auth), flushes
   Redis database 14 on 127.0.0.1:6379 (the broker, with a queue of its own, `hangar-load`);
3. with the project's .venv: `manage.py migrate`, `load_packages`, `collectstatic` (into a temporary STATIC_ROOT),
   and creates the accounts the signed-in locust users log in with (load000, load001, ... each with an API token);
4. starts `celery -A hangar worker` and gunicorn (2 gthread workers x 4 threads by default, with the production
   deploy/gunicorn.conf.py when it is there) with the production settings (DEBUG off), plus the environment a
   plain-HTTP test on 127.0.0.1 needs (ENVIRONMENT_NOTES below), and waits for /api/health/ to list the worker;
5. warms each gunicorn worker up, then runs locust headless (benchmarks/load/locustfile.py) for --duration seconds;
6. stops everything (process groups; always, also on Ctrl-C, SIGTERM or an error), then writes
   benchmarks/load/results/<timestamp>.md (the summary: throughput, p50/p95/p99 overall, per endpoint group and
   per request, the machine and its load) and results/<timestamp>/ (locust's CSV files, server logs,
   summary.json), and prints the summary and a last line `load-result: {json}`.

Exit status 0 only when every request got the status it expected (no failure, no 5xx, no 429), every simulation
started ended `done`, and no server error was logged. docs/benchmarks.md ("Load test") has the method and figures.
"""
from __future__ import annotations

import argparse
import datetime as dt
import fcntl
import json
import os
import platform
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
APP_PYTHON = ROOT / ".venv" / "bin" / "python"
APP_BIN = ROOT / ".venv" / "bin"
LOAD_VENV = HERE / ".venv"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"  # the production gunicorn settings (docs/deployment.md)
LOAD_REQUIREMENTS = HERE / "requirements.txt"
RESULTS = HERE / "results"

DB_NAME = "hangar_load"
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/14"
QUEUE = "hangar-load"
PASSWORD = "load-test-passphrase-7Qx!"  # the accounts exist only in the throwaway hangar_load database

# What a plain-HTTP production-like run on 127.0.0.1 needs, on top of the production defaults (DEBUG off):
ENVIRONMENT_NOTES = {
    "DEBUG": "0 (production settings)",
    "SECRET_KEY": "a fresh random key per run",
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0: no TLS terminator in front of gunicorn here (a proxy would do the redirect)",
    "SESSION_COOKIE_SECURE / CSRF_COOKIE_SECURE": "0: otherwise the client never sends the cookies back over http",
    "SECURE_HSTS_SECONDS": "0: no HSTS header on a plain-http host",
    "HANGAR_NUM_PROXIES": "0: no reverse proxy in front of gunicorn here",
    "HANGAR_THROTTLE_ANON": "off: all users come from ONE address (127.0.0.1), and anonymous throttling is per "
    "address; the per-user (1200/min), sign-up and simulation (30/min per user) throttles keep their defaults",
    "HANGAR_MAX_CONCURRENT_RUNS": "default (3); each simulating user waits for its run before starting another",
}


# --- small helpers ------------------------------------------------------------------------------------------


T0 = time.monotonic()


def log(message: str) -> None:
    print(f"[load {time.strftime('%H:%M:%S')} +{time.monotonic() - T0:5.1f}s] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def machine() -> dict:
    model = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    mem_kb = next((int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal")), 0)
    return {"cpu": model, "cores": os.cpu_count(), "memory_gib": round(mem_kb / 1024 / 1024, 1),
            "kernel": platform.release(), "python": platform.python_version()}


def run(args: list, *, env: dict | None = None, cwd: Path = ROOT) -> str:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(map(str, args))}")
    return proc.stdout


def ensure_locust_venv() -> Path:
    """benchmarks/load/.venv with exactly requirements.txt; re-made when the requirements changed."""
    stamp = LOAD_VENV / ".requirements"
    wanted = LOAD_REQUIREMENTS.read_text()
    locust = LOAD_VENV / "bin" / "locust"
    if locust.exists() and stamp.exists() and stamp.read_text() == wanted:
        return locust
    log(f"making the locust virtualenv {LOAD_VENV} (pinned {LOAD_REQUIREMENTS.name})")
    if LOAD_VENV.exists():
        shutil.rmtree(LOAD_VENV)
    run([sys.executable, "-m", "venv", LOAD_VENV])
    run([LOAD_VENV / "bin" / "python", "-m", "pip", "install", "-q", "-r", LOAD_REQUIREMENTS])
    stamp.write_text(wanted)
    return locust


def app_python(code: str, env: dict) -> str:
    """Run Python with the project's .venv (psycopg, redis, Django) and return its stdout."""
    return run([APP_PYTHON, "-c", code], env=env)


# --- the services -------------------------------------------------------------------------------------------


def prepare_services(env: dict) -> dict:
    """A fresh database and an empty broker database; returns the server versions."""
    code = f"""
import json, psycopg, redis
with psycopg.connect({PG_ADMIN_URL!r}, autocommit=True, connect_timeout=5) as conn:
    conn.execute('DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)')
    conn.execute('CREATE DATABASE {DB_NAME}')
    pg = conn.execute('SHOW server_version').fetchone()[0]
    max_conn = conn.execute('SHOW max_connections').fetchone()[0]
r = redis.Redis.from_url({REDIS_URL!r}, socket_timeout=5)
r.flushdb()
print(json.dumps({{"postgresql": pg, "max_connections": max_conn, "redis": r.info()["redis_version"]}}))
"""
    return {**json.loads(app_python(code, env)), **service_lives(env)}


def service_lives(env: dict) -> dict:
    """When PostgreSQL last started and Redis's run id: if either changes during the test, something restarted
    the service under the load (another job on the machine), and the run says so."""
    code = f"""
import json, psycopg, redis
try:
    with psycopg.connect({PG_ADMIN_URL!r}, autocommit=True, connect_timeout=5) as conn:
        pg = str(conn.execute('SELECT pg_postmaster_start_time()').fetchone()[0])
except Exception as exc:
    pg = f"down: {{exc}}"
try:
    rid = redis.Redis.from_url({REDIS_URL!r}, socket_timeout=5).info()["run_id"]
except Exception as exc:
    rid = f"down: {{exc}}"
print(json.dumps({{"postgresql_started": pg, "redis_run_id": rid}}))
"""
    return json.loads(app_python(code, env))


ACCOUNTS_CODE = """
import json, os
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from rest_framework.authtoken.models import Token
User = get_user_model()
hashed = make_password(os.environ["LOAD_PASSWORD"])  # hashed once: 50 PBKDF2 runs would take ~20 s
users = User.objects.bulk_create([
    User(username=f"load{i:03d}", email=f"load{i:03d}@example.org", password=hashed)
    for i in range(int(os.environ["LOAD_ACCOUNTS"]))
])
accounts = [{"username": u.username, "password": os.environ["LOAD_PASSWORD"], "token": Token.objects.create(user=u).key}
            for u in users]
with open(os.environ["LOAD_ACCOUNTS_FILE"], "w") as out:
    json.dump(accounts, out)
"""


def prepare_app(env: dict, accounts: int, accounts_file: Path) -> None:
    manage = [APP_PYTHON, "manage.py"]
    log("migrate, load_packages, collectstatic")
    run(manage + ["migrate", "--noinput", "-v0"], env=env)
    run(manage + ["load_packages"], env=env)
    run(manage + ["collectstatic", "--noinput", "-v0"], env=env)
    log(f"creating {accounts} accounts")
    run(manage + ["shell", "-c", ACCOUNTS_CODE],
        env={**env, "LOAD_PASSWORD": PASSWORD, "LOAD_ACCOUNTS": str(accounts),
             "LOAD_ACCOUNTS_FILE": str(accounts_file)})


class Processes:
    """Started in their own process groups; stopped (TERM, then KILL) whatever happens."""

    def __init__(self) -> None:
        self.started: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, args: list, *, env: dict, logfile: Path, cwd: Path = ROOT) -> subprocess.Popen:
        out = open(logfile, "ab")
        proc = subprocess.Popen([str(a) for a in args], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.started.append((name, proc))
        return proc

    def cpu_seconds(self) -> dict[str, float]:
        """user+system CPU seconds of each group so far (live processes, plus their reaped children)."""
        tick = os.sysconf("SC_CLK_TCK")
        totals: dict[str, float] = {}
        for name, proc in self.started:
            pgid = proc.pid
            total = 0
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[2]) == pgid:  # field 5 of /proc/pid/stat: the process group
                    total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
            totals[name] = round(total / tick, 1)
        return totals

    def stop(self, grace: float = 30) -> None:
        # SIGTERM to each group's leader only: gunicorn's master stops its workers gracefully and Celery's main
        # process does a warm shutdown (the chunk being played is finished and acknowledged); signalling the whole
        # group would kill Celery's pool processes mid-task. Whatever is left after 15 s gets SIGKILL, group-wide.
        for name, proc in reversed(self.started):
            if proc.poll() is None:
                try:
                    proc.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + grace
        for name, proc in reversed(self.started):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log(f"{name} did not stop within {grace:.0f} s of SIGTERM: SIGQUIT, then SIGKILL")
                try:
                    proc.send_signal(signal.SIGQUIT)  # Celery: cold shutdown
                    proc.wait(timeout=5)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
            try:  # the whole group, also children left behind
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self.started.clear()


def http_json(url: str, timeout: float = 5) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, {}
    except (OSError, ValueError):
        return 0, {}


def wait_healthy(base: str, procs: Processes, seconds: float = 60) -> dict:
    """/api/health/ answers 200 with the database and broker up and at least one worker."""
    deadline = time.monotonic() + seconds
    body: dict = {}
    while time.monotonic() < deadline:
        for name, proc in procs.started:
            if proc.poll() is not None:
                raise SystemExit(f"{name} exited with {proc.returncode} during start-up: see its log")
        status, body = http_json(base + "/api/health/")
        if status == 200 and isinstance(body.get("workers"), list) and body["workers"]:
            return body
        time.sleep(0.5)
    raise SystemExit(f"the site did not become healthy within {seconds} s: {body}")


def warm_up(base: str, workers: int) -> None:
    """Each gunicorn worker loads its catalogs and templates on first use: a few rounds of every page kind, so the
    measurement is of a running site, not of its start."""
    paths = ["/", "/catalog/hagmi/", "/catalog/mwda/", "/catalog/warcaster/", "/catalog/hagmi/HS-001/",
             "/api/systems/", "/api/cards/?system=mwda", "/lists/gallery/", "/api/ping/", "/rules/hagmi/"]
    for _ in range(workers * 4):
        for path in paths:
            try:
                urllib.request.urlopen(base + path, timeout=30).read()
            except OSError as error:
                raise SystemExit(f"warm-up GET {path} failed: {error}")


# --- results ------------------------------------------------------------------------------------------------


def read_csv(path: Path) -> list[dict]:
    import csv
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def fmt_ms(value) -> str:
    if value is None or value == "":
        return "–"
    value = float(value)
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}"


def database_report(env: dict) -> dict:
    code = """
import json
from django.db.models import Count
from builder.models import GameList, SimulationRun
runs = dict(SimulationRun.objects.values_list("status").annotate(n=Count("id")))
reused = SimulationRun.objects.filter(reused_from__isnull=False).count()
print(json.dumps({"runs": runs, "reused_runs": reused, "lists": GameList.objects.count()}))
"""
    try:
        return json.loads(run([APP_PYTHON, "manage.py", "shell", "-c", code], env=env).strip().splitlines()[-1])
    except SystemExit:
        return {}


def log_size(logfile: Path) -> int:
    return logfile.stat().st_size if logfile.exists() else 0


def server_errors(logfile: Path, upto: int | None = None) -> list[str]:
    """Lines of a server log that tell of an error (tracebacks, ERROR records), in its first `upto` bytes: what
    the servers logged while the users were on, not during the shutdown that follows."""
    if not logfile.exists():
        return []
    keep = []
    with open(logfile, "rb") as handle:
        text = handle.read(upto if upto is not None else -1).decode("utf-8", errors="replace")
    for line in text.splitlines():
        if "Traceback" in line or " ERROR" in line or "ERROR/" in line or "Internal Server Error" in line \
                or "CRITICAL" in line or "WORKER TIMEOUT" in line:
            keep.append(line.strip())
    return keep


def write_summary(ctx: dict) -> str:
    opts = ctx["options"]
    stats = ctx["stats"]
    extra = ctx["extra"]
    total = next((row for row in stats if row["Name"] == "Aggregated"), None)
    lines = [
        f"# Load test {ctx['stamp']}",
        "",
        f"Command: `{ctx['command']}`",
        "",
        f"- users: {opts.users} (spawn rate {opts.spawn_rate}/s), duration {opts.duration} s, think time "
        f"{opts.think} s between tasks",
        f"- gunicorn: {opts.workers} {opts.worker_class} workers × {opts.threads} threads, keep-alive "
        f"{opts.keep_alive} s{', deploy/gunicorn.conf.py' if GUNICORN_CONF.is_file() else ''}; Celery: 1 worker "
        f"process group, --concurrency {opts.celery_concurrency} (prefork), broker Redis db 14, queue `{QUEUE}`",
        f"- PostgreSQL {ctx['services'].get('postgresql')} (database `{DB_NAME}`), Redis "
        f"{ctx['services'].get('redis')}; locust {ctx['locust_version']}",
        f"- machine: {ctx['machine']['cpu']}, {ctx['machine']['cores']} cores, {ctx['machine']['memory_gib']} GiB, "
        f"Python {ctx['machine']['python']}; load average (1/5/15 min) before set-up {ctx['load_before']}, when "
        f"locust started {ctx['load_at_start']}, at its end {ctx['load_after']}",
        "",
        "## Overall",
        "",
        "| requests | failures | req/s | p50 ms | p95 ms | p99 ms | max ms |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    overall = extra.get("overall", {})
    if total:
        lines.append(
            f"| {total['Request Count']} | {total['Failure Count']} | {float(total['Requests/s']):.1f} | "
            f"{fmt_ms(overall.get('p50'))} | {fmt_ms(overall.get('p95'))} | {fmt_ms(overall.get('p99'))} | "
            f"{fmt_ms(total['Max Response Time'])} |"
        )
    steady = extra.get("steady") or {}
    if steady.get("count"):
        lines.append(
            f"| steady state: {steady['count']} sent from {steady['from_s']:.0f} s on | – | "
            f"{steady['requests_per_s']:.1f} | {fmt_ms(steady['p50'])} | {fmt_ms(steady['p95'])} | "
            f"{fmt_ms(steady['p99'])} | {fmt_ms(steady['max'])} |")
    lines += ["", "Percentiles are exact (every response time recorded by the locustfile), req/s is locust's "
              "(requests ÷ the time from the first to the last request, ramp-up included). Steady state: the "
              "requests sent from 5 s after the last user started (after the ramp-up's sign-ins — one PBKDF2 "
              "password check each — and every signed-in user's first lists).", ""]
    lines += ["## By endpoint group", "",
              "| group | requests | failures | req/s | p50 ms | p95 ms | p99 ms | steady p50 | steady p95 "
              "| steady p99 |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    seconds = extra.get("seconds") or 1
    for group, row in extra.get("groups", {}).items():
        st = row.get("steady") or {}
        lines.append(f"| {group} | {row['count']} | {row['failures']} | {row['count'] / seconds:.1f} | "
                     f"{fmt_ms(row['p50'])} | {fmt_ms(row['p95'])} | {fmt_ms(row['p99'])} | "
                     f"{fmt_ms(st.get('p50'))} | {fmt_ms(st.get('p95'))} | {fmt_ms(st.get('p99'))} |")
    anchor = (extra.get("groups", {}).get("anchor: GET /api/ping/") or {}).get("steady") or {}
    if anchor.get("p50") and steady.get("p50"):
        lines += ["", f"Anchor, steady state: the trivial `GET /api/ping/` (no authentication, no database) answered "
                  f"in p50 {fmt_ms(anchor['p50'])} ms / p95 {fmt_ms(anchor['p95'])} ms / p99 "
                  f"{fmt_ms(anchor['p99'])} ms under the same load; all requests' p50 is "
                  f"{steady['p50'] / anchor['p50']:.1f}× and p95 {steady['p95'] / anchor['p95']:.1f}× the anchor's."]
    sims = extra.get("simulations", {})
    if sims:
        lines += ["", "## Simulations", "",
                  f"{sims.get('started', 0)} runs started ({sims.get('reused', 0)} answered by an identical stored "
                  f"run), {sims.get('done', 0)} seen `done` by their user during the test, {sims.get('bad', 0)} "
                  f"failed or cancelled; games per run {sims.get('games_min')}–{sims.get('games_max')}. Time from "
                  f"POST to `done` as seen by the polling user (1 s polls): p50 {fmt_ms(sims.get('p50_ms'))} ms, "
                  f"p95 {fmt_ms(sims.get('p95_ms'))} ms, max {fmt_ms(sims.get('max_ms'))} ms.",
                  f"Database after the test: {json.dumps(ctx['database'].get('runs', {}))} runs "
                  f"(runs still queued/running were started in the last seconds and stopped with the workers)."]
    if extra.get("timeline"):
        lines += ["", "## Timeline", "", "Requests by the second they were sent in (the users start at "
                  f"{opts.spawn_rate:g} a second; sign-ins happen as they start):", "",
                  "| from s | requests | p50 ms | p95 ms | max ms |", "|---:|---:|---:|---:|---:|"]
        for row in extra["timeline"]:
            lines.append(f"| {row['from_s']} | {row['requests']} | {fmt_ms(row['p50'])} | {fmt_ms(row['p95'])} | "
                         f"{fmt_ms(row['max'])} |")
    lines += ["", "## Every request", "",
              "| type | name | requests | failures | req/s | p50 ms | p95 ms | p99 ms | max ms |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in stats:
        if row["Name"] == "Aggregated":
            continue
        lines.append(f"| {row['Type']} | `{row['Name']}` | {row['Request Count']} | {row['Failure Count']} | "
                     f"{float(row['Requests/s']):.1f} | {fmt_ms(row['50%'])} | {fmt_ms(row['95%'])} | "
                     f"{fmt_ms(row['99%'])} | {fmt_ms(row['Max Response Time'])} |")
    lines += ["", "(locust's per-request percentiles are rounded to 2 significant digits.)", "",
              "## CPU seconds used during the test", "",
              ", ".join(f"{name} {secs} s" for name, secs in ctx["cpu"].items())
              + f" (of {opts.duration * (ctx['machine']['cores'] or 1)} core-seconds; PostgreSQL and Redis not "
              "counted)",
              "", "## Failures", ""]
    if ctx["failures"]:
        lines += ["| method | name | error | occurrences |", "|---|---|---|---:|"]
        for row in ctx["failures"]:
            lines.append(f"| {row['Method']} | `{row['Name']}` | {row['Error'][:300]} | {row['Occurrences']} |")
    else:
        lines.append("None: every response had the expected status.")
    if ctx["server_errors"]:
        lines += ["", "Server log errors:", "", "```", *ctx["server_errors"][:40], "```"]
    if ctx["restarted"]:
        lines += ["", f"**{' and '.join(ctx['restarted'])} restarted during the test** (by another job on this "
                  "machine, not by this script): the failures around the restart say nothing about the load."]
    lines += ["", "## Settings", "", *(f"- `{k}`: {v}" for k, v in ENVIRONMENT_NOTES.items()), ""]
    lines.append(f"Verdict: **{'PASS' if ctx['ok'] else 'FAIL'}**")
    return "\n".join(lines) + "\n"


# --- main ---------------------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--spawn-rate", type=float, default=10)
    parser.add_argument("--duration", type=int, default=60, help="seconds of locust run (ramp-up included)")
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "sync"])
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn worker processes (default: cores for gthread, 2 x cores + 1 for sync)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (gthread; 1 for sync)")
    parser.add_argument("--keep-alive", type=int, default=5,
                        help="gunicorn keep-alive seconds (gthread); longer than the longest think time, see below")
    parser.add_argument("--celery-concurrency", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--think", default="0.5:2.5", help="think time between a user's tasks, MIN:MAX seconds")
    parser.add_argument("--seed", type=int, default=None, help="seed of the users' random choices (default: time)")
    parser.add_argument("--port", type=int, default=0, help="gunicorn port (default: a free one)")
    return parser.parse_args()


def main() -> int:
    options = parse_args()
    if not APP_PYTHON.exists():
        raise SystemExit(f"{APP_PYTHON} is missing: run `python3 dev.py test` (or `dev.py run`) once to make .venv")
    think_min, think_max = (float(x) for x in options.think.split(":"))
    cores = os.cpu_count() or 1
    if options.worker_class == "sync":
        options.threads = 1  # gunicorn silently turns "sync" with threads > 1 into gthread
    if options.workers is None:
        options.workers = 2 * cores + 1 if options.worker_class == "sync" else cores
    RESULTS.mkdir(parents=True, exist_ok=True)
    lock = open(RESULTS / ".lock", "w")
    try:  # one load test at a time: they would share the hangar_load database and Redis db 14
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise SystemExit("another run_load.py is running (benchmarks/load/results/.lock)") from None
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = RESULTS / stamp
    out_dir.mkdir(parents=True, exist_ok=True)
    load_before = loadavg()
    log(f"load average before start: {load_before}")
    locust = ensure_locust_venv()
    locust_version = run([locust, "--version"]).split()[1]

    tmp = Path(tempfile.mkdtemp(prefix="hangar-load-"))
    port = options.port or free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "HANGAR_", "CELERY_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="load_settings",
        PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT)]),
        HANGAR_LOAD_STATIC_ROOT=str(tmp / "static"),
        HANGAR_VAR_DIR=str(tmp / "var"),
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
        CONN_MAX_AGE="60",
        CELERY_BROKER_URL=REDIS_URL,
        HANGAR_CELERY_QUEUE=QUEUE,
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        HANGAR_NUM_PROXIES="0",  # clients talk to gunicorn directly: no proxy's X-Forwarded-* to trust
        HANGAR_THROTTLE_ANON="off",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    procs = Processes()
    interrupted = {"signal": None}

    def on_signal(signum, frame):
        if interrupted["signal"] is None:  # once: a second signal must not break the clean-up under way
            interrupted["signal"] = signum
            raise KeyboardInterrupt

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # SIGINT too: a background job ignores it
        signal.signal(signum, on_signal)
    ok = False
    try:
        log(f"fresh PostgreSQL database {DB_NAME}, Redis {REDIS_URL} flushed")
        services = prepare_services(env)
        accounts_file = tmp / "accounts.json"
        prepare_app(env, options.users, accounts_file)

        log(f"starting Celery (--concurrency {options.celery_concurrency}) and gunicorn ({options.workers} "
            f"{options.worker_class} workers × {options.threads} threads) on {base}")
        procs.start("celery", [APP_BIN / "celery", "-A", "hangar", "worker", "--concurrency",
                               options.celery_concurrency, "-Q", QUEUE, "-n", f"load-{os.getpid()}@%h",
                               "--loglevel", "WARNING"], env=env, logfile=out_dir / "celery.log")
        # The production settings file when there is one (timeouts, max_requests, tmp dir...), with the workers,
        # threads, keep-alive and address of this run given on the command line (which wins over the file).
        gunicorn = [APP_BIN / "gunicorn", *(["-c", GUNICORN_CONF] if GUNICORN_CONF.is_file() else []),
                    "hangar.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", options.workers,
                    "--worker-class", options.worker_class, "--threads", options.threads,
                    "--keep-alive", options.keep_alive, "--log-level", "warning", "--error-logfile", "-"]
        procs.start("gunicorn", gunicorn, env={**env, "GUNICORN_ACCESS_LOG": "0"}, logfile=out_dir / "gunicorn.log")
        health = wait_healthy(base, procs)
        log(f"healthy: {health}")
        warm_up(base, options.workers)
        cpu_start = procs.cpu_seconds()

        locust_env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "HANGAR_", "CELERY_"))},
            "HANGAR_LOAD_ACCOUNTS": str(accounts_file),
            "HANGAR_LOAD_USERS": str(options.users),
            "HANGAR_LOAD_PACKAGES": str(ROOT / "cards" / "packages"),
            "HANGAR_LOAD_THINK": f"{think_min}:{think_max}",
            "HANGAR_LOAD_EXTRA": str(out_dir / "extra.json"),
            "HANGAR_LOAD_SEED": str(options.seed if options.seed is not None else time.time_ns()),
        }
        load_at_start = loadavg()
        log(f"locust: {options.users} users, {options.duration} s (load average now {load_at_start})")
        locust_cmd = [locust, "-f", HERE / "locustfile.py", "--headless", "--users", options.users,
                      "--spawn-rate", options.spawn_rate, "--run-time", f"{options.duration}s", "--host", base,
                      "--csv", out_dir / "locust", "--only-summary", "--loglevel", "WARNING",
                      "--stop-timeout", "5"]
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        procs.start("locust", locust_cmd, env=locust_env, logfile=out_dir / "locust.log", cwd=HERE)
        locust_proc = procs.started[-1][1]
        locust_rc = locust_proc.wait(timeout=options.duration + 120)
        load_after = loadavg()
        log_ends = {name: log_size(out_dir / f"{name}.log") for name in ("gunicorn", "celery")}
        lives = service_lives(env)
        restarted = [name for name, key in (("PostgreSQL", "postgresql_started"), ("Redis", "redis_run_id"))
                     if lives[key] != services[key]]
        if restarted:
            log(f"WARNING: {' and '.join(restarted)} restarted during the test (not by this script): {lives}")
        cpu_end = procs.cpu_seconds()
        cpu = {name: round(cpu_end.get(name, 0) - cpu_start.get(name, 0), 1) for name in ("gunicorn", "celery")}
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # locust, reaped by wait(): its whole life
        cpu["locust"] = round(children_after.ru_utime + children_after.ru_stime
                              - children_before.ru_utime - children_before.ru_stime, 1)
        procs.stop()
        database = database_report(env)

        stats = read_csv(out_dir / "locust_stats.csv")
        failures = read_csv(out_dir / "locust_failures.csv")
        extra = json.loads((out_dir / "extra.json").read_text()) if (out_dir / "extra.json").exists() else {}
        errors = (server_errors(out_dir / "gunicorn.log", log_ends["gunicorn"])
                  + server_errors(out_dir / "celery.log", log_ends["celery"]))
        total = next((row for row in stats if row["Name"] == "Aggregated"), None)
        sims = extra.get("simulations", {})
        ok = (locust_rc == 0 and total is not None and int(total["Failure Count"]) == 0 and not failures
              and not errors and int(total["Request Count"]) > 0 and not sims.get("bad"))
        ctx = {
            "stamp": stamp, "options": options, "command": " ".join(["python3", "benchmarks/load/run_load.py",
                                                                       *sys.argv[1:]]),
            "services": services, "locust_version": locust_version, "machine": machine(),
            "load_before": load_before, "load_at_start": load_at_start, "load_after": load_after,
            "stats": stats, "failures": failures,
            "extra": extra, "cpu": cpu, "database": database, "server_errors": errors, "ok": ok,
            "restarted": restarted,
        }
        summary = write_summary(ctx)
        (RESULTS / f"{stamp}.md").write_text(summary, encoding="utf-8")
        print(summary)
        figures = {
            "ok": ok, "summary": str((RESULTS / f"{stamp}.md").relative_to(ROOT)), "users": options.users,
            "duration_s": options.duration, "requests": int(total["Request Count"]) if total else 0,
            "failures": int(total["Failure Count"]) if total else None,
            "requests_per_s": float(total["Requests/s"]) if total else None,
            "p50_ms": extra.get("overall", {}).get("p50"), "p95_ms": extra.get("overall", {}).get("p95"),
            "p99_ms": extra.get("overall", {}).get("p99"), "steady": extra.get("steady"),
            "load_average_at_start": load_at_start, "restarted": restarted,
        }
        (out_dir / "summary.json").write_text(json.dumps(figures, indent=1))
        log(f"summary: {RESULTS / f'{stamp}.md'}; raw files: {out_dir}")
        if locust_rc != 0:
            log(f"locust exited with {locust_rc} (see {out_dir / 'locust.log'})")
        print("load-result: " + json.dumps(figures), flush=True)  # one line for scripts (benchmarks/run_all.py)
        return 0 if ok else 1
    except KeyboardInterrupt:
        log("interrupted: stopping everything")
        return 130
    finally:
        procs.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
