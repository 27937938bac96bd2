"""Shared pieces of the benchmarks that start a server of their own (bench_api.py, bench_editor.py): a free
loopback port, and waiting until the server answers."""
from __future__ import annotations

import socket
import time
import urllib.request


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
