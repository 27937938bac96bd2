"""Real Celery worker processes for tests and benchmarks: started in their own process group, always stopped."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CELERY = ROOT / ".venv" / "bin" / "celery"
READY_TIMEOUT = 60.0


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the database Django is connected to (in tests: the test database)."""
    engine, name = settings_dict["ENGINE"], settings_dict["NAME"]
    if engine.endswith("sqlite3"):
        if str(name).startswith(":memory:") or "mode=memory" in str(name):
            raise RuntimeError("worker processes cannot open an in-memory SQLite database; use a file")
        return f"sqlite:///{Path(name).resolve()}"
    if "postgresql" in engine:
        user, password = settings_dict.get("USER") or "", settings_dict.get("PASSWORD") or ""
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host, port = settings_dict.get("HOST") or "127.0.0.1", settings_dict.get("PORT") or 5432
        return f"postgres://{auth}{host}:{port}/{name}"
    raise RuntimeError(f"no DATABASE_URL for the {engine} backend")


def worker_env(*, database: str, broker_url: str, broker_dir: Path | None, queue: str,
               simulator_modules: str = "tests.support.toy_simulator",
               extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_VERSION"}
    env.update({
        "DJANGO_SETTINGS_MODULE": "hangar.settings",
        "HANGAR_INSECURE_DEV_KEY": "1",
        "DATABASE_URL": database,
        "CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker_url,
        "HANGAR_CELERY_QUEUE": queue,
        "HANGAR_SIMULATOR_MODULES": simulator_modules,
        "PYTHONPATH": str(ROOT),
    })
    if broker_dir is not None:
        env["HANGAR_BROKER_DIR"] = str(broker_dir)
    env.update(extra or {})
    return env


class Workers:
    """`celery -A hangar worker --concurrency 1` processes; `kill(i)` SIGKILLs one, `stop()` ends them all.
    `names[i]` is worker i's node name (the `worker` of the chunks it stores)."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env, self.log_dir = env, log_dir
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self.names: list[str] = []

    def start(self, count: int) -> None:
        first = len(self.processes)
        for number in range(first, first + count):
            log = self.log_dir / f"worker{number}.log"
            self.logs.append(log)
            self.names.append(f"w{number}-{os.getpid()}@{socket.gethostname()}")  # Celery's %h is the host name
            self.processes.append(subprocess.Popen(
                [str(CELERY), "-A", "hangar", "worker", "--concurrency", "1", "--pool", "prefork",
                 "-n", self.names[number], "--without-gossip", "--without-mingle", "--loglevel", "INFO"],
                cwd=ROOT, env=self.env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
            ))
        for number in range(first, first + count):
            self._wait_ready(number)

    def _wait_ready(self, number: int) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.processes[number].poll() is not None:
                raise RuntimeError(f"worker {number} exited at start:\n{self.log(number)}")
            if "ready." in self.log(number):
                return
            time.sleep(0.1)
        raise RuntimeError(f"worker {number} not ready after {READY_TIMEOUT} s:\n{self.log(number)}")

    def log(self, number: int) -> str:
        return self.logs[number].read_text(errors="replace")

    def number_of(self, pid: int) -> int:
        """Which worker a process (the worker or one of its pool children: same process group) belongs to."""
        group = os.getpgid(pid)
        for number, process in enumerate(self.processes):
            if process.pid == group:
                return number
        raise LookupError(f"process {pid} (group {group}) is none of the workers {[p.pid for p in self.processes]}")

    def alive(self, number: int) -> bool:
        return self.processes[number].poll() is None

    def kill(self, number: int) -> None:
        """SIGKILL the worker and its pool child (its process group): no warm shutdown, no ack."""
        process = self.processes[number]
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop(self) -> None:
        """End every worker and its pool children at once (SIGKILL to each process group): tests never wait for a
        warm shutdown, and nothing is left running whatever the test did."""
        for number in range(len(self.processes)):
            self.kill(number)
