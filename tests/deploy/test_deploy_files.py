"""The deployment files (Procfile, deploy/) run what they say, and the backup can be restored (docs/deployment.md).

- The Procfile's and the systemd units' commands name programs that the pinned requirements install, modules that
  exist, management commands that exist, and options those programs accept (parsed by the programs' own parsers).
- `gunicorn --check-config -c deploy/gunicorn.conf.py hangar.wsgi` loads the site with a production environment.
- The units pass `systemd-analyze verify` when systemd-analyze exists, and always have the keys the docs rely on
  (warm shutdown of workers, readiness of the web tier, one environment file).
- deploy/env.example documents every environment variable the code reads (a new setting without docs fails here),
  and nothing that no code reads.
- pg_backup.sh / pg_restore.sh: rotation, refusals and all-or-nothing behaviour with stand-in pg tools (any
  database), and a real backup and restore drill on PostgreSQL (CI phase 2): the restored copy has the same rows.
- Upgrades: a chunk of a run started under another ENGINE_VERSION fails the run with the reason, never mixes engines.
"""
from __future__ import annotations

import ast
import configparser
import importlib.util
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.support.simulations import published, toy  # noqa: F401  (fixtures of the engine-version test)

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
VENV_BIN = ROOT / ".venv" / "bin"
INSTALL_DIR = "/srv/hangar"  # where the units expect the project; mapped onto this checkout here
REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"
PRODUCTION_ENV = {
    "SECRET_KEY": "deploy-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGH",
    "DEBUG": "0",
    "ALLOWED_HOSTS": "hangar.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://hangar.example.org",
}
MAIN_TABLES = ["auth_user", "cards_gamesystem", "cards_datapackage", "cards_card", "cards_format", "cards_opponent",
               "builder_gamelist", "builder_listentry", "builder_listrevision", "builder_simulationrun",
               "builder_simulationchunk"]


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment minus the test-only switches, plus overrides: what a deployed process sees."""
    env = {key: value for key, value in os.environ.items()
           if key not in {"HANGAR_INSECURE_DEV_KEY", "DEBUG", "PYTEST_VERSION", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(overrides)
    return env


# --- reading the files --------------------------------------------------------------------------------------------


def env_example() -> dict[str, str]:
    """Name -> example value of every variable in deploy/env.example (set or commented out)."""
    found = {}
    for line in (DEPLOY / "env.example").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^#?\s?([A-Z][A-Z0-9_]*)=(\S*)$", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def procfile() -> dict[str, str]:
    processes = {}
    for number, line in enumerate((ROOT / "Procfile").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, command = line.partition(":")
        assert sep and re.fullmatch(r"[a-z][a-z0-9_-]*", name), f"Procfile line {number} is not 'name: command'"
        assert name not in processes, f"Procfile line {number}: process {name!r} twice"
        processes[name] = command.strip()
    return processes


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",), comment_prefixes=("#", ";"))
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string((UNITS / name).read_text(encoding="utf-8"), source=name)
    return parser


def expand(command: str, defaults: dict[str, str]) -> str:
    """Shell/systemd variable references: ${X:-default} -> default, ${X} -> defaults[X] (refused if unknown)."""
    command = re.sub(r"\$\{([A-Z][A-Z0-9_]*):-([^}]*)\}", lambda m: m.group(2), command)

    def known(match: re.Match) -> str:
        assert match.group(1) in defaults, f"{match.group(1)} in {command!r} has no value in env.example or the unit"
        return defaults[match.group(1)] or "1"

    return re.sub(r"\$\{([A-Z][A-Z0-9_]*)\}", known, command)


# --- checking a command ------------------------------------------------------------------------------------------


def check_manage(args: list[str], where: str) -> None:
    from django.core.management import CommandError, get_commands, load_command_class

    assert args[0] == "manage.py" and (ROOT / "manage.py").is_file(), f"{where}: expected python manage.py ..."
    name, rest = args[1], args[2:]
    commands = get_commands()
    assert name in commands, f"{where}: no management command {name!r}"
    parser = load_command_class(commands[name], name).create_parser("manage.py", name)
    try:
        parser.parse_args(rest)
    except (SystemExit, CommandError):
        pytest.fail(f"{where}: manage.py {name} refuses the arguments {rest}")


def check_gunicorn(args: list[str], where: str) -> None:
    from gunicorn.config import Config

    try:
        parsed = Config().parser().parse_args(args)
    except SystemExit:
        pytest.fail(f"{where}: gunicorn refuses the arguments {args}")
    assert parsed.config == "deploy/gunicorn.conf.py", f"{where}: gunicorn must use -c deploy/gunicorn.conf.py"
    assert (ROOT / parsed.config).is_file()
    assert parsed.args == ["hangar.wsgi"], f"{where}: the WSGI module should be hangar.wsgi, got {parsed.args}"
    assert importlib.util.find_spec("hangar.wsgi") is not None


def check_celery(args: list[str], where: str) -> str:
    """Parse with Celery's own command line (click): unknown options and bad values are refused. Returns the
    sub-command (worker, beat)."""
    import click
    from celery import Celery
    from celery.app.utils import find_app
    from celery.bin.base import CLIContext
    from celery.bin.celery import celery as cli

    from hangar.celery import app

    try:
        context = cli.make_context("celery", list(args), obj=CLIContext(app=app, no_color=True, workdir=None))
        protected = context._protected_args if hasattr(context, "_protected_args") else context.protected_args
        rest = [*protected, *context.args]
        name, command, rest = cli.resolve_command(context, rest)
        command.make_context(name, rest, parent=context)
    except click.ClickException as exc:
        pytest.fail(f"{where}: celery refuses {args}: {exc.format_message()}")
    found = find_app(context.params["app"])  # how `celery -A NAME` finds the app: NAME.app, NAME.celery:app, ...
    assert isinstance(found, Celery), f"{where}: -A {context.params['app']} finds no Celery app"
    return name


def check_command(command: str, where: str) -> tuple[str, list[str]]:
    """(program, arguments) after checking that the program exists and accepts the arguments."""
    argv = shlex.split(command)
    program = argv[0]
    if program.startswith(INSTALL_DIR + "/"):
        path = ROOT / program[len(INSTALL_DIR) + 1:]
        assert path.is_file() and os.access(path, os.X_OK), f"{where}: {program} is not an executable of the project"
        program = path.name
    elif program.startswith("/"):
        assert os.access(program, os.X_OK), f"{where}: {program} does not exist on this machine"
    else:
        assert (VENV_BIN / program).is_file(), f"{where}: {program} is not installed by requirements.txt in .venv"
    if program.startswith("python"):
        check_manage(argv[1:], where)
    elif program == "gunicorn":
        check_gunicorn(argv[1:], where)
    elif program == "celery":
        check_celery(argv[1:], where)
    return program, argv[1:]


# --- Procfile -----------------------------------------------------------------------------------------------------


def test_procfile_runs_release_web_one_beat_and_workers_with_commands_that_exist():
    processes = procfile()
    assert set(processes) == {"release", "web", "worker", "beat"}
    defaults = env_example()
    release = [check_command(expand(step, defaults), "Procfile release") for step in processes["release"].split("&&")]
    assert [(program, args[1]) for program, args in release] == [("python", "migrate"), ("python", "load_packages")]
    web = [check_command(expand(step.strip().removeprefix("exec "), defaults), "Procfile web")
           for step in processes["web"].split("&&")]
    assert [program for program, _args in web] == ["python", "gunicorn"] and web[0][1][1] == "collectstatic"
    worker = check_command(expand(processes["worker"], defaults), "Procfile worker")
    assert worker[0] == "celery" and "worker" in worker[1]
    beat = check_command(expand(processes["beat"], defaults), "Procfile beat")
    assert beat[0] == "celery" and "beat" in beat[1]


def test_a_misspelt_option_in_a_process_command_is_caught():
    """The checks above can fail: the programs' own parsers refuse what they would refuse at start."""
    refused = (AssertionError, pytest.fail.Exception)
    with pytest.raises(refused, match="concurency"):
        check_command("celery -A hangar worker --concurency 2", "example")
    with pytest.raises(refused, match="no management command 'load_package'"):
        check_command("python manage.py load_package", "example")
    with pytest.raises(refused, match="refuses"):
        check_command("python manage.py migrate --no-input-please", "example")
    with pytest.raises(refused, match="not installed by requirements.txt"):
        check_command("uwsgi --ini hangar.ini", "example")


