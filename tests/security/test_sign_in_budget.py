"""The budget of failed sign-ins per client address (scope `login`, builder.throttles,
docs/security.md "Sign-in throttling") is counted atomically, so attempts sent in parallel cannot get past it, and it
is one budget for `/accounts/login/`, `/api/auth/login/`, `/api/auth/token/` and `/admin/login/`.

Before: after 29 failures, 3 parallel failures pushed the history past 30, DRF's wait() then returned None, read as
"not blocked", and from then on every attempt answered 400, never 429 (the right password still worked after 72
failures). The admin login had no budget at all."""
from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from builder.throttles import LoginFailureThrottle, throttle_cache
from tests.security.conftest import PASSWORD
from tests.security.test_throttles import assert_throttled_api, assert_throttled_page, set_rates
from tests.support.own_redis import OwnRedis, own_redis_unavailable, redis_cache_settings

REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"
WRONG = {"username": "owner", "password": "not-the-password"}
RIGHT = {"username": "owner", "password": PASSWORD}


def _post_json(url: str, body: dict) -> int:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def cache_backend(request, settings, tmp_path):
    """The throttles' cache: this process's memory (the embedded default) or a real Redis (CACHE_URL)."""
    if request.param == "redis":
        reason = own_redis_unavailable()
        if reason:
            if REQUIRE_SERVICES:
                pytest.fail(f"HANGAR_REQUIRE_SERVICES=1 but this test cannot run: it {reason}")
            pytest.skip(reason)
        embedded = settings.CACHES
        with OwnRedis(tmp_path / "redis") as redis:
            settings.CACHES = redis_cache_settings(redis.url)
            cache.clear()
            yield request.param
            settings.CACHES = embedded  # before this Redis stops: the other fixtures' teardown clears the cache
        return
    yield request.param


@pytest.mark.services  # parallel requests, and a Redis of its own
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("cache_backend", ["memory", "redis"], indirect=True)
def test_parallel_failed_sign_ins_never_get_past_the_budget(cache_backend, live_server, settings, make_user):
    """Failed sign-ins fired in parallel threads at a live server: exactly the budget is let through to a
    password check, and every further attempt in the window is refused with 429, the right password too."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    set_rates(settings, login="30/hour")
    make_user("owner")
    endpoints = [f"{live_server.url}/api/auth/login/", f"{live_server.url}/api/auth/token/"]
    for n in range(29):
        assert _post_json(endpoints[n % 2], WRONG) == 400
    start = threading.Barrier(8)

    def attempt(n: int) -> int:
        if n < 8:
            start.wait(timeout=30)
        return _post_json(endpoints[n % 2], WRONG)

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(attempt, range(200)))
    assert answers.count(400) == 1, f"only the 30th failure may reach a password check: {answers.count(400)} did"
    assert answers.count(429) == 199
    for endpoint in endpoints:  # blocked: the right password waits too
        assert _post_json(endpoint, RIGHT) == 429
    page = Client()
    assert page.post("/accounts/login/", RIGHT).status_code == 429
    assert page.post("/admin/login/", RIGHT).status_code == 429


@pytest.fixture
def admin_owner(settings, make_user):
    """`owner` may use the admin (a superuser); fast password hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = make_user("owner")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


@pytest.mark.django_db
def test_site_api_token_and_admin_logins_share_one_budget(settings, admin_owner):
    set_rates(settings, login="4/hour")
    api, page = Client(), Client()
    assert page.post("/admin/login/?next=/admin/", WRONG).status_code == 200  # the admin's form says why
    assert page.post("/accounts/login/", WRONG).status_code == 200
    assert api.post("/api/auth/login/", WRONG, content_type="application/json").status_code == 400
    assert api.post("/api/auth/token/", WRONG, content_type="application/json").status_code == 400
    assert_throttled_page(page.post("/admin/login/?next=/admin/", RIGHT), "Too many failed sign-ins", "4/hour")
    assert_throttled_api(api.post("/api/auth/token/", RIGHT, content_type="application/json"),
                         "Too many failed sign-ins")
    assert "_auth_user_id" not in page.session


@pytest.mark.django_db
def test_the_admin_login_counts_failures_and_successes_cost_nothing(settings, admin_owner):
    set_rates(settings, login="2/hour")
    for _ in range(4):  # successful sign-ins give their attempt back
        client = Client()
        assert client.post("/admin/login/?next=/admin/", RIGHT).status_code == 302
        assert client.get("/admin/").status_code == 200
    assert Client().post("/admin/login/", WRONG).status_code == 200
    assert Client().post("/admin/login/", WRONG).status_code == 200
    assert_throttled_page(Client().post("/admin/login/", RIGHT), "Too many failed sign-ins")
    assert Client().get("/admin/login/").status_code == 200  # the form itself is still shown


@pytest.mark.django_db
def test_a_blocked_address_stays_blocked_until_the_window_passes(settings, make_user, monkeypatch):
    """Once the budget is spent the address waits one whole window from that moment; attempts meanwhile neither
    count nor extend it, Retry-After counts down, and after the window a fresh budget starts."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    set_rates(settings, login="3/minute")
    make_user("owner")
    clock = [1_000_000.0]
    monkeypatch.setattr(LoginFailureThrottle, "timer", staticmethod(lambda: clock[0]))
    api = Client()

    def login(body):
        return api.post("/api/auth/login/", body, content_type="application/json")

    for _ in range(3):
        assert login(WRONG).status_code == 400
    refused = login(RIGHT)
    assert refused.status_code == 429 and int(refused["Retry-After"]) == 60
    for seconds in (1, 30, 59):
        clock[0] = 1_000_000.0 + seconds
        refused = login(RIGHT)
        assert refused.status_code == 429, f"{seconds} s into the block"
        assert int(refused["Retry-After"]) == 60 - seconds
    clock[0] = 1_000_000.0 + 60
    assert login(RIGHT).status_code == 200  # the window passed: a fresh budget
    for _ in range(3):
        assert login(WRONG).status_code == 400
    assert login(WRONG).status_code == 429


@pytest.mark.django_db
def test_refused_requests_always_carry_a_wait(settings):
    """DRF's wait() answers None once more requests than the rate were counted; ours never does, so a page that
    asks "how long?" (sign-up, Simulate) never reads a refusal as "allowed"."""
    from types import SimpleNamespace

    from builder.throttles import ScopedThrottle

    set_rates(settings, signup="2/hour")
    throttle = ScopedThrottle()
    request = SimpleNamespace(user=SimpleNamespace(is_authenticated=False), META={"REMOTE_ADDR": "198.51.100.9"})
    view = SimpleNamespace(throttle_scope="signup")
    throttle.allow_request(request, view)
    key = throttle.key
    throttle.cache.set(key, [throttle.timer()] * 5, 3600)  # five counted in parallel against a rate of 2
    refused = ScopedThrottle()
    assert refused.allow_request(request, view) is False
    assert refused.wait() >= 1
