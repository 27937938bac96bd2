#!/usr/bin/env python3
"""Hangar's two quick-start commands.

    python3 dev.py run    set everything up, then run the site (http://127.0.0.1:8000) and a local worker
    python3 dev.py test   set everything up, then run the whole test suite, one pytest process per core
                          (extra arguments go to a single pytest run instead: `python3 dev.py test tests/web -q`)
        --services        only the tests marked `services` (CI's second pass, against PostgreSQL and Redis)
        --full            the fuzz and the position round trips at full size (HANGAR_TEST_FULL=1; docs/testing.md)

"Set up" means: a virtualenv in .venv with the pinned requirements (re-installed only when requirements.txt
changes), the game engines compiled with mypyc when their sources changed (plain Python if that fails), the
database migrated and the bundled catalogs loaded; for `test`, also Debian's Chromium and the browser tests' npm
packages (axe-core: `npm ci` into tests/browser/js/node_modules, with Debian's npm installed when missing).
Embedded defaults: SQLite in var/ and kombu's filesystem transport as the Celery broker, so no other service is
needed. Set DATABASE_URL and CELERY_BROKER_URL to use PostgreSQL and Redis instead (see README.md).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
REQUIREMENTS = ROOT / "requirements.txt"
STAMP = VENV / ".requirements.sha256"


def say(message: str) -> None:
    print(f"[hangar] {message}", flush=True)


def run(args: list[str], **kwargs) -> None:
    subprocess.run(args, check=True, cwd=ROOT, **kwargs)


def ensure_venv() -> None:
    if not PYTHON.exists():
        say("creating the virtualenv in .venv")
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        say("installing the pinned requirements")
        run([str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQUIREMENTS)])
        STAMP.write_text(wanted)


CHROMIUM = Path("/usr/bin/chromium")


def apt_install(package: str, why: str) -> bool:
    """Install a Debian package the tests need when we may (root, apt-get); else say what to install."""
    if os.name == "posix" and os.geteuid() == 0 and Path("/usr/bin/apt-get").exists():
        say(f"installing Debian's {package} {why}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, env=env)
        return True
    say(f"Debian's {package} is missing (sudo apt-get install -y {package}); it is needed {why}")
    return False


def ensure_browser() -> None:
    """The browser tests drive Debian's Chromium (never a downloaded browser): install it when it is missing."""
    if not CHROMIUM.exists():
        apt_install("chromium", "for the browser tests")


TEST_JS = ROOT / "tests" / "browser" / "js"  # test-only npm packages (axe-core), never served by the site
TEST_JS_STAMP = TEST_JS / "node_modules" / ".hangar-lock.sha256"


def ensure_test_js() -> None:
    """axe-core for the browser tests' accessibility check (tests/browser/test_layout.py): `npm ci` into
    tests/browser/js/node_modules when it is missing or package-lock.json changed. npm (with Node.js) comes from
    Debian's `npm` package, installed when missing as the browser is."""
    wanted = hashlib.sha256((TEST_JS / "package-lock.json").read_bytes()).hexdigest()
    if TEST_JS_STAMP.exists() and TEST_JS_STAMP.read_text().strip() == wanted:
        return
    if shutil.which("npm") is None and not apt_install("npm", "for the browser tests' axe-core (it brings Node.js)"):
        return
    say("installing the browser tests' npm packages (axe-core) into tests/browser/js/node_modules")
    done = subprocess.run([shutil.which("npm") or "npm", "ci", "--prefix", str(TEST_JS), "--no-audit", "--no-fund",
                           "--loglevel", "error"], cwd=ROOT)
    if done.returncode != 0:
        say("`npm ci --prefix tests/browser/js` failed: the browser tests' accessibility check will fail")
        return
    TEST_JS_STAMP.write_text(wanted)


def build_engine() -> bool:
    """Compile the game engines with mypyc (2-4 times as fast, the same games); skipped when up to date.
    Without a C compiler the build fails and the engine runs as plain Python (rules_engine/compiled.py)."""
    done = subprocess.run([str(PYTHON), "-m", "rules_engine.compiled", "build"], cwd=ROOT)
    if done.returncode != 0:
        say("the engine could not be compiled: it runs as plain Python (slower, same results)")
    return done.returncode == 0


