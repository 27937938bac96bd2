"""The suite runs on the embedded defaults (SQLite, filesystem broker) and, in CI, on the real services.

With HANGAR_REQUIRE_SERVICES=1 (set by .ci/run) a missing PostgreSQL or Redis FAILS these tests: never a silent skip.
"""
import os
import socket
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.services

REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"


@pytest.mark.django_db
def test_database_is_the_configured_one():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone()[0] == 1
    if REQUIRE_SERVICES:
        assert connection.vendor == "postgresql", "CI must run this suite on PostgreSQL (DATABASE_URL)"
    elif not os.environ.get("DATABASE_URL"):
        assert connection.vendor == "sqlite"


def test_broker_is_reachable():
    url = settings.CELERY_BROKER_URL
    if not REQUIRE_SERVICES:
        if url.startswith("filesystem"):
            assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"]
        return
    assert url.startswith("redis://"), "CI must run this suite with the Redis broker (CELERY_BROKER_URL)"
    parsed = urlparse(url)
    with socket.create_connection((parsed.hostname, parsed.port or 6379), timeout=5) as sock:
        sock.sendall(b"PING\r\n")
        assert sock.recv(64).startswith(b"+PONG")
