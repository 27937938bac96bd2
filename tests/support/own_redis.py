"""A Redis server of the test's own (a redis-server process on a free loopback port, keeping nothing on disk), for
tests that stop and start Redis mid-test without touching the shared one at 127.0.0.1:6379 that the rest of the
suite and the workers use.

    with OwnRedis(tmp_path) as redis:     # started; redis.url is redis://127.0.0.1:PORT/0
        redis.stop(); ...; redis.start()  # the same port again

`own_redis_unavailable()` says why no server can be started here (None when it can): callers skip with it on the
embedded defaults and FAIL with it under HANGAR_REQUIRE_SERVICES=1 (.ci/run).
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

HOST = "127.0.0.1"
WAIT = 15.0


def own_redis_unavailable() -> str | None:
    if shutil.which("redis-server") is None:
        return "needs redis-server on PATH (Debian: apt-get install redis-server)"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.port = _free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def up(self) -> bool:
        try:
            with socket.create_connection((HOST, self.port), timeout=0.5) as sock:
                sock.settimeout(0.5)
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def _wait(self, want: bool) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.up() == want:
                return
            time.sleep(0.05)
        raise RuntimeError(f"the test's Redis on port {self.port} is not {'up' if want else 'down'} after {WAIT:g} s")

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--bind", HOST, "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait(True)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)
        self.process = None
        self._wait(False)

    def __enter__(self) -> "OwnRedis":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def redis_cache_settings(url: str) -> dict:
    """CACHES as hangar/settings.py builds them for CACHE_URL=url."""
    from hangar.settings import redis_cache

    return redis_cache(url)