# --- gunicorn -----------------------------------------------------------------------------------------------------


def test_gunicorn_check_config_loads_the_site_with_production_settings(tmp_path):
    env = clean_env(**PRODUCTION_ENV, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", HANGAR_VAR_DIR=str(tmp_path))
    result = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "--check-config", "-c", "deploy/gunicorn.conf.py", "hangar.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Error" not in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_gunicorn_without_a_secret_key_refuses_to_start(tmp_path):
    env = clean_env(**{**PRODUCTION_ENV, "SECRET_KEY": ""}, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "--check-config", "-c", "deploy/gunicorn.conf.py", "hangar.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def load_gunicorn_conf(monkeypatch, **env: str) -> dict:
    import runpy

    for name in [name for name in os.environ if name.startswith("GUNICORN_")]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))


def test_gunicorn_listens_on_loopback_by_default_and_takes_its_sizes_from_the_environment(monkeypatch):
    conf = load_gunicorn_conf(monkeypatch)
    assert conf["bind"] == ["127.0.0.1:8000"]  # never the internet by default: nginx is the only client
    assert conf["workers"] == 2 * os.cpu_count() + 1 and conf["worker_class"] == "sync"
    assert conf["forwarded_allow_ips"] == "127.0.0.1,::1" and conf["preload_app"] is False
    conf = load_gunicorn_conf(monkeypatch, GUNICORN_WORKERS="3", GUNICORN_BIND="10.0.0.5:8000, 127.0.0.1:8000")
    assert conf["workers"] == 3 and conf["bind"] == ["10.0.0.5:8000", "127.0.0.1:8000"]


