#!/usr/bin/env python3
"""Run every benchmark of docs/benchmarks.md in sequence, with its documented arguments, and print one summary
table: each target of docs/benchmarks.md with its anchor, the figure, the ratio to the anchor and met / not met.

    .venv/bin/python benchmarks/run_all.py [--only NAME[,NAME...]] [--skip NAME[,...]] [--quick] [--out DIR]
                                           [--postgres postgres://postgres@127.0.0.1:5432] [--redis redis://...]

Run it on a QUIET machine (nothing else busy: `uptime` load below 0.5 per core): the engine figures are per core
(CPU time) but still drop when other processes share the cores, and the API and worker figures are wall-clock.
The machine and its calibration (benchmarks/bench_machine.py) are measured before and after, so a busy spell shows.

Benchmarks (NAME: command, about how long on 2 cores):
  machine          bench_machine.py --seconds 5                                 5 s
  validate         bench_validate.py --runs 2000                                10 s
  hagmi            bench_hagmi.py --games 1000 --repeat 3                       3 min
  mwda             bench_mwda.py --games 200 --repeat 3                         3 min
  warcaster        bench_warcaster.py --games 1000 --repeat 3                   2 min
  search           bench_search.py --games 1000 --workers 2                     8 min
  doctor           bench_doctor.py --games 2000 --changes 30                    8 min
  doctor-stages    bench_doctor_stages.py (budgets 4 000-16 000 against 30 × 200 and 30 × 600)  3 min
  impact           bench_impact.py (test every card: a 40-card HAGMI deck, 20 000 games; a 300-point army, 6 000)  2 min
  api              bench_api.py --seconds 10 --rounds 5        (needs wrk)      2 min
  workers          bench_workers.py --games 20000              (filesystem broker + SQLite)   2 min
  matrix           bench_matrix.py --games 1000 --repeat 2     (a 5 × 5 matchup matrix, 1 and 2 workers)  3 min
  workers-redis    bench_workers.py --games 20000 --broker REDIS/15             (needs Redis)  2 min
  workers-pg       the same on Redis + a scratch PostgreSQL database (created and dropped)      2 min
  editor           bench_editor.py --rounds 3                  (needs chromium)  2 min
  load             load/run_load.py                            (if present; PostgreSQL + Redis) 2 min
--quick runs each with a fraction of the work (a smoke test of the scripts and of this summary, NOT figures).

Each benchmark's full output goes to DIR/<name>.log (default var/benchmarks/<UTC time>/), the table to
DIR/summary.md. Exit status 0 when every benchmark ran (met or not), 1 when one failed to run.
Never point it at a production database: bench_workers.py deletes the simulation runs of the database it uses,
so this script always gives it a database of its own (a temporary SQLite file or a scratch PostgreSQL database).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
BENCH = ROOT / "benchmarks"


@dataclass
class Row:
    target: str  # "validate a 200-card HAGMI deck (2)"
    anchor: str  # what the figure is compared with: a target value or a reference endpoint/run
    figure: str
    ratio: float | None  # figure / anchor
    goal: str  # "<= 1" or ">= 1" or ">= 0.70" ...
    met: bool | None  # None: could not tell

    def status(self) -> str:
        if self.goal == "report" and self.met is not False:  # a measure with no target
            return "measured"
        return {True: "met", False: "**not met**", None: "see log"}[self.met]


@dataclass
class Benchmark:
    name: str
    args: list[str]
    quick_args: list[str]
    parse: Callable[[str], list[Row]]
    needs: Callable[["argparse.Namespace"], str | None] = lambda options: None  # None, or why it cannot run
    env: dict[str, str] = field(default_factory=dict)
    timeout: int = 1800


# --- parsers: each turns a benchmark's output into rows ---------------------------------------------------------


def _last_json(output: str) -> dict:
    """The last top-level JSON object printed (bench_api.py and bench_workers.py print one at the end)."""
    start = output.rfind("\n{")
    start = 0 if start < 0 and output.startswith("{") else start
    return json.loads(output[start:].strip())


def parse_machine(output: str) -> list[Row]:
    return []  # shown in the header, not as a target


def parse_validate(output: str) -> list[Row]:
    rows = []
    for label, target in (("HAGMI 200-card deck", "validate a 200-card HAGMI deck, median (2)"),
                          ("MWDA 300-point army", "validate a 300-point MWDA army, median (2)")):
        match = re.search(rf"{label}\s+median ([0-9.]+) ms\s+p95 ([0-9.]+) ms", output)
        if match:
            median = float(match.group(1))
            rows.append(Row(target, "0.5 ms", f"{median:.3f} ms (p95 {match.group(2)} ms)", median / 0.5, "<= 1",
                            median <= 0.5))
        else:
            rows.append(Row(target, "0.5 ms", "?", None, "<= 1", None))
    return rows


def _engine_rows(output: str) -> list[tuple[str, float]]:
    """(case label, games per CPU second) of the engine benchmarks' tables."""
    found = []
    for line in output.splitlines():
        match = re.match(r"^(\S.*?\((?:greedy|random|defensive)\))\s+([0-9.]+)\s+([0-9.]+)(?:\s+(\d+))?", line)
        if match:
            found.append((match.group(1), match.group(2), match.group(3)))
    return found


