"""Gunicorn settings for Hangar's web tier (docs/deployment.md).

    gunicorn -c deploy/gunicorn.conf.py hangar.wsgi

Every value can be changed from the environment (deploy/env.example). Gunicorn sits behind nginx
(deploy/nginx/hangar.conf), which terminates TLS and sets X-Forwarded-Proto; bind it to loopback or to a private
address that only the nginx machines can reach, never to the internet: Django trusts X-Forwarded-Proto
(SECURE_PROXY_SSL_HEADER) and X-Forwarded-For (the throttles) because only nginx can talk to it.

Workers: sync workers, one request at a time each. The site's requests are short and CPU-bound (validation,
catalog pages, JSON): 2 × cores + 1 on a machine that runs only the web tier. Do not put Celery workers on the same
cores (they use a whole core each for seconds at a time; docs/deployment.md, "Sizing").
"""
from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise SystemExit(f"deploy/gunicorn.conf.py: {name}={value!r} is not a whole number") from None
    if number < 0:
        raise SystemExit(f"deploy/gunicorn.conf.py: {name}={value!r} must be 0 or more")
    return number


wsgi_app = "hangar.wsgi:application"
proc_name = "hangar-web"

# Where nginx finds us. Several addresses: comma-separated ("127.0.0.1:8000,10.0.0.11:8000").
bind = [address.strip() for address in os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",") if address.strip()]

workers = _int("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1) or 1
worker_class = "sync"
threads = _int("GUNICORN_THREADS", 1) or 1
timeout = _int("GUNICORN_TIMEOUT", 30)  # a request taking longer is killed (and logged): the site has no long requests
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 25)  # on SIGTERM/HUP: finish the requests in flight
keepalive = _int("GUNICORN_KEEPALIVE", 5)  # nginx keeps connections to us open (upstream keepalive)
# Recycle a worker after this many requests (plus jitter, so they do not all restart at once): caps slow leaks.
max_requests = _int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 200)

# The app is NOT preloaded: `systemctl reload hangar-web` (SIGHUP) starts new workers that import the new code.
preload_app = False
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"  # the workers' heartbeat files: never block on a slow disk

# nginx sets X-Forwarded-Proto (and X-Forwarded-For) and is the only client; gunicorn believes the scheme header
# from these addresses only (comma-separated; "*" when nginx is on another machine of a private network).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# Logs to stdout/stderr: journald (systemd) or the Procfile runner collects them.
accesslog = "-" if os.environ.get("GUNICORN_ACCESS_LOG", "1").strip().lower() not in {"0", "false", "no", "off"} else None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info").lower()
# client (X-Forwarded-For from nginx), request, status, bytes, duration in ms, user agent
access_log_format = '%({x-forwarded-for}i)s "%(r)s" %(s)s %(B)s %(M)sms "%(a)s"'
