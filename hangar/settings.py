"""Hangar settings, read from environment variables (cookiecutter-django style).

Environment variables:
  DATABASE_URL        default: SQLite file var/hangar.sqlite3 inside the project
  CELERY_BROKER_URL   default: kombu's filesystem transport under var/broker (no extra service)
  HANGAR_BROKER_DIR   the filesystem transport's folder (default var/broker)
  HANGAR_SIMULATOR_MODULES  extra modules registering a simulator (comma-separated; see docs/simulations.md)
  HANGAR_GAME_PACKAGES  more game packages (comma-separated dotted paths), read by rules_engine/systems.py
  SECRET_KEY          required when DEBUG is off
  DEBUG               "1"/"true" to enable; default off
  ALLOWED_HOSTS       comma-separated; default "localhost,127.0.0.1,[::1]"
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from hangar.broker import filesystem_transport_options

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("HANGAR_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate such as "600/minute"; "off" turns that throttle off (benchmarks only)."""
    value = os.environ.get(name, default).strip()
    return None if value.lower() in {"off", "none", ""} else value


DEBUG = env_bool("DEBUG", False)
# pytest (8.2+) sets PYTEST_VERSION: tests run the production settings, minus the HTTPS redirect and the static manifest.
TESTING = "PYTEST_VERSION" in os.environ
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    # PYTEST_VERSION is set by pytest itself (8.2+): the test suite never needs a real secret.
    if DEBUG or env_bool("HANGAR_INSECURE_DEV_KEY", False) or TESTING:
        # The "django-insecure-" prefix makes `check --deploy` refuse it (security.W009) if it ever reaches production.
        SECRET_KEY = "django-insecure-hangar-development-key-do-not-use-in-production"
    else:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off "
                                   "(on a development machine: DEBUG=1, as `python3 dev.py run` sets).")
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", "")  # old keys while rotating (docs/security.md)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Reverse proxies in front of the site (nginx: 1; none: 0). Each appends the address it saw to X-Forwarded-For: the
# throttles count the address the nearest proxy saw (a client cannot dodge them with a forged header), and with a
# proxy the X-Forwarded-Proto it sets tells Django the request came over HTTPS (SECURE_PROXY_SSL_HEADER below).
NUM_PROXIES = int(os.environ.get("HANGAR_NUM_PROXIES", "1"))

INSTALLED_APPS = [
    "hangar.admin.HangarAdminConfig",  # django.contrib.admin, its sign-in throttled with the site's (docs/security.md)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",  # django-csp: the Content-Security-Policy header (its checks; the policy is CONTENT_SECURITY_POLICY)
    "cards",
    "builder",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below)
    "builder.middleware.RequestSizeLimitMiddleware",  # a too-large body gets a JSON 413, not a 400 page
    "builder.middleware.BodyCharsetMiddleware",  # a body in charset=base64 (no text encoding) gets a 400, not a 500
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "builder.middleware.DatabaseUnavailableMiddleware",  # a lost database connection: 503 + Retry-After, not a 500
]

ROOT_URLCONF = "hangar.urls"
WSGI_APPLICATION = "hangar.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'hangar.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A kept connection is checked (SELECT 1) before its first use in each request or Celery task, so after a
        # database restart the site and the workers reconnect instead of failing once on the dead connection.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Simulation workers are separate processes: the SQLite test database must be a FILE they can open (its path
    # reaches them as DATABASE_URL), one per test session (pid) so parallel test runs never share it. IMMEDIATE
    # transactions and a busy timeout let the web process and several workers write without "database is locked".
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test_hangar_{os.getpid()}.sqlite3")}
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 30})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True  # serve straight from app folders when collectstatic has not run

