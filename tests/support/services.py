"""Stop, start and restart the real Redis and PostgreSQL of this machine during a test (tests/services/test_faults.py),
and wait for them. Only the local services of .ci/run are touched: Redis at 127.0.0.1:6379 (no persistence: a restart
loses every queued message) and the PostgreSQL cluster "main" at 127.0.0.1:5432 (pg_ctlcluster, as root).

`redis_unavailable(url)` / `postgres_unavailable(settings_dict)` say why a restart test cannot run here (None when it
can): the fixtures skip with that reason on the embedded defaults and fail with it under HANGAR_REQUIRE_SERVICES=1.
`ensure_redis_up()` / `ensure_postgres_up()` start a service that is down: the fixtures' finalizers call them so the
rest of the suite (and anyone else using the services) keeps working whatever a test did.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
POSTGRES_HOST, POSTGRES_PORT = "127.0.0.1", 5432
LOCAL_HOSTS = {"127.0.0.1", "localhost", ""}
WAIT = 30.0  # seconds to wait for a service to go down or come back
REDIS_START = ["redis-server", "--daemonize", "yes", "--bind", REDIS_HOST, "--port", str(REDIS_PORT),
               "--save", "", "--appendonly", "no"]


class ServiceError(RuntimeError):
    """A service did not stop or start in time (the message says which and how long we waited)."""


def _wait(check, *, want: bool, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check() == want:
            return
        time.sleep(0.05)
    raise ServiceError(f"{what} not {'up' if want else 'down'} after {timeout:g} s")


# --- Redis --------------------------------------------------------------------------------------------------


def redis_up(timeout: float = 0.5) -> bool:
    """Redis at 127.0.0.1:6379 answers PING."""
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def redis_unavailable(broker_url: str) -> str | None:
    """Why this process cannot restart the broker `broker_url`; None when it can."""
    parsed = urlparse(broker_url)
    if parsed.scheme != "redis":
        return (f"needs the Redis broker (CELERY_BROKER_URL=redis://{REDIS_HOST}:{REDIS_PORT}/0); this run uses "
                f"{parsed.scheme or broker_url}:// (the embedded default)")
    if (parsed.hostname or "") not in LOCAL_HOSTS or (parsed.port or 6379) != REDIS_PORT:
        return f"restarts only the local Redis at {REDIS_HOST}:{REDIS_PORT}, not {parsed.hostname}:{parsed.port}"
    for tool in ("redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            return f"needs {tool} on PATH to restart Redis"
    if not redis_up():
        return f"Redis at {REDIS_HOST}:{REDIS_PORT} does not answer PING"
    return None


def redis_stop() -> None:
    """SHUTDOWN NOSAVE: every message in Redis is gone, as after a crash of a Redis that keeps nothing on disk."""
    subprocess.run(["redis-cli", "-h", REDIS_HOST, "-p", str(REDIS_PORT), "shutdown", "nosave"],
                   capture_output=True, timeout=WAIT, check=False)
    _wait(redis_up, want=False, what="Redis")


def redis_start() -> None:
    if not redis_up():
        subprocess.run(REDIS_START, capture_output=True, timeout=WAIT, check=True)
    _wait(redis_up, want=True, what="Redis")


def redis_restart(down_for: float = 0.0) -> None:
    """Stop Redis (losing its data), keep it down `down_for` seconds, start it again and wait until it answers."""
    redis_stop()
    time.sleep(down_for)
    redis_start()


def ensure_redis_up() -> None:
    if not redis_up():
        redis_start()


# --- PostgreSQL ---------------------------------------------------------------------------------------------


def _cluster_version() -> str | None:
    versions = sorted(p.name for p in Path("/etc/postgresql").glob("*") if (p / "main").is_dir())
    return versions[-1] if versions else None


def postgres_up(timeout: float = 1.0) -> bool:
    """The cluster accepts connections (pg_isready: not stopped, not starting up, not shutting down)."""
    try:
        return subprocess.run(["pg_isready", "-q", "-h", POSTGRES_HOST, "-p", str(POSTGRES_PORT), "-t", "1"],
                              capture_output=True, timeout=timeout + 2, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def postgres_unavailable(settings_dict: dict[str, Any]) -> str | None:
    """Why this process cannot restart the database of `settings_dict`; None when it can."""
    engine = settings_dict.get("ENGINE", "")
    if "postgresql" not in engine:
        return (f"needs PostgreSQL (DATABASE_URL=postgres://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/test); this "
                f"run uses {engine.rsplit('.', 1)[-1]} (the embedded default)")
    host, port = settings_dict.get("HOST") or "", int(settings_dict.get("PORT") or 5432)
    if host not in LOCAL_HOSTS or port != POSTGRES_PORT:
        return f"restarts only the local PostgreSQL at {POSTGRES_HOST}:{POSTGRES_PORT}, not {host}:{port}"
    for tool in ("pg_ctlcluster", "pg_isready"):
        if shutil.which(tool) is None:
            return f"needs {tool} on PATH to restart PostgreSQL"
    if _cluster_version() is None:
        return "no PostgreSQL cluster 'main' under /etc/postgresql"
    if not postgres_up():
        return f"PostgreSQL at {POSTGRES_HOST}:{POSTGRES_PORT} does not accept connections"
    return None


def _pg_ctlcluster(action: str) -> None:
    version = _cluster_version()
    if version is None:
        raise ServiceError("no PostgreSQL cluster 'main' under /etc/postgresql")
    done = subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action],
                          capture_output=True, text=True, timeout=120, check=False)
    already = action == "start" and "already running" in (done.stderr + done.stdout)
    if done.returncode != 0 and not already:
        raise ServiceError(f"pg_ctlcluster {version} main {action} failed: {done.stderr.strip() or done.stdout}")


def postgres_restart() -> None:
    """Restart the cluster (a fast shutdown: every session is cut, open transactions roll back) and wait for it."""
    _pg_ctlcluster("restart")
    _wait(postgres_up, want=True, what="PostgreSQL")


def ensure_postgres_up() -> None:
    if not postgres_up():
        _pg_ctlcluster("start")
        _wait(postgres_up, want=True, what="PostgreSQL")