def base_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "hangar.settings")
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str]) -> None:
    run([str(PYTHON), "manage.py", *args], env=env)


def prepare_var() -> None:
    for folder in ("var",):
        (ROOT / folder).mkdir(parents=True, exist_ok=True)


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def command_run(argv: list[str]) -> int:
    ensure_venv()
    prepare_var()
    build_engine()
    env = base_env(DEBUG=os.environ.get("DEBUG", "1"))
    manage("migrate", "--noinput", env=env)
    manage("load_packages", env=env)
    address = argv[0] if argv else os.environ.get("HANGAR_ADDRESS", "127.0.0.1:8000")
    say("starting a local Celery worker (with the simulations watchdog)")
    worker = subprocess.Popen(
        [str(BIN / "celery"), "-A", "hangar", "worker", "--loglevel", "INFO", "--concurrency", "2",
         "-B", "--schedule", str(ROOT / "var" / "celerybeat-schedule")],  # -B: the simulations watchdog, every minute
        cwd=ROOT,
        env=env,
    )
    say(f"starting the site on http://{address}/ (Ctrl-C stops both)")
    server = subprocess.Popen([str(PYTHON), "manage.py", "runserver", address], cwd=ROOT, env=env)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)  # `kill` stops both too, instead of leaving them running
    try:
        while True:
            for name, process in (("worker", worker), ("site", server)):
                code = process.poll()
                if code is not None:
                    say(f"the {name} stopped (exit {code})")
                    return code or 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        return 0
    finally:
        for process in (server, worker):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (server, worker):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def command_test(argv: list[str]) -> int:
    services_only, full = "--services" in argv, "--full" in argv
    argv = [arg for arg in argv if arg not in ("--services", "--full")]
    ensure_venv()
    ensure_browser()
    ensure_test_js()
    prepare_var()
    compiled = build_engine()
    env = base_env(HANGAR_INSECURE_DEV_KEY="1")
    if full:  # docs/testing.md: the sizes each push runs, and what only --full runs
        env["HANGAR_TEST_FULL"] = "1"
    if compiled:  # the tests then check the compiled engine is the one in use, and that it plays as pure Python
        env["HANGAR_ENGINE_EXPECT_COMPILED"] = "1"
    manage("check", env=env)
    where = f" against {env['DATABASE_URL']}" if env.get("DATABASE_URL") else " (SQLite)"
    size = " at full size (HANGAR_TEST_FULL=1)" if full else ""
    if argv:  # the tests asked for, as asked (add `-n 2` for pytest-xdist's processes)
        say("running the tests" + where + size)
        return pytest(argv + (["-m", "services"] if services_only else []), env)
    # The whole suite (or, with --services, the tests marked `services`): pytest-xdist processes, then
    # the few tests that restart a shared service (PostgreSQL, Redis: marked `serial`) on their own, since a
    # restart would cut the other processes' connections.
    # One process more than the cores: the browser tests and the tests that start processes wait on Chromium and on
    # their children much of the time, so a third process keeps a 2-core machine busy (docs/testing.md, measured).
    processes = str(max(2, min((os.cpu_count() or 1) + 1, 5)))
    which = "the tests marked `services`" if services_only else "the test suite"
    say(f"running {which}{where}{size}: {processes} processes, then the `serial` tests alone")
    selected = "services and " if services_only else ""
    # idle processes take work; the 25 slowest tests are listed at the end, to see where CI's time goes
    parallel = pytest(["-n", processes, "--dist", "worksteal", "-m", f"{selected}not serial", "--durations=25"], env)
    alone = pytest(["-m", f"{selected}serial", "-p", "no:xdist"], env)
    return parallel or alone


def pytest(args: list[str], env: dict[str, str]) -> int:
    return subprocess.run([str(PYTHON), "-m", "pytest", *args], cwd=ROOT, env=env).returncode


COMMANDS = {"run": command_run, "test": command_test}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__.strip())
        return 2
    return COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
