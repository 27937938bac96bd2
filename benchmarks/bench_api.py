#!/usr/bin/env python3
"""Throughput of POST /api/validate/ against the trivial DRF endpoint GET /api/ping/, side by side in one run.

Target: validate >= 70% of ping's requests/s, both served by gunicorn with 2 workers.

Usage (from the project root, after `python3 dev.py test` or `run` has made .venv):
    .venv/bin/python benchmarks/bench_api.py [--seconds 10] [--connections 16] [--rounds 3] [--list cards/packages/hagmi/lists/X.json]

Needs `wrk` (Debian package `wrk`). It makes its own SQLite database in a temporary folder, loads the bundled
packages, starts gunicorn on 127.0.0.1 and measures each endpoint with wrk in turn, then prints a JSON report.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from _server import free_port, wait_for  # benchmarks/_server.py (run from the repository root)

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"


def check_validate(url: str, body: str) -> None:
    """Measure only a request that works: the list must validate (200) before the run starts."""
    request = urllib.request.Request(
        url, data=body.encode("utf-8"), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        result = json.load(response)
    if "legal" not in result:
        raise SystemExit(f"POST {url} did not return a validation result: {result}")


def wrk(url: str, seconds: int, connections: int, script: Path | None = None) -> dict:
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        args += ["-s", str(script)]
    out = subprocess.run(args + [url], check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    latency = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)", out, re.M))
    return {"requests_per_s": rps, "non_2xx": int(errors.group(1)) if errors else 0, "latency": latency}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3, help="alternating ping/validate rounds; medians reported")
    parser.add_argument("--list", type=Path, default=None, help="list JSON to validate (default: first HAGMI sample)")
    options = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    list_file = options.list or sorted((ROOT / "cards/packages/hagmi/lists").glob("*.json"))[0]
    body = list_file.read_text(encoding="utf-8")

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite3",
            HANGAR_VAR_DIR=tmp,
            SECRET_KEY="benchmark-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            DEBUG="0",
            SECURE_SSL_REDIRECT="0",
            HANGAR_THROTTLE_ANON="off",  # measure the endpoints, not the throttles
            HANGAR_THROTTLE_USER="off",
            LOG_LEVEL="WARNING",
        )
        for command in (["migrate", "--noinput", "-v0"], ["load_packages"]):
            subprocess.run([str(PYTHON), "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
        body_file = Path(tmp) / "body.json"
        body_file.write_text(body, encoding="utf-8")
        script = Path(tmp) / "post.lua"
        script.write_text(  # wrk's Lua has no \u escapes: read the UTF-8 body from its file
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f'local f = io.open("{body_file}", "rb")\nwrk.body = f:read("*a")\nf:close()\n',
            encoding="utf-8",
        )
        port = free_port()
        server = subprocess.Popen(
            [str(GUNICORN), "-w", "2", "-b", f"127.0.0.1:{port}", "--log-level", "warning", "hangar.wsgi"],
            cwd=ROOT,
            env=env,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(base + "/api/ping/")
            check_validate(base + "/api/validate/", body)
            wrk(base + "/api/ping/", 2, options.connections)  # warm-up
            rounds = []
            for _ in range(options.rounds):  # alternate, so that a busy spell on the machine hits both alike
                ping = wrk(base + "/api/ping/", options.seconds, options.connections)
                validate = wrk(base + "/api/validate/", options.seconds, options.connections, script)
                rounds.append({"ping": ping, "validate": validate,
                               "ratio": round(validate["requests_per_s"] / ping["requests_per_s"], 3)})
        finally:
            server.terminate()
            server.wait(timeout=20)
    report = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0], "platform": sys.platform},
        "list": str(list_file.relative_to(ROOT)),
        "seconds": options.seconds,
        "connections": options.connections,
        "rounds": rounds,
        "median_ping_requests_per_s": statistics.median(r["ping"]["requests_per_s"] for r in rounds),
        "median_validate_requests_per_s": statistics.median(r["validate"]["requests_per_s"] for r in rounds),
        "median_ratio": statistics.median(r["ratio"] for r in rounds),
        "target_ratio": 0.70,
    }
    print(json.dumps(report, indent=2))
    errors = sum(r[name]["non_2xx"] for r in rounds for name in ("ping", "validate"))
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