# Uploads: a 10 MB body is refused with a clear 413 (see builder.middleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("HANGAR_MAX_UPLOAD_BYTES", str(2 * 1024 * 1024)))
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": [
        "builder.api.parsers.JSONBodyParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "builder.api.schema.HangarAutoSchema",  # drf-spectacular + the implied error answers
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "builder.throttles.AnonThrottle",  # DRF's, reading the rates at request time (docs/security.md)
        "builder.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_rate("HANGAR_THROTTLE_ANON", "600/minute"),
        "user": env_rate("HANGAR_THROTTLE_USER", "1200/minute"),
        "signup": env_rate("HANGAR_THROTTLE_SIGNUP", "30/hour"),  # API and page sign-ups per client address
        "login": env_rate("HANGAR_THROTTLE_LOGIN", "30/hour"),  # FAILED sign-ins (API, token, page) per address
        "simulations": env_rate("HANGAR_THROTTLE_SIMULATIONS", "30/minute"),  # POST /api/simulations/ per user
        "positions": env_rate("HANGAR_THROTTLE_POSITIONS", "60/minute"),  # POST /api/positions/ and the analysis page
    },
    "NUM_PROXIES": NUM_PROXIES,
    "EXCEPTION_HANDLER": "builder.api.errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Hangar API",
    "DESCRIPTION": "Build, check, share and simulate deck and army lists for HAGMI!, "
    "MechWarrior: Dark Age and Warcaster: Neo-Mechanika.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # two choice sets of fields named "status": a run's keeps its name, an event's is named apart
    "ENUM_NAME_OVERRIDES": {"StatusEnum": "builder.models.RunStatus",
                            "EventStatusEnum": ["open", "locked", "published"]},
}

# The cache holds the API throttles' counters. Default: each process's own memory (one machine, one process is
# exact; P gunicorn processes let a client reach P times a rate). CACHE_URL=redis://host:6379/1 shares them across
# every process and machine (deploy/env.example, docs/deployment.md). While that Redis is down the throttles count
# in each process's memory (builder.throttles.ThrottleCache, docs/security.md "When the cache is down").
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
CACHE_TIMEOUT_SECONDS = float(os.environ.get("HANGAR_CACHE_TIMEOUT", "0.5"))  # connect/read timeout of the cache


def redis_cache(url: str) -> dict:
    """CACHES for a Redis at `url`: short socket timeouts, so an unreachable cache costs a request half a second
    once (then the throttles skip it for a few seconds), never a worker's whole timeout."""
    return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url,
                        "KEY_PREFIX": "hangar",
                        "OPTIONS": {"socket_connect_timeout": CACHE_TIMEOUT_SECONDS,
                                    "socket_timeout": CACHE_TIMEOUT_SECONDS}}}


if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = redis_cache(CACHE_URL)
elif CACHE_URL:
    raise ImproperlyConfigured(f"CACHE_URL: expected redis://host:port/db (or rediss://, unix://), got {CACHE_URL!r}")
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: background simulations (docs/simulations.md). Embedded default: kombu's filesystem transport
# under var/broker (HANGAR_BROKER_DIR), no extra service; production: CELERY_BROKER_URL=redis://...
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
BROKER_DIR = Path(os.environ.get("HANGAR_BROKER_DIR", VAR_DIR / "broker"))
CELERY_BROKER_TRANSPORT_OPTIONS = (
    filesystem_transport_options(BROKER_DIR) if CELERY_BROKER_URL.startswith("filesystem") else {}
)
CELERY_BROKER_CONNECTION_TIMEOUT = float(os.environ.get("CELERY_BROKER_CONNECTION_TIMEOUT", "4"))
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("HANGAR_CELERY_QUEUE", "celery")  # tests use a queue of their own
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Long tasks: with Redis a worker process reserves one chunk at a time. The filesystem transport has no wake-up
# (the worker looks for new messages every 2 s after finishing one), so there each process reserves a few chunks to
# stay busy; chunks lost with a killed worker are re-queued by the watchdog (docs/simulations.md).
CELERY_WORKER_PREFETCH_MULTIPLIER = int(
    os.environ.get("CELERY_WORKER_PREFETCH_MULTIPLIER", "4" if CELERY_BROKER_URL.startswith("filesystem") else "1")
)
CELERY_TASK_SOFT_TIME_LIMIT = 120
CELERY_TASK_TIME_LIMIT = 180