def parse_hagmi(output: str) -> list[Row]:
    rates: dict[str, list[tuple[str, float]]] = {"goldfish": [], "coop": []}
    for label, cpu, _wall in _engine_rows(output):  # columns: cpu g/s, wall g/s
        kind = "goldfish" if "vs goldfish" in label else "coop" if "vs coop-" in label else None
        if kind:
            rates[kind].append((label, float(cpu)))
    rows = []
    for kind, target, value in (("goldfish", "HAGMI goldfish games/s, one core (3)", 1000),
                                ("coop", "HAGMI co-op games/s, one core (3)", 300)):
        if not rates[kind]:
            rows.append(Row(target, f"{value} games/s", "?", None, ">= 1", None))
            continue
        slowest = min(rates[kind], key=lambda item: item[1])
        figure = f"{slowest[1]:.0f}–{max(rate for _, rate in rates[kind]):.0f} (slowest: {slowest[0]})"
        rows.append(Row(target, f"{value} games/s", figure, slowest[1] / value, ">= 1", slowest[1] >= value))
    return rows


def parse_mwda(output: str) -> list[Row]:
    army = [(label, float(cpu)) for label, _wall, cpu in _engine_rows(output) if "vs goldfish" not in label]
    target = "MWDA battles/s of two 300-point armies, one core (6)"  # columns: wall/s, cpu/s
    if not army:
        return [Row(target, "200 battles/s", "?", None, ">= 1", None)]
    slowest = min(army, key=lambda item: item[1])
    median = statistics.median(rate for _, rate in army)
    figure = f"{slowest[1]:.0f}–{max(rate for _, rate in army):.0f}, median {median:.0f} (slowest: {slowest[0]})"
    return [Row(target, "200 battles/s", figure, slowest[1] / 200, ">= 1", slowest[1] >= 200)]


def parse_warcaster(output: str) -> list[Row]:
    rows = []
    cases = [(label, float(cpu)) for label, cpu, _wall in _engine_rows(output) if "vs goldfish" not in label]
    for policy in ("greedy", "random"):
        rates = [(label, rate) for label, rate in cases if label.endswith(f"({policy})")]
        target = f"Warcaster games/s of two skirmish lists, {policy}, one core (7)"
        if not rates:
            rows.append(Row(target, "200 games/s", "?", None, ">= 1", None))
            continue
        slowest = min(rates, key=lambda item: item[1])
        figure = f"{slowest[1]:.0f}–{max(rate for _, rate in rates):.0f} (slowest: {slowest[0]})"
        rows.append(Row(target, "200 games/s", figure, slowest[1] / 200, ">= 1", slowest[1] >= 200))
    return rows


def parse_api(output: str) -> list[Row]:
    target = "POST /api/validate/ throughput vs GET /api/ping/, gunicorn 2 workers (2)"
    try:
        report = _last_json(output)
    except ValueError:
        return [Row(target, "ping req/s (same run)", "?", None, ">= 0.70", None)]
    ratio = report["median_ratio"]
    errors = sum(r[name]["non_2xx"] for r in report["rounds"] for name in ("ping", "validate"))
    figure = (f"{report['median_validate_requests_per_s']:.0f} vs {report['median_ping_requests_per_s']:.0f} req/s, "
              f"rounds {min(r['ratio'] for r in report['rounds']):.3f}–{max(r['ratio'] for r in report['rounds']):.3f}"
              f", {errors} non-2xx")
    return [Row(target, "ping req/s (same run)", figure, ratio, ">= 0.70", ratio >= 0.70 and errors == 0)]


