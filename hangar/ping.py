"""The smallest DRF endpoint: the anchor against which API throughput is measured (benchmarks/bench_api.py)."""
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView


class PingView(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        summary="Liveness check",
        responses=inline_serializer("Ping", {"status": serializers.CharField()}),
    )
    def get(self, request):
        return Response({"status": "ok"})
