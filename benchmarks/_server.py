"""Shared pieces of the benchmarks that start a server of their own (bench_api.py, bench_editor.py,
bench_bounded_games.py --together, bench_hostile_files.py --gunicorn): a free loopback port, waiting until the
server answers, gunicorn with deploy/gunicorn.conf.py, its workers and their peak memory."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server at {url} did not answer within {seconds} s")


def start_gunicorn(code: Path, env: dict[str, str], workers: int = 3, log=subprocess.DEVNULL
                   ) -> tuple[subprocess.Popen, str]:
    """gunicorn with `code`/deploy/gunicorn.conf.py (sync workers, DEBUG off, no access log) on a free loopback
    port, run from the Django project at `code` with this interpreter's venv; returns the master and its base URL
    once /api/ping/ answers. `env` adds the database, the cache and the like; `log`: where its log goes."""
    port = free_port()
    full = dict(os.environ, HANGAR_INSECURE_DEV_KEY="1", DEBUG="0", SECURE_SSL_REDIRECT="0",
                ALLOWED_HOSTS="127.0.0.1", GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS=str(workers),
                GUNICORN_ACCESS_LOG="0", DJANGO_SETTINGS_MODULE="hangar.settings", **env)
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
                               "hangar.wsgi"], cwd=code, env=full, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/api/ping/")
    except BaseException:
        stop_gunicorn(server)
        raise
    return server, base


def stop_gunicorn(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def worker_pids(master: int) -> list[int]:
    """The gunicorn master's children (its workers)."""
    try:
        return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def high_water_kb(pid: int) -> int:
    """VmHWM of a process (its peak resident memory), in KiB; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