def parse_matrix(output: str) -> list[Row]:
    target = "5 × 5 matchup matrix, 2 workers vs in-process; a repeated matrix from stored runs"
    try:
        report = _last_json(output)
    except ValueError:
        return [Row(target, "in-process run", "?", None, "report", None)]
    same = "" if report["cells_identical_to_in_process_runs"] else ", CELLS DIFFER"
    return [Row(target, f"in-process {report['in_process_s']} s",
                f"1 worker {report['one_worker_s']} s, 2 workers {report['two_workers_s']} s; repeated: "
                f"{report['repeated_matrix_reused_share']:.0%} reused{same}",
                report["efficiency_two_workers"], "report", report["cells_identical_to_in_process_runs"])]


def parse_workers(label: str) -> Callable[[str], list[Row]]:
    def parse(output: str) -> list[Row]:
        efficiency_target = f"2 Celery workers vs in-process, 2 cores, {label} (4)"
        overhead_target = f"broker + database share of a run's time, {label} (4)"
        try:
            report = _last_json(output)
            overhead_target = f"broker + database share of a {report['games']:,}-game run, {label} (4)".replace(",", " ")
        except ValueError:
            return [Row(efficiency_target, "in-process run", "?", None, ">= 0.85", None),
                    Row(overhead_target, "1-worker run", "?", None, "<= 0.05", None)]
        same = "" if report["identical_results"] else ", RESULTS DIFFER"
        efficiency, overhead = report["efficiency_two_workers"], report["overhead_one_worker"]
        return [
            Row(efficiency_target, f"in-process {report['in_process_s']} s",
                f"2 workers {report['two_workers_s']} s (utilisation {report['utilisation_two_workers']}){same}",
                efficiency, ">= 0.85", efficiency >= 0.85 and report["identical_results"]),
            Row(overhead_target, f"in-process {report['in_process_s']} s",
                f"1 worker {report['one_worker_s']} s (utilisation {report['utilisation_one_worker']}){same}",
                overhead, "<= 0.05", overhead <= 0.05 and report["identical_results"]),
        ]

    return parse


def parse_editor(output: str) -> list[Row]:
    """The actions to build the bundled deck by typing and by pasting, against the mouse alone (the same
    run); the click-to-panel time against the same request by fetch() (network and server only)."""
    target = "build the bundled 40-card HAGMI deck in the editor: keys + clicks, {mode} (14)"
    try:
        report = _last_json(output)
    except ValueError:
        return [Row(target.format(mode=mode), "the mouse alone", "?", None, "report", False) for mode in ("type", "paste")]
    builds = {build["mode"]: build for build in report["builds"]}
    rows = []
    mouse = builds.get("clicks")
    for mode in ("type", "paste"):
        build = builds.get(mode)
        if not build or not mouse:
            continue
        figure = f"{build['keys']} keys + {build['clicks']} clicks = {build['actions']}"
        rows.append(Row(target.format(mode=mode), f"the mouse alone: {mouse['actions']} clicks", figure,
                        build["actions"] / mouse["actions"], "report", None if build["saved_list_is_the_deck"] else False))
    if "click_to_panel_ms" in report:
        latency, fetch = report["click_to_panel_ms"], report["reference_fetch_ms"]
        rows.append(Row("editor: a click on add to the legality panel drawn, p50 / p95 (14)",
                        f"the same request by fetch(): {fetch['p50']} / {fetch['p95']} ms",
                        f"{latency['p50']} / {latency['p95']} ms ({latency['samples']} clicks)",
                        latency["p50"] / fetch["p50"], "report", None))
    return rows


def parse_load(output: str, code: int) -> list[Row]:
    """run_load.py exits 0 only when every request got the status it expected and every simulation ended done;
    its figures (throughput, p50/p95/p99) are in the newest benchmarks/load/results/*.md."""
    target = "load: 50 users, 60 s, gunicorn + PostgreSQL + Redis, zero errors (8)"
    reports = sorted((BENCH / "load" / "results").glob("*.md"), key=lambda path: path.stat().st_mtime)
    where = str(reports[-1].relative_to(ROOT)) if reports else "the log"
    verdict = "no error" if code == 0 else f"errors (exit {code})"
    return [Row(target, "0 errors", f"{verdict}; figures in {where}", None, "= 0", code == 0)]


