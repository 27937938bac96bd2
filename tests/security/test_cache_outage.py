"""With Redis as CACHE_URL (as deploy/env.example recommends), a Redis that goes down mid-run no
longer turns every API request into an HTML 500 (the throttles' cache read raised redis ConnectionError).

The throttles fail TO LOCAL (docs/security.md, "When the cache is down"): while the shared cache cannot be reached
they count in this process's memory, so the API and sign-in keep working and every limit still holds; when Redis is
back they count there again. Any other use of an unreachable cache answers 503 with Retry-After: the API's JSON
error under /api/, a short text page elsewhere. Each test starts a Redis of its own and stops it mid-test."""
from __future__ import annotations

import os

import pytest
import redis
from django.core.cache import cache

from builder.throttles import ThrottleCache, throttle_cache
from hangar.ping import PingView
from tests.security.conftest import PASSWORD, World
from tests.security.test_throttles import assert_throttled_api, set_rates
from tests.support.own_redis import OwnRedis, own_redis_unavailable, redis_cache_settings

pytestmark = [pytest.mark.services, pytest.mark.django_db]  # a Redis of its own, stopped and started
REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"
RIGHT = {"username": "owner", "password": PASSWORD}
WRONG = {"username": "owner", "password": "not-the-password"}


@pytest.fixture
def cache_redis(settings, tmp_path, monkeypatch):
    """CACHE_URL pointing at a Redis this test started; the test may stop and start it."""
    reason = own_redis_unavailable()
    if reason:
        if REQUIRE_SERVICES:
            pytest.fail(f"HANGAR_REQUIRE_SERVICES=1 but this test cannot run: it {reason}")
        pytest.skip(reason)
    monkeypatch.setattr(ThrottleCache, "RETRY_SHARED_AFTER", 0.0)  # try the shared cache again at once
    embedded = settings.CACHES
    with OwnRedis(tmp_path / "redis") as server:
        settings.CACHES = redis_cache_settings(server.url)
        cache.clear()
        yield server
        settings.CACHES = embedded
    throttle_cache.clear()


def shared_keys(server: OwnRedis) -> list[bytes]:
    return redis.Redis.from_url(server.url).keys("*throttle*")


def test_the_api_keeps_answering_when_the_cache_redis_stops(world: World, cache_redis, settings):
    api = world.api_client("anon")
    assert api.get("/api/systems/").status_code == 200
    assert shared_keys(cache_redis), "the throttles count in Redis while it is up"
    cache_redis.stop()
    for path in ("/api/systems/", "/api/cards/?system=hagmi", "/api/ping/"):
        response = api.get(path)
        assert response.status_code == 200, (path, response.content[:300])
        assert response["Content-Type"].startswith("application/json")
    owner = world.api_client("owner")
    assert owner.get("/api/lists/").status_code == 200
    assert world.page_client("anon").get("/").status_code == 200


def test_sign_in_works_and_is_still_throttled_while_the_cache_is_down(world: World, cache_redis, settings):
    set_rates(settings, login="3/hour")
    cache_redis.stop()
    api = world.api_client("anon")
    assert api.post("/api/auth/login/", RIGHT, format="json").status_code == 200
    assert world.page_client("anon").post("/accounts/login/", RIGHT).status_code == 302
    for _ in range(3):
        assert api.post("/api/auth/token/", WRONG, format="json").status_code == 400
    assert_throttled_api(api.post("/api/auth/login/", RIGHT, format="json"), "Too many failed sign-ins")


def test_the_shared_count_is_used_again_when_redis_is_back(world: World, cache_redis, settings):
    set_rates(settings, anon="3/minute")
    api = world.api_client("anon")
    cache_redis.stop()
    assert api.get("/api/systems/").status_code == 200  # counted in this process's memory
    cache_redis.start()  # a Redis that lost everything (no persistence)
    assert not shared_keys(cache_redis)
    for _ in range(3):
        assert api.get("/api/systems/").status_code == 200
    assert shared_keys(cache_redis), "back in Redis"
    assert_throttled_api(api.get("/api/systems/"), "Too many requests from your address")


def test_a_simulation_still_starts_while_the_cache_is_down(world: World, cache_redis):
    game_list = world.list("public")
    cache_redis.stop()
    body = {"list": game_list.slug, "opponent": "goldfish", "games": 2, "seed": 1}
    response = world.api_client("owner").post("/api/simulations/", body, format="json")
    assert response.status_code == 202, response.content


def test_any_other_cache_error_answers_503_with_retry_after(world: World, monkeypatch):
    """The safety net for a cache use other than the throttles (builder.middleware): JSON 503 under /api/, a
    short text page elsewhere, never an HTML 500."""
    def unreachable(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(PingView, "get", unreachable)
    response = world.api_client("anon").get("/api/ping/")
    assert response.status_code == 503 and int(response["Retry-After"]) >= 1
    assert response.json()["error"]["code"] == "service.cache_unavailable"
    monkeypatch.setattr("builder.web.pages.systems_list", unreachable)
    page = world.page_client("anon").get("/")
    assert page.status_code == 503 and int(page["Retry-After"]) >= 1
    assert "cache is unavailable" in page.content.decode()
