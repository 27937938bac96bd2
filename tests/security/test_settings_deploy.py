"""Secrets only from the environment, and `manage.py check --deploy` clean with the production environment of
docs/security.md ("Production environment"). Each case imports the settings in a fresh process with a controlled
environment (pytest's own variables removed: the settings treat PYTEST_VERSION as "running the tests")."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECRET = "q7Vx2mL9pR4tZ8wK1nB6cF3hJ5yD0sA-eG_uT7iO2aW9xC4vN8bM1kL6jH3gF5dS"  # random-looking, test only
# The production environment documented in docs/security.md (and deploy/env.example).
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": SECRET,
    "ALLOWED_HOSTS": "hangar.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://hangar.example.org",
    "DATABASE_URL": "postgres://hangar:unused@db.invalid:5432/hangar",  # never connected to by these checks
    "CELERY_BROKER_URL": "redis://:unused@redis.invalid:6379/0",
}
DROPPED = {"PYTEST_VERSION", "HANGAR_INSECURE_DEV_KEY", "DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE",
           "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
           "HANGAR_NUM_PROXIES", "DATABASE_URL", "CELERY_BROKER_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}
SHOW = """
import io, json, django
from django.core.management import call_command
django.setup()
from django.conf import settings as s
out = io.StringIO()
try:
    call_command("check", deploy=True, fail_level="WARNING", stdout=out, stderr=out)
    check = "ok: " + out.getvalue()
except Exception as error:
    check = "failed: " + out.getvalue() + str(error)
names = ["DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY",
         "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_PROXY_SSL_HEADER", "X_FRAME_OPTIONS",
         "SECURE_CONTENT_TYPE_NOSNIFF", "SECURE_REFERRER_POLICY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
         "SILENCED_SYSTEM_CHECKS"]
values = {name: getattr(s, name) for name in names}
values["NUM_PROXIES"] = s.REST_FRAMEWORK["NUM_PROXIES"]
values["secret_from_env"] = s.SECRET_KEY == __import__("os").environ.get("SECRET_KEY")
print(json.dumps({"check": check, "settings": values}))
"""


def run_python(code: str, **env_vars: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in DROPPED}
    env.update(DJANGO_SETTINGS_MODULE="hangar.settings", **env_vars)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


def show(**env_vars: str) -> dict:
    result = run_python(SHOW, **env_vars)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_documented_production_environment_passes_check_deploy_with_secure_settings():
    shown = show(**PRODUCTION)
    assert shown["check"].startswith("ok: ") and "no issues (0 silenced)" in shown["check"], shown["check"]
    values = shown["settings"]
    assert values["DEBUG"] is False and values["secret_from_env"] is True
    assert values["SECURE_SSL_REDIRECT"] and values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"]
    assert values["SESSION_COOKIE_HTTPONLY"] and values["SECURE_CONTENT_TYPE_NOSNIFF"]
    assert values["SECURE_HSTS_SECONDS"] >= 31_536_000 and values["SECURE_HSTS_INCLUDE_SUBDOMAINS"]
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"] and values["NUM_PROXIES"] == 1
    assert values["X_FRAME_OPTIONS"] == "DENY" and values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["ALLOWED_HOSTS"] == ["hangar.example.org"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://hangar.example.org"]
    assert values["SILENCED_SYSTEM_CHECKS"] == []


def test_without_a_proxy_the_forwarded_proto_header_is_not_trusted():
    """HANGAR_NUM_PROXIES=0 (gunicorn facing the clients): a client could send X-Forwarded-Proto itself."""
    shown = show(**PRODUCTION, HANGAR_NUM_PROXIES="0")
    assert shown["settings"]["SECURE_PROXY_SSL_HEADER"] is None and shown["settings"]["NUM_PROXIES"] == 0
    assert shown["check"].startswith("ok: "), shown["check"]


def test_settings_refuse_to_start_without_a_secret_key_when_debug_is_off():
    result = run_python("import django; django.setup()", **{**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set in the environment" in result.stderr


def test_the_development_key_never_passes_check_deploy():
    """HANGAR_INSECURE_DEV_KEY=1 (dev.py test) without SECRET_KEY uses a public key: --deploy must refuse it."""
    env = {key: value for key, value in PRODUCTION.items() if key != "SECRET_KEY"}
    shown = show(**env, HANGAR_INSECURE_DEV_KEY="1")
    assert shown["check"].startswith("failed: ") and "security.W009" in shown["check"], shown["check"]
    assert shown["settings"]["secret_from_env"] is False


# --- no secret is committed ---------------------------------------------------------------------------------

SCANNED = ["hangar", "builder", "cards", "rules_engine", "deploy", "manage.py", "dev.py", "Procfile", "static",
           "templates"]
SUFFIXES = {".py", ".sh", ".conf", ".service", ".timer", ".example", ".toml", ".cfg", ".ini", ".yml", ".yaml",
            ".json", ".js", ".html", ""}
DEV_KEY_LINE = 'SECRET_KEY = "django-insecure-hangar-development-key-do-not-use-in-production"'
PLACEHOLDER = re.compile(r"^(?:[A-Z_]+|password|\$\{?\w+\}?|unused)$")
RULES = [
    ("a SECRET_KEY literal", re.compile(r"""SECRET_KEY\s*=\s*["']([^"']+)["']""")),
    ("a SECRET_KEY value", re.compile(r"""^\s*SECRET_KEY=(\S+)""", re.M)),
    ("a password in a URL", re.compile(r"""\b[a-z+]+://[^/\s:@"'<>]*:([^@\s/"'<>]+)@""")),
    ("a password literal", re.compile(r"""\bpassword\s*[=:]\s*["']([^"'{}\s]{6,})["']""", re.I)),
    ("a private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----()")),
    ("an AWS key", re.compile(r"\b(AKIA[0-9A-Z]{16})\b")),
]
SECRET_FILES = re.compile(r"(^\.env$|\.pem$|\.key$|^id_(rsa|ed25519|ecdsa)$|\.sqlite3$|\.p12$)")


def scanned_files():
    for entry in SCANNED:
        path = ROOT / entry
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()) if path.exists() else []
        for file in files:
            if "vendor" in file.parts or "__pycache__" in file.parts:
                continue
            yield file


def test_no_secret_is_committed_in_the_code_or_the_deployment_files():
    """Secrets come from the environment only: the code and deploy/ hold placeholders, never a real value. The one
    literal key is the documented development key, refused by `check --deploy`."""
    found = []
    for file in scanned_files():
        relative = file.relative_to(ROOT).as_posix()
        if SECRET_FILES.search(file.name):
            found.append(f"{relative}: a secret-looking file")
            continue
        if file.suffix not in SUFFIXES:
            continue
        text = file.read_text(encoding="utf-8", errors="replace")
        for what, pattern in RULES:
            for match in pattern.finditer(text):
                line = text[: match.start()].count("\n") + 1
                value = match.group(1)
                if what == "a SECRET_KEY literal" and match.group(0) in DEV_KEY_LINE and relative == "hangar/settings.py":
                    continue
                if what == "a SECRET_KEY value" and (value.startswith("change-me") or value.startswith("$")):
                    continue
                if what in ("a password in a URL", "a password literal") and PLACEHOLDER.match(value):
                    continue
                found.append(f"{relative}:{line}: {what}: {match.group(0)[:80]}")
    assert not found, "\n".join(found)