# --- requirements ---------------------------------------------------------------------------------------------


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def needs_wrk(options) -> str | None:
    return None if shutil.which("wrk") else "wrk is not installed (apt-get install wrk)"


def needs_redis(options) -> str | None:
    return None if _reachable(options.redis, 6379) else f"Redis is not reachable at {options.redis}"


def needs_postgres_and_redis(options) -> str | None:
    if not _reachable(options.postgres, 5432):
        return f"PostgreSQL is not reachable at {options.postgres}"
    return needs_redis(options)


def needs_chromium(options) -> str | None:
    return None if Path("/usr/bin/chromium").exists() else "Debian's chromium is not installed (apt-get install chromium)"


def needs_load(options) -> str | None:
    if not (BENCH / "load" / "run_load.py").is_file():
        return "benchmarks/load/run_load.py is not there"
    return needs_postgres_and_redis(options)


def parse_search(output: str) -> list[Row]:
    """bench_search.py: per system, the search policy's win rate against greedy, mirrored (target: ≥ 60 %)."""
    rows = []
    for system, rate, low, high in re.findall(
            r"^(\w+): \S+-search .*?\n(?:.*\n)*?\s+win rate \(draws half\) ([\d.]+)%, 95 % interval ([\d.]+)%–([\d.]+)%",
            output, re.M):
        value = float(rate) / 100
        rows.append(Row(f"{system}-search vs {system}-greedy, mirrored, win rate ≥ 60 % (20)", "60 %",
                        f"{rate} % (95 %: {low}–{high} %)", value / 0.60, ">= 1", value >= 0.60))
    return rows or [Row("search policies vs greedy, win rate ≥ 60 % (20)", "60 %", "?", None, ">= 1", None)]


def parse_doctor(output: str) -> list[Row]:
    """bench_doctor.py: the list doctor's wall time on 1 and 2 processes and the paired interval."""
    try:
        report = json.loads(output[output.index("{"):])
    except ValueError:
        return [Row("list doctor, 30 changes × 2 000 paired games (20)", "1 process", "?", None, "", None)]
    walls = report["wall_seconds"]
    return [
        Row("list doctor, 30 changes × 2 000 paired games: 2 processes against 1 (20)", f"{walls['1']} s",
            f"{walls['2']} s", report["efficiency_2_workers"], "efficiency", None),
        Row("list doctor: paired 95 % half-width against unpaired (20)",
            f"±{report['half_width_unpaired_median'] * 100:.2f} points", f"±{report['half_width_paired_median'] * 100:.2f} points",
            report["width_ratio_median"], "narrower ×", None),
    ]


def parse_impact(output: str) -> list[Row]:
    """bench_impact.py: games and wall time of "test every card" on a 40-card deck and a 300-point army."""
    try:
        report = json.loads(output[output.index("{"):])
    except ValueError:
        return [Row("test every card", "", "?", None, "report", None)]
    rows = []
    for key, words in (("hagmi", "40-card HAGMI deck"), ("mwda", "300-point MWDA army")):
        case = report[key]
        rows.append(Row(f"test every card, {words}: {case['cards_tested']} cards × {len(case['opponents'])} "
                        "opponents", f"{case['games_played']} games",
                        f"{case['wall_seconds']} s ({case['games_per_second']} games/s)", None, "report", None))
    return rows


def parse_doctor_stages(output: str) -> list[Row]:
    """bench_doctor_stages.py: the games the doctor's two stages and the fixed 30 × N design need to a confirmed,
    independently validated answer (the same family-wise error rate, 5 %)."""
    try:
        report = json.loads(output[output.index("{"):])
    except ValueError:
        return [Row("list doctor, two stages against the fixed design", "fixed 30 × N", "?", None, "", None)]

    def fewest(design: str) -> int | None:
        found = [row["games"] for row in report["runs"] if row["design"].startswith(design) and row["true_better"]]
        return min(found) if found else None

    staged, fixed = fewest("doctor"), fewest("fixed")
    return [Row("list doctor: fewest games to a confirmed, validated answer (two stages against fixed 30 × N)",
                f"{fixed} games" if fixed else "none found", f"{staged} games" if staged else "none found",
                round(staged / fixed, 2) if staged and fixed else None, "<= 1",
                (staged <= fixed) if staged and fixed else None)]


