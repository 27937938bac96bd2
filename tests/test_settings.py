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


def test_cache_url_shares_the_throttle_counters_through_redis():
    """CACHE_URL=redis://... puts the API throttles' counters in Redis, shared by every web process and machine
    (docs/deployment.md); anything else there is refused naming the variable."""
    show = "from django.conf import settings; c = settings.CACHES['default']; print(c['BACKEND'], c.get('LOCATION'))"
    env = {"HANGAR_INSECURE_DEV_KEY": "1", "DEBUG": "1"}
    result = run_manage("shell", "-c", show, CACHE_URL="redis://127.0.0.1:6379/1", **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["django.core.cache.backends.redis.RedisCache", "redis://127.0.0.1:6379/1"]
    result = run_manage("shell", "-c", show, **env)
    assert "LocMemCache" in result.stdout
    result = run_manage("check", CACHE_URL="memcached://127.0.0.1:11211", **env)
    assert result.returncode != 0 and "CACHE_URL: expected redis://" in result.stderr