def test_a_bad_gunicorn_number_names_the_variable(monkeypatch):
    with pytest.raises(SystemExit, match="GUNICORN_WORKERS='three' is not a whole number"):
        load_gunicorn_conf(monkeypatch, GUNICORN_WORKERS="three")


# --- systemd ------------------------------------------------------------------------------------------------------


SERVICES = ["hangar-web.service", "hangar-worker@.service", "hangar-beat.service", "hangar-backup.service"]


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_runs_as_hangar_from_the_project_with_the_one_environment_file(name):
    service = unit(name)["Service"]
    assert service["User"] == "hangar" and service["Group"] == "hangar"
    assert service["WorkingDirectory"] == INSTALL_DIR
    assert service["EnvironmentFile"] == "/etc/hangar/hangar.env"
    assert unit(name)["Unit"]["Description"]


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_command_exists_and_parses(name):
    parsed = unit(name)
    defaults = {**env_example()}
    for line in parsed["Service"].get("Environment", "").split():
        key, _, value = line.partition("=")
        defaults[key] = value
    command = parsed["Service"]["ExecStart"].replace("%i", "1").replace("%H", "host")
    program, args = check_command(expand(command, defaults), name)
    expected = {"hangar-web.service": "gunicorn", "hangar-worker@.service": "celery",
                "hangar-beat.service": "celery", "hangar-backup.service": "pg_backup.sh"}[name]
    assert program == expected


def test_the_web_unit_waits_for_gunicorn_and_reloads_gracefully():
    service = unit("hangar-web.service")["Service"]
    assert service["Type"] == "notify"  # gunicorn's arbiter sends READY=1
    assert service["ExecReload"] == "/bin/kill -s HUP $MAINPID"
    assert service["KillMode"] == "mixed"
    assert procfile()["web"].split()[-1] == service["ExecStart"].split()[-1] == "hangar.wsgi"


def test_workers_stop_warm_and_wait_longer_than_a_chunk_may_run():
    from django.conf import settings

    parsed = unit("hangar-worker@.service")
    service = parsed["Service"]
    # SIGTERM to the main process only: Celery's warm shutdown finishes the chunk in progress.
    assert service["KillMode"] == "mixed" and service["KillSignal"] == "SIGTERM"
    assert int(service["TimeoutStopSec"]) > settings.HANGAR_CHUNK_TIME_LIMIT
    assert "-n worker%i@%H" in service["ExecStart"]  # unique names: worker1@host, worker2@host, ...
    assert parsed["Install"]["WantedBy"] == "multi-user.target"