def benchmarks(options) -> list[Benchmark]:
    redis15 = options.redis.rstrip("/").rsplit("/", 1)[0] + "/15" if options.redis.count("/") > 2 else options.redis + "/15"
    engine = ["--games", "200", "--repeat", "3"]
    quick_engine = ["--games", "20", "--repeat", "1", "--no-profile"]
    return [
        Benchmark("machine", ["bench_machine.py", "--seconds", "5"], ["bench_machine.py", "--seconds", "1"], parse_machine),
        Benchmark("validate", ["bench_validate.py", "--runs", "2000"], ["bench_validate.py", "--runs", "200"],
                  parse_validate),
        Benchmark("hagmi", ["bench_hagmi.py", "--games", "1000", "--repeat", "3"],
                  ["bench_hagmi.py", "--games", "50", "--repeat", "1", "--no-profile"], parse_hagmi),
        Benchmark("mwda", ["bench_mwda.py", *engine], ["bench_mwda.py", *quick_engine], parse_mwda),
        Benchmark("warcaster", ["bench_warcaster.py", "--games", "1000", "--repeat", "3"],  # 200 games: ±15 % by seed
                  ["bench_warcaster.py", *quick_engine], parse_warcaster),
        Benchmark("search", ["bench_search.py", "--games", "1000", "--workers", "2"],
                  ["bench_search.py", "--games", "20"], parse_search),
        Benchmark("doctor", ["bench_doctor.py", "--games", "2000", "--changes", "30"],
                  ["bench_doctor.py", "--games", "20", "--changes", "3"], parse_doctor),
        Benchmark("doctor-stages", ["bench_doctor_stages.py"],
                  ["bench_doctor_stages.py", "--budgets", "3700", "--fixed", "100", "--seeds", "1", "--validate", "200"],
                  parse_doctor_stages),
        Benchmark("impact", ["bench_impact.py"],
                  ["bench_impact.py", "--hagmi-games", "6600", "--mwda-games", "2200"], parse_impact),
        Benchmark("api", ["bench_api.py", "--seconds", "10", "--rounds", "5"],
                  ["bench_api.py", "--seconds", "2", "--rounds", "1"], parse_api, needs_wrk),
        Benchmark("workers", ["bench_workers.py", "--games", "20000"],
                  ["bench_workers.py", "--games", "4000", "--repeat", "1"], parse_workers("filesystem + SQLite"),
                  env={"CELERY_BROKER_URL": "filesystem://"}),
        Benchmark("matrix", ["bench_matrix.py", "--games", "1000", "--repeat", "2"],
                  ["bench_matrix.py", "--games", "40"], parse_matrix, env={"CELERY_BROKER_URL": "filesystem://"}),
        Benchmark("workers-redis", ["bench_workers.py", "--games", "20000", "--broker", redis15],
                  ["bench_workers.py", "--games", "4000", "--repeat", "1", "--broker", redis15],
                  parse_workers("Redis + SQLite"), needs_redis),
        Benchmark("workers-pg", ["bench_workers.py", "--games", "20000", "--broker", redis15],
                  ["bench_workers.py", "--games", "4000", "--repeat", "1", "--broker", redis15],
                  parse_workers("Redis + PostgreSQL"), needs_postgres_and_redis),
        Benchmark("editor", ["bench_editor.py", "--rounds", "3"], ["bench_editor.py", "--rounds", "1"], parse_editor,
                  needs_chromium),
        Benchmark("load", ["load/run_load.py"], ["load/run_load.py", "--duration", "10", "--users", "10"],
                  parse_machine, needs_load, timeout=1200),  # read by parse_load(output, exit status)
    ]


# --- running ----------------------------------------------------------------------------------------------------


def scratch_postgres(server: str) -> tuple[str, Callable[[], None]]:
    """A new, empty database on the server for bench_workers.py, and the function that drops it."""
    import psycopg

    name = f"hangar_bench_{uuid.uuid4().hex[:8]}"
    admin = server.rstrip("/").replace("postgres://", "postgresql://", 1) + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"{server.rstrip('/')}/{name}", drop


