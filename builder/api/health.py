"""GET /api/health/: database, broker and worker status for load balancers and operators (docs/simulations.md).

200 when the database and the broker answer, else 503. Workers are pinged through the broker (1 s); a transport
without broadcast (kombu's filesystem transport) reports "unknown" instead of failing.
"""
from __future__ import annotations

import logging

from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from builder import queue

logger = logging.getLogger(__name__)
OK = "ok"
PING_TIMEOUT = 1.0


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return OK
    except Exception as exc:
        logger.warning("health: database check failed: %s", exc)
        return f"error: {type(exc).__name__}"


def broker_status() -> str:
    try:
        queue.check_connection(timeout=2)
        return OK
    except Exception as exc:
        logger.warning("health: broker check failed: %s", exc)
        return f"error: {type(exc).__name__}"


def workers_status() -> list[str] | str:
    """Hostnames of the workers that answered a ping, "unknown" when the transport cannot broadcast."""
    try:
        return queue.ping_workers(PING_TIMEOUT)
    except queue.NoBroadcast:
        return "unknown"  # a transport without broadcast
    except Exception as exc:
        logger.warning("health: worker ping failed: %s", exc)
        return f"error: {type(exc).__name__}"


class HealthSerializer(serializers.Serializer):
    database = serializers.CharField(help_text='"ok" or "error: ..."')
    broker = serializers.CharField(help_text='"ok" or "error: ..."')
    workers = serializers.JSONField(help_text='hostnames of the workers that answered, "unknown" or "error: ..."')


class HealthView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes: list = []

    @extend_schema(
        summary="Database, broker and worker status (200 when the database and broker are fine, else 503)",
        responses={200: HealthSerializer, 503: HealthSerializer},
        auth=[],
    )
    def get(self, request):
        body = {"database": database_status(), "broker": broker_status()}
        body["workers"] = workers_status() if body["broker"] == OK else "unknown"
        healthy = body["database"] == OK and body["broker"] == OK
        return Response(body, status=200 if healthy else 503)