def test_one_beat_with_its_schedule_in_the_state_directory():
    service = unit("hangar-beat.service")["Service"]
    assert "--schedule /var/lib/hangar/celerybeat-schedule" in service["ExecStart"]
    assert service["StateDirectory"] == "hangar"
    assert "EXACTLY ONE" in (UNITS / "hangar-beat.service").read_text(encoding="utf-8")


def test_the_backup_timer_starts_the_backup_service_daily():
    timer = unit("hangar-backup.timer")
    assert timer["Timer"]["Unit"] == "hangar-backup.service" and (UNITS / timer["Timer"]["Unit"]).is_file()
    assert timer["Timer"]["Persistent"] == "true" and timer["Timer"]["OnCalendar"].startswith("*-*-* ")
    assert unit("hangar-backup.service")["Service"]["Type"] == "oneshot"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here; the "
                    "units are still parsed and checked key by key by the tests above")
def test_systemd_analyze_verify_finds_nothing(tmp_path):
    for path in UNITS.iterdir():  # the units with /srv/hangar mapped onto this checkout, so executables exist
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8").replace(INSTALL_DIR, str(ROOT)))
    shutil.copy(tmp_path / "hangar-worker@.service", tmp_path / "hangar-worker@1.service")
    names = ["hangar-web.service", "hangar-worker@1.service", "hangar-beat.service", "hangar-backup.service",
             "hangar-backup.timer"]
    result = subprocess.run(["systemd-analyze", "verify", *(str(tmp_path / name) for name in names)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 0 and output == "", output
    calendar = subprocess.run(["systemd-analyze", "calendar", unit("hangar-backup.timer")["Timer"]["OnCalendar"]],
                              capture_output=True, text=True, timeout=30)
    assert calendar.returncode == 0, calendar.stderr


# --- env.example --------------------------------------------------------------------------------------------------


def _is_environ(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ"
            and isinstance(node.value, ast.Name) and node.value.id == "os")


def _environ_key(node: ast.AST) -> ast.AST | None:
    """The key expression of a read of the environment: os.environ.get/setdefault/pop(K), os.getenv(K),
    os.environ[K], K in os.environ."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        if node.func.attr in {"get", "setdefault", "pop"} and _is_environ(node.func.value):
            return node.args[0]
        if node.func.attr == "getenv" and isinstance(node.func.value, ast.Name) and node.func.value.id == "os":
            return node.args[0]
    if isinstance(node, ast.Subscript) and _is_environ(node.value) and isinstance(node.ctx, ast.Load):
        return node.slice
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and _is_environ(node.comparators[0])):
        return node.left
    return None


def python_env_reads(path: Path) -> set[str]:
    """Variable names a module reads: directly, or through a helper of the module (env_bool("DEBUG"), ...) whose
    parameter is the name it looks up."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    helpers: dict[str, int] = {}
    for function in (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)):
        params = [arg.arg for arg in function.args.args]
        for node in ast.walk(function):
            key = _environ_key(node)
            if isinstance(key, ast.Name) and key.id in params:
                helpers[function.name] = params.index(key.id)
    names = set()
    for node in ast.walk(tree):
        key = _environ_key(node)
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            names.add(key.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
            position = helpers[node.func.id]
            if len(node.args) > position and isinstance(node.args[position], ast.Constant):
                names.add(node.args[position].value)
    return names


def shell_env_reads(path: Path) -> set[str]:
    """${NAME}, ${NAME:-default}, ${NAME:?...} references to upper-case variables in a script, Procfile or unit."""
    text = path.read_text(encoding="utf-8")
    names = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)(?:[:%#][^}]*)?\}", text))
    return {name for name in names if not name.startswith("BASH_")}


def project_python_modules() -> list[Path]:
    modules = [DEPLOY / "gunicorn.conf.py", ROOT / "manage.py"]
    for package in ("hangar", "cards", "builder", "rules_engine"):
        modules += [path for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts]
    return modules


def env_reads() -> dict[str, set[str]]:
    reads: dict[str, set[str]] = {}
    for path in project_python_modules():
        for name in python_env_reads(path):
            reads.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    for path in [ROOT / "Procfile", *UNITS.iterdir(), *DEPLOY.rglob("*.sh")]:
        for name in shell_env_reads(path):
            reads.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return reads


def test_the_scanner_sees_every_way_settings_read_the_environment():
    names = python_env_reads(ROOT / "hangar" / "settings.py")
    # os.environ.get, env_bool(...), env_list(...), env_rate(...), `in os.environ`
    assert {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "HANGAR_THROTTLE_ANON", "PYTEST_VERSION"} <= names


def test_env_example_documents_every_variable_the_code_reads():
    reads = env_reads()
    documented = env_example()
    missing = {name: sorted(files) for name, files in reads.items() if name not in documented}
    assert not missing, f"document these in deploy/env.example (read by): {missing}"


def test_env_example_documents_nothing_that_no_code_reads():
    stale = sorted(set(env_example()) - set(env_reads()))
    assert not stale, f"deploy/env.example documents variables nothing reads: {stale}"


def test_env_example_has_the_required_production_settings_set():
    text = (DEPLOY / "env.example").read_text(encoding="utf-8")
    for name in ("SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "ALLOWED_HOSTS"):
        assert re.search(rf"^{name}=\S+", text, re.M), f"{name} must be set (not commented) in env.example"
    assert re.search(r"^DATABASE_URL=postgres://", text, re.M) and re.search(r"^CELERY_BROKER_URL=redis://", text, re.M)
    assert not re.search(r"^DEBUG=1", text, re.M) and not re.search(r"^HANGAR_INSECURE_DEV_KEY=1", text, re.M)
    values = [line for line in text.splitlines() if re.match(r"^#?\s?[A-Z][A-Z0-9_]*=", line)]
    assert not [line for line in values if "$" in line or " " in line.partition("=")[2]], \
        "no $ or spaces in env.example values: systemd and the shell would read them differently"


# --- nginx --------------------------------------------------------------------------------------------------------


def test_nginx_sends_the_headers_django_trusts_for_one_proxy():
    from django.conf import settings as django_settings

    lines = (DEPLOY / "nginx" / "hangar.conf").read_text(encoding="utf-8").splitlines()
    conf = "\n".join(line.split("#", 1)[0] for line in lines)  # directives only, no comments
    # The production settings (DEBUG off, as here) trust X-Forwarded-Proto: https from the proxy.
    assert django_settings.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert re.search(r"proxy_set_header\s+X-Forwarded-Proto\s+\$scheme;", conf)
    # nginx appends the address it saw; the throttles count that last address (HANGAR_NUM_PROXIES=1, one proxy),
    # so a client's own X-Forwarded-For changes nothing. Passing the client's header through would let it choose.
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;", conf)
    assert "$http_x_forwarded_for" not in conf
    assert django_settings.REST_FRAMEWORK.get("NUM_PROXIES", 1) == 1
    assert re.search(r"proxy_set_header\s+Host\s+\$host;", conf)
    assert f"alias {INSTALL_DIR}/staticfiles/;" in conf and str(django_settings.STATIC_ROOT).endswith("staticfiles")
    assert re.search(r"listen 443 ssl", conf) and re.search(r"return 301 https://", conf)


# --- backup scripts with stand-in pg tools (any database) ---------------------------------------------------------


FAKE_PG_DUMP = """#!/usr/bin/env bash
# stand-in pg_dump: writes a fake archive to --file=..., or fails when FAKE_PG_DUMP_FAIL is set
for arg in "$@"; do case "$arg" in --file=*) out="${arg#--file=}" ;; esac; done
if [[ -n "${FAKE_PG_DUMP_FAIL:-}" ]]; then echo partial > "$out"; echo "pg_dump: error: connection refused" >&2; exit 1; fi
printf 'PGDMP fake archive %s\\n' "$RANDOM" > "$out"
"""
FAKE_PG_RESTORE = """#!/usr/bin/env bash
# stand-in pg_restore: only --list FILE, which succeeds for a fake archive
[[ "$1" == --list ]] && head -c 5 "$2" | grep -q PGDMP
"""


@pytest.fixture
def fake_pg(tmp_path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("pg_dump", FAKE_PG_DUMP), ("pg_restore", FAKE_PG_RESTORE)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    return clean_env(PATH=f"{bin_dir}:{os.environ['PATH']}", DATABASE_URL="postgres://hangar@127.0.0.1:1/hangar",
                     HANGAR_BACKUP_DIR=str(tmp_path / "backups"), HANGAR_ENV_FILE=str(tmp_path / "no-such.env"))


def run_script(name: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(DEPLOY / "backup" / name), *args], env=env, capture_output=True, text=True, timeout=60)


def dumps(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if not path.name.startswith("."))


def test_backups_are_private_and_only_the_newest_are_kept(fake_pg, tmp_path):
    written = []
    for _ in range(3):
        result = run_script("pg_backup.sh", "--keep", "2", env=fake_pg)
        assert result.returncode == 0, result.stderr
        written.append(Path(result.stdout.strip().splitlines()[-1]))
    folder = tmp_path / "backups"
    assert dumps(folder) == sorted(path.name for path in written[1:])  # the oldest was rotated away
    assert all(re.fullmatch(r"hangar-\d{8}T\d{6}\.\d{3}Z\.dump", name) for name in dumps(folder))
    assert stat.S_IMODE(written[-1].stat().st_mode) == 0o600  # a dump holds password hashes
    assert "1 older removed" in result.stderr


def test_a_failed_dump_leaves_no_file_and_rotates_nothing(fake_pg, tmp_path):
    for _ in range(2):
        assert run_script("pg_backup.sh", "--keep", "2", env=fake_pg).returncode == 0
    before = dumps(tmp_path / "backups")
    result = run_script("pg_backup.sh", "--keep", "1", env={**fake_pg, "FAKE_PG_DUMP_FAIL": "1"})
    assert result.returncode == 1
    assert "pg_dump failed" in result.stderr and "none rotated" in result.stderr
    assert sorted(path.name for path in (tmp_path / "backups").iterdir() if path.suffix != ".lock") == before


@pytest.mark.parametrize("env_change, args, message", [
    ({"DATABASE_URL": "sqlite:///var/hangar.sqlite3"}, [], "not PostgreSQL"),
    ({"DATABASE_URL": ""}, [], "DATABASE_URL is not set"),
    ({}, ["--keep", "0"], "must be 1 or more"),
    ({}, ["--kep", "3"], "unknown argument '--kep'"),
])
def test_pg_backup_refuses_bad_configuration_with_the_reason(fake_pg, env_change, args, message):
    result = run_script("pg_backup.sh", *args, env={**fake_pg, **env_change})
    assert result.returncode == 2 and message in result.stderr, result.stderr


@pytest.mark.parametrize("args, message", [
    (["only-one-argument"], "expected a dump file and a target database URL"),
    (["{dump}", "sqlite:///x.sqlite3"], "not a PostgreSQL URL"),
    (["{dump}", "postgres://u@h:5432/bad;name"], "not a plain name"),
    (["{missing}", "postgres://u@h:5432/restored"], "no dump file"),
    (["{not_a_dump}", "postgres://u@h:5432/restored"], "not a pg_dump custom-format archive"),
    (["--clean", "{dump}", "postgres://u@h:5432/restored"], "unknown option '--clean'"),
])
def test_pg_restore_refuses_bad_input_before_touching_a_database(fake_pg, tmp_path, args, message):
    dump = Path(run_script("pg_backup.sh", env=fake_pg).stdout.strip().splitlines()[-1])
    not_a_dump = tmp_path / "notes.txt"
    not_a_dump.write_text("hello")
    paths = {"dump": dump, "missing": tmp_path / "missing.dump", "not_a_dump": not_a_dump}
    result = run_script("pg_restore.sh", *(arg.format(**paths) for arg in args), env=fake_pg)
    assert result.returncode == 2 and message in result.stderr, result.stderr


def test_the_shell_scripts_parse():
    for script in [*DEPLOY.rglob("*.sh")]:
        assert os.access(script, os.X_OK), f"{script} is not executable"
        result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, f"{script}: {result.stderr}"


def test_upgrade_refuses_an_unknown_phase_and_names_the_phases():
    result = subprocess.run([str(DEPLOY / "upgrade.sh"), "migrate-everything"], capture_output=True, text=True,
                            timeout=30, env=clean_env(HANGAR_ENV_FILE="/nonexistent", HANGAR_HOME=str(ROOT)))
    assert result.returncode == 2
    assert "unknown phase 'migrate-everything'" in result.stderr and "start-workers" in result.stderr


# --- the real drill on PostgreSQL (CI phase 2) --------------------------------------------------------------------


def row_counts(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn, conn.cursor() as cursor:
        counts = {}
        for table in MAIN_TABLES:
            cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 (fixed table names)
            counts[table] = cursor.fetchone()[0]
        return counts


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server_url}/postgres".replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.services
def test_backup_and_restore_drill_gives_the_same_rows(transactional_db, tmp_path):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from builder import services
    from tests.support.workers import database_url

    if connection.vendor != "postgresql":
        assert not REQUIRE_SERVICES, "HANGAR_REQUIRE_SERVICES=1: the backup/restore drill needs DATABASE_URL=postgres://"
        pytest.skip("the backup/restore drill needs PostgreSQL (pg_dump/pg_restore); it runs in CI phase 2 "
                    "(DATABASE_URL=postgres://...)")
    for tool in ("pg_dump", "pg_restore", "psql", "createdb"):
        assert shutil.which(tool), f"{tool} is missing (apt-get install postgresql-client)"

    call_command("load_packages", stdout=open(os.devnull, "w"))
    owner = get_user_model().objects.create_user(username="drill", password="hangar-Drill-pw-42")
    for name in ("akane-assault", "sample-fortress"):
        document = (ROOT / "cards" / "packages" / "hagmi" / "lists" / f"{name}.json").read_text(encoding="utf-8")
        services.list_create(owner=owner, document=json.loads(document), visibility="public")
    source = database_url(connection.settings_dict)
    expected = row_counts(source)
    assert expected["cards_card"] > 50 and expected["builder_listentry"] > 10 and expected["builder_listrevision"] == 2

    env = clean_env(DATABASE_URL=source, HANGAR_BACKUP_DIR=str(tmp_path / "backups"),
                    HANGAR_ENV_FILE=str(tmp_path / "none.env"))
    backup = run_script("pg_backup.sh", "--keep", "3", env=env)
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip().splitlines()[-1])
    assert dump.is_file() and dump.stat().st_size > 1000

    server, scratch = source.rsplit("/", 1)[0], f"hangar_drill_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    target = f"{server}/{scratch}"
    try:
        restore = run_script("pg_restore.sh", "--create", str(dump), target, env=env)
        assert restore.returncode == 0, restore.stderr
        assert row_counts(target) == expected
        printed = dict(line.split("\t") for line in restore.stdout.strip().splitlines())
        assert int(printed["cards_card"]) == expected["cards_card"]
        # A second restore into the now full database is refused without --force, and changes nothing.
        again = run_script("pg_restore.sh", str(dump), target, env=env)
        assert again.returncode == 2 and "refusing to restore over them" in again.stderr
        assert row_counts(target) == expected
    finally:
        drop_database(server, scratch)


# --- upgrades: one engine per result ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_chunk_of_a_run_started_under_another_engine_version_fails_the_run_with_the_reason(
    owner, published, toy, monkeypatch
):
    """Upgrade hazard (docs/deployment.md, "Upgrades"): chunks still queued from before an ENGINE_VERSION change
    reach the new workers; mixing their games with the stored ones would give a result of no engine at all."""
    import rules_engine.simulation as engine
    from builder import services
    from builder.models import RunStatus, SimulationChunk
    from tests.support.toy_simulator import toy_snapshot

    run = services.simulation_start(user=owner, snapshot=toy_snapshot(), games=1200, seed=7)
    assert services.simulation_chunk_play(run_id=run.pk, index=0, worker="old@host") is True
    old_version = run.engine_version
    monkeypatch.setattr(engine, "ENGINE_VERSION", "2099.1.0")  # the new release's workers
    assert services.simulation_chunk_play(run_id=run.pk, index=1, worker="new@host") is False
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert f"upgraded from {old_version} to 2099.1.0" in run.error and "Start the simulation again" in run.error
    assert list(SimulationChunk.objects.filter(run=run).values_list("index", flat=True)) == [0]
    again = services.simulation_start(user=owner, snapshot=toy_snapshot(), games=1200, seed=7)
    assert again.pk != run.pk and again.engine_version == "2099.1.0"  # a failed run is never reused

