"""Settings come from the environment; production settings pass `manage.py check --deploy`."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args, **env_overrides):
    env = {key: value for key, value in os.environ.items() if key not in {"HANGAR_INSECURE_DEV_KEY", "DEBUG", "PYTEST_VERSION", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_production_settings_pass_check_deploy():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY="a-production-secret-key-that-is-long-and-random-3f9a8b7c6d5e4f3a2b1c",
        DEBUG="0",
        ALLOWED_HOSTS="hangar.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_missing_secret_key_is_refused_in_production():
    env = {"DEBUG": "0"}
    result = run_manage("check", **env, SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
