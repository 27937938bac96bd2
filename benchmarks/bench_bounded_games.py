#!/usr/bin/env python3
"""Bounded work, games: each hostile position / game-playing input of docs/benchmarks.md "Bounded work: games",
sent to the site through Django's test client (DEBUG off, a fresh SQLite database with the bundled packages), with
its answer (status, error code, the first words of the message) and the server time.

    .venv/bin/python benchmarks/bench_bounded_games.py [--timeout 60] [--only NAME ...]
    .venv/bin/python benchmarks/bench_bounded_games.py --costs [--games 200]
    .venv/bin/python benchmarks/bench_bounded_games.py --together [--heavy NAME]

`--together` starts gunicorn with deploy/gunicorn.conf.py (3 sync workers, DEBUG off) on a free loopback port and
sends three copies of one heavy position request at once (default: 400 greedy HAGMI games, the heaviest the
request budget allows; `--heavy "max_turns 90000, 3 games"` is the issue's), polling `GET /api/ping/` meanwhile:
it prints each answer with its time and the slowest ping. The workers share a Redis cache (`--cache-url`, default
redis://127.0.0.1:6379/7) as production's CACHE_URL does, so the engine work allowance is one per address.

`--costs` measures instead what the budgets' constants come from (rules_engine/<game>/system.py `bounds`): CPU
milliseconds of one game played on from each game's example position by greedy, random and search (the compiled
engine when its build is up to date), and each policy's cost relative to greedy.

Each input runs in a child process of its own, stopped after `--timeout` seconds (printed as "stopped"), so an
input that pins the engine for minutes (as a hand of 50 000 cards did) does not hold the benchmark. Prints one JSON
line per input, then the machine (nproc, the CPU model, the load).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DOCS = ROOT / "docs" / "positions"


def _example(system: str) -> dict:
    return json.loads((DOCS / f"{system}.position.json").read_text(encoding="utf-8"))


def _cases() -> dict[str, tuple[str, str, dict, dict]]:
    """name → (method, path, JSON body or None, extra headers)."""
    hagmi, warcaster = _example("hagmi"), _example("warcaster")
    long_game = dict(hagmi, options={"max_turns": 90000})
    hand_1600 = json.loads(json.dumps(hagmi))
    hand_1600["sides"][0]["hand"] = ["HS-013"] * 1600
    hand_50000 = json.loads(json.dumps(hagmi))
    hand_50000["sides"][0]["hand"] = ["HS-013"] * 50_000
    crowd = json.loads(json.dumps(warcaster))
    next_uid = 8
    crowd["sides"][1]["units"] = crowd["sides"][1]["units"] + [
        {"uid": next_uid + i, "code": "WC-017"} for i in range(10_000)]
    surrogate = dict(hagmi, note="\ud800 a lone surrogate")
    return {
        "max_turns 90000, 3 games": ("POST", "/api/positions/", {"position": long_game, "games": 3}, {}),
        "hand of 1 600, no games": ("POST", "/api/positions/", {"position": hand_1600}, {}),
        "hand of 50 000, 5 games": ("POST", "/api/positions/", {"position": hand_50000, "games": 5}, {}),
        "search policy, Warcaster, 20 games": ("POST", "/api/positions/",
                                               {"position": warcaster, "games": 20, "policy": "search"}, {}),
        "10 000 extra units": ("POST", "/api/positions/", {"position": crowd}, {}),
        "lone surrogate in note": ("POST", "/api/positions/", {"position": surrogate}, {}),
        "bad Host header": ("GET", "/api/ping/", None, {"HTTP_HOST": "evil.example"}),
        "light: the example, 20 games": ("POST", "/api/positions/", {"position": hagmi, "games": 20}, {}),
        "400 greedy HAGMI games": ("POST", "/api/positions/", {"position": hagmi, "games": 400}, {}),
        "500 greedy Warcaster games": ("POST", "/api/positions/", {"position": warcaster, "games": 500}, {}),
    }


def _setup(db: str) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{db}", HANGAR_INSECURE_DEV_KEY="1",
               DJANGO_SETTINGS_MODULE="hangar.settings")
    python = sys.executable
    for args in (["migrate", "--noinput"], ["load_packages"]):
        subprocess.run([python, str(ROOT / "manage.py"), *args], env=env, check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)


def _one(db: str, name: str, out) -> None:
    os.environ.update(DATABASE_URL=f"sqlite:///{db}", HANGAR_INSECURE_DEV_KEY="1",
                      DJANGO_SETTINGS_MODULE="hangar.settings", DEBUG="0",
                      SECURE_SSL_REDIRECT="0")
    import django

    django.setup()
    from django.test import Client
    from django.test.utils import override_settings

    method, path, body, headers = _cases()[name]
    client = Client(raise_request_exception=False, REMOTE_ADDR="198.51.100.7", secure=True)
    with override_settings(DEBUG=False):
        # ensure_ascii: a lone surrogate travels as a JSON escape, as a client would send it
        payload = json.dumps(body, allow_nan=False) if body is not None else None
        client.post("/api/positions/", {"position": _example("mwda")}, content_type="application/json")  # warm-up
        start = time.perf_counter()
        if method == "POST":
            response = client.post(path, payload, content_type="application/json", **headers)
        else:
            response = client.get(path, **headers)
        seconds = time.perf_counter() - start
    kind = response.get("Content-Type", "")
    answer = {"status": response.status_code, "type": kind.split(";")[0], "bytes": len(response.content)}
    if kind.startswith("application/json"):
        error = response.json().get("error") if isinstance(response.json(), dict) else None
        if error:
            answer["code"] = error.get("code")
            answer["message"] = str(error.get("message"))[:160]
    out.send({"input": name, "seconds": round(seconds, 3), **answer})


def together(db: str, heavy: str, cache_url: str) -> None:
    """Three heavy requests at once on gunicorn's three workers (sharing the throttles' cache at `cache_url`, as
    in production); how long /api/ping/ waits meanwhile."""
    import threading
    import urllib.error
    import urllib.request

    from _server import start_gunicorn, stop_gunicorn

    server, base = start_gunicorn(ROOT, {"DATABASE_URL": f"sqlite:///{db}", "CACHE_URL": cache_url})
    try:
        body = json.dumps(_cases()[heavy][2]).encode()
        answers, pings, done = [], [], threading.Event()

        def send(index: int) -> None:
            request = urllib.request.Request(f"{base}/api/positions/", data=body,
                                             headers={"Content-Type": "application/json"})
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=120) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError as error:
                status = f"{type(error).__name__}"
            answers.append({"request": index, "status": status, "seconds": round(time.perf_counter() - start, 2)})

        def ping() -> None:
            while not done.is_set():
                start = time.perf_counter()
                try:
                    urllib.request.urlopen(f"{base}/api/ping/", timeout=120).read()
                except OSError:
                    pass
                pings.append(time.perf_counter() - start)
                time.sleep(0.05)

        pinger = threading.Thread(target=ping)
        senders = [threading.Thread(target=send, args=(i,)) for i in range(3)]
        for thread in senders:
            thread.start()
        time.sleep(0.05)
        pinger.start()
        for thread in senders:
            thread.join()
        done.set()
        pinger.join()
        print(json.dumps({"heavy": heavy, "answers": sorted(answers, key=lambda a: a["request"]),
                          "pings": len(pings), "slowest_ping": round(max(pings), 3)}, ensure_ascii=False))
    finally:
        stop_gunicorn(server)


def costs(games: int) -> None:
    """CPU ms of one game on from each example position, by policy (search: a tenth of the games)."""
    from rules_engine.positions import simulate_position

    packages = {"hagmi": "hagmi/core.json", "mwda": "mwda/core-sample.json", "warcaster": "warcaster/core-sample.json"}
    for system, package in packages.items():
        path = ROOT / "cards" / "packages" / package
        cards = {card["code"]: card for card in json.loads(path.read_text(encoding="utf-8"))["cards"]}
        doc = _example(system)
        simulate_position(doc, cards, games=5, seed=0)  # warm-up
        rates = {}
        for policy, count in (("greedy", games), ("random", games), ("search", max(1, games // 10))):
            start = time.process_time()
            simulate_position(doc, cards, games=count, seed=1, policy=policy)
            rates[policy] = (time.process_time() - start) / count * 1000
        print(json.dumps({"system": system, "ms_per_game": {k: round(v, 2) for k, v in rates.items()},
                          "relative": {k: round(v / rates["greedy"], 1) for k, v in rates.items()}}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--costs", action="store_true", help="measure the games' costs by policy instead")
    parser.add_argument("--games", type=int, default=200, help="games per policy with --costs (search: a tenth)")
    parser.add_argument("--together", action="store_true", help="three heavy requests at once on gunicorn")
    parser.add_argument("--heavy", default="400 greedy HAGMI games", help="the request --together sends")
    parser.add_argument("--cache-url", default="redis://127.0.0.1:6379/7",
                        help="the cache gunicorn's workers share with --together (production: CACHE_URL)")
    args = parser.parse_args()
    if args.costs:
        return costs(args.games)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.sqlite3")
        _setup(db)
        if args.together:
            return together(db, args.heavy, args.cache_url)
        context = multiprocessing.get_context("spawn")
        for name in _cases():
            if args.only and name not in args.only:
                continue
            here, there = context.Pipe()
            child = context.Process(target=_one, args=(db, name, there))
            start = time.perf_counter()
            child.start()
            child.join(args.timeout)
            if child.is_alive():
                child.kill()
                child.join()
                print(json.dumps({"input": name, "stopped_after": args.timeout}, ensure_ascii=False), flush=True)
                continue
            result = here.recv() if here.poll() else {"input": name, "error": f"exit {child.exitcode}",
                                                        "wall": round(time.perf_counter() - start, 1)}
            print(json.dumps(result, ensure_ascii=False), flush=True)
    print(json.dumps({"nproc": os.cpu_count(), "load": os.getloadavg(),
                      "cpu": next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                                   if line.startswith("model name")), "")}))


if __name__ == "__main__":
    main()