# Simulations (docs/simulations.md).
HANGAR_MAX_GAMES = int(os.environ.get("HANGAR_MAX_GAMES", "100000"))  # games per run (429 above)
HANGAR_MAX_CONCURRENT_RUNS = int(os.environ.get("HANGAR_MAX_CONCURRENT_RUNS", "3"))  # queued/running per user
# Engine work budgets (builder/services/budget.py, docs/api.md "Engine work budgets"), in estimated engine seconds:
# what one web or API request may play while it waits, what one queued run (or a command) may play, and how much
# engine work one anonymous address / one user may ask of the web requests per minute.
HANGAR_WEB_BUDGET_SECONDS = float(os.environ.get("HANGAR_WEB_BUDGET_SECONDS", "1"))
HANGAR_RUN_BUDGET_SECONDS = float(os.environ.get("HANGAR_RUN_BUDGET_SECONDS", "3600"))
HANGAR_WORK_PER_MINUTE_ANON = float(os.environ.get("HANGAR_WORK_PER_MINUTE_ANON", "2"))
HANGAR_WORK_PER_MINUTE_USER = float(os.environ.get("HANGAR_WORK_PER_MINUTE_USER", "10"))
HANGAR_CHUNK_SOFT_TIME_LIMIT = int(os.environ.get("HANGAR_CHUNK_SOFT_TIME_LIMIT", "60"))  # seconds per chunk task
HANGAR_CHUNK_TIME_LIMIT = int(os.environ.get("HANGAR_CHUNK_TIME_LIMIT", "90"))
# A chunk task that raises (a game error, a bug) is played again up to this many times in all, then its run fails
# naming the chunk and the error. Database/broker errors are retried apart from these (builder/tasks.py).
HANGAR_CHUNK_ATTEMPTS = int(os.environ.get("HANGAR_CHUNK_ATTEMPTS", "3"))
HANGAR_BROKER_CHECK_TIMEOUT = float(os.environ.get("HANGAR_BROKER_CHECK_TIMEOUT", "2"))  # seconds, at submit
HANGAR_SIMULATION_STALL_SECONDS = int(os.environ.get("HANGAR_SIMULATION_STALL_SECONDS", "300"))  # watchdog
HANGAR_SIMULATION_MAX_REQUEUES = int(os.environ.get("HANGAR_SIMULATION_MAX_REQUEUES", "3"))  # then: failed
# Plugin hook: extra modules that register a rules_engine Simulator, imported by the Celery app at worker start
# and by the services (comma-separated import paths, e.g. "tests.support.toy_simulator").
HANGAR_SIMULATOR_MODULES = env_list("HANGAR_SIMULATOR_MODULES", "")

# Data sources (docs/data-packages.md "Data sources", docs/security.md "Outbound fetches"): "check for updates" runs
# in a Celery task; each download ends within this many seconds (connect, redirects and reads together), at most
# this many redirects. Fetches are https only; the hosts listed here may also be fetched over http and at a loopback
# or private address (a test server on 127.0.0.1; never set it in production).
HANGAR_DATA_SOURCE_TIMEOUT = float(os.environ.get("HANGAR_DATA_SOURCE_TIMEOUT", "15"))
HANGAR_DATA_SOURCE_MAX_REDIRECTS = int(os.environ.get("HANGAR_DATA_SOURCE_MAX_REDIRECTS", "5"))
HANGAR_DATA_SOURCE_ALLOW_HTTP_HOSTS = env_list("HANGAR_DATA_SOURCE_ALLOW_HTTP_HOSTS", "")

# Production hardening (docs/security.md): `python manage.py check --deploy` is clean when DEBUG is off.
if not DEBUG:
    # Only a proxy may say "this came over HTTPS"; without one (HANGAR_NUM_PROXIES=0) the header is ignored.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if NUM_PROXIES else None
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not TESTING)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # share links carry list ids: never send them to other sites
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp, docs/security.md "Content-Security-Policy"): the site's own scripts, styles,
# images and fonts only; no inline script or style, no eval, no plugins, no framing. A page that needs an exception
# gets it in its view (csp_update), e.g. the API docs' nonce (hangar/api_docs.py). Same in development and tests.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