def run(bench: Benchmark, options, out: Path) -> tuple[list[Row], str, float]:
    """(rows, outcome, seconds) of one benchmark; its output goes to out/<name>.log."""
    reason = bench.needs(options)
    if reason:
        return [], f"skipped: {reason}", 0.0
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(bench.env)
    drop = None
    if bench.name == "workers-pg":
        env["DATABASE_URL"], drop = scratch_postgres(options.postgres)
    args = bench.quick_args if options.quick else bench.args
    command = [str(PYTHON if PYTHON.exists() else sys.executable), str(BENCH / args[0]), *args[1:]]
    log = out / f"{bench.name}.log"
    print(f"[run_all {time.strftime('%H:%M:%S')}] {bench.name}: {' '.join(args)}  (load {os.getloadavg()[0]:.2f})",
          flush=True)
    started = time.monotonic()
    try:
        result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=bench.timeout)
        output, code = result.stdout + ("\n" + result.stderr if result.stderr.strip() else ""), result.returncode
    except subprocess.TimeoutExpired as exc:
        output, code = f"{exc.stdout or ''}\n{exc.stderr or ''}\nTIMED OUT after {bench.timeout} s", -1
    finally:
        if drop:
            drop()
    seconds = time.monotonic() - started
    log.write_text(f"$ {' '.join(command)}\n# exit {code}, {seconds:.0f} s\n\n{output}", encoding="utf-8")
    try:
        if bench.name == "load":
            rows = parse_load(output, code)
        else:
            rows = bench.parse(result.stdout if code != -1 else output)
    except (ValueError, KeyError, IndexError) as exc:
        rows = []
        output += f"\nrun_all: could not read the figures: {exc!r}"
    outcome = "ok" if code == 0 else f"exit {code}"
    return rows, outcome, seconds


def machine_line(out: Path) -> str:
    command = [str(PYTHON if PYTHON.exists() else sys.executable), str(BENCH / "bench_machine.py"), "--json",
               "--seconds", "2"]
    info = json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    return (f"{info['cpu']} ({info['virtualisation']}), {info['cores']} cores, {info['ram_gib']} GiB, {info['os']}, "
            f"Python {info['python']}; load {info['load_average'][0]}; calibration "
            f"{info['calibration']['rounds_per_cpu_second']} rounds/CPU s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    parser.add_argument("--skip", default="", help="comma-separated benchmark names")
    parser.add_argument("--quick", action="store_true", help="a fraction of the work: checks the scripts, no figures")
    parser.add_argument("--out", type=Path, default=None, help="folder for the logs and summary.md")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432",
                        help="PostgreSQL server (no database) for workers-pg: a scratch database is created there")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", help="Redis server for the Redis broker runs")
    options = parser.parse_args()
    selected = [bench for bench in benchmarks(options)
                if (not options.only or bench.name in options.only.split(",")) and bench.name not in options.skip.split(",")]
    unknown = set(filter(None, options.only.split(","))) - {bench.name for bench in benchmarks(options)}
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    out = options.out or ROOT / "var" / "benchmarks" / dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out.mkdir(parents=True, exist_ok=True)

    before = machine_line(out)
    results = [(bench, *run(bench, options, out)) for bench in selected]
    after = machine_line(out)

    lines = [
        f"# Benchmarks {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC" + (" (QUICK: not figures)" if options.quick else ""),
        "",
        f"- machine before: {before}",
        f"- machine after:  {after}",
        "",
        "| target (issue) | anchor | figure | ratio to anchor | goal | status |",
        "|---|---|---|---:|---|---|",
    ]
    for bench, rows, outcome, seconds in results:
        for row in rows:
            ratio = "" if row.ratio is None else f"{row.ratio:.3f}"
            lines.append(f"| {row.target} | {row.anchor} | {row.figure} | {ratio} | {row.goal} | {row.status()} |")
    lines += ["", "| benchmark | outcome | seconds | log |", "|---|---|---:|---|"]
    for bench, rows, outcome, seconds in results:
        lines.append(f"| {bench.name} | {outcome} | {seconds:.0f} | {out / (bench.name + '.log')} |")
    summary = "\n".join(lines) + "\n"
    (out / "summary.md").write_text(summary, encoding="utf-8")
    print("\n" + summary)
    print(f"logs and summary.md in {out}")
    return 0 if all(outcome == "ok" or outcome.startswith("skipped") for _, _, outcome, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
