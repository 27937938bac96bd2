"""Request throttles for the API and the sign-up / sign-in pages (docs/security.md).

Rates are REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (HANGAR_THROTTLE_* in hangar/settings.py; "off" turns one off),
read at request time, so `override_settings` changes them at once. A refused request gets a 429 with a
`Retry-After` header and a message that says which limit was hit and when to try again.

Scopes:
  anon         every API request without an account, per client address
  user         every API request with an account, per user
  signup       sign-ups (POST /api/auth/signup/ and the sign-up page together), per client address or user
  login        FAILED sign-ins (POST /api/auth/login/, /api/auth/token/ and the login page together), per client
               address; while the budget is spent every attempt is refused, right password or not
  simulations  POST /api/simulations/ and the "Simulate" page, per user
  positions    POST /api/positions/ and the analysis page's "Simulate from here", per user or client address

Engine work (WorkThrottle): the games a web or API request plays while it waits are charged, at their estimated
cost in engine seconds (builder/services/budget.py), against an allowance per minute: HANGAR_WORK_PER_MINUTE_ANON
per client address without an account, HANGAR_WORK_PER_MINUTE_USER per user. Quotas count work, not requests.
"""
from __future__ import annotations

import logging
import math
import threading
import time
from types import SimpleNamespace
from typing import Any

from django.core.cache import cache as shared_cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

_RATES_AT_IMPORT = SimpleRateThrottle.THROTTLE_RATES  # DRF's own copy, frozen when it was imported

REASONS = {
    "anon": "Too many requests from your address",
    "user": "Too many requests from your account",
    "signup": "Too many sign-ups from your address",
    "login": "Too many failed sign-ins from your address",
    "simulations": "Too many simulations started",
}
NOTE_ATTR = "hangar_throttle"


logger = logging.getLogger("hangar.throttles")


def _cache_errors() -> tuple[type[BaseException], ...]:
    """What an unreachable cache raises: redis-py's errors (it wraps socket errors) with CACHE_URL=redis://..."""
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is in requirements.txt
        return ()
    return (RedisError,)


CACHE_ERRORS = _cache_errors()


class ThrottleCache:
    """The throttles' counters: Django's default cache (shared by every process with CACHE_URL=redis://...), or,
    while that cache cannot be reached, this process's own memory.

    Throttles FAIL TO LOCAL, not open and not closed (docs/security.md, "When the cache is down"): an outage of the
    cache's Redis never turns a request into an error (sign-in keeps working) and every limit still holds, counted
    per process until the shared cache answers again. After a failure the shared cache is tried again
    RETRY_SHARED_AFTER seconds later (not on every call: an unreachable host may take its socket timeout to fail)."""

    RETRY_SHARED_AFTER = 5.0

    def __init__(self) -> None:
        self.local = LocMemCache("hangar-throttles-fallback", {"OPTIONS": {"MAX_ENTRIES": 100_000}})
        self._down_until = 0.0
        self._lock = threading.Lock()

    def shared_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _call(self, method: str, *args: Any) -> Any:
        if not self.shared_down():
            try:
                return getattr(shared_cache, method)(*args)
            except CACHE_ERRORS as error:
                with self._lock:
                    if not self.shared_down():
                        logger.warning("the throttles' cache is unreachable (%s: %s): counting in this process's "
                                       "memory for %g s", type(error).__name__, error, self.RETRY_SHARED_AFTER)
                    self._down_until = time.monotonic() + self.RETRY_SHARED_AFTER
        return getattr(self.local, method)(*args)

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", key, default)

    def set(self, key: str, value: Any, timeout: float | None) -> None:
        self._call("set", key, value, timeout)

    def add(self, key: str, value: Any, timeout: float | None) -> bool:
        return self._call("add", key, value, timeout)

    def incr(self, key: str, delta: int = 1) -> int:
        return self._call("incr", key, delta)

    def decr(self, key: str, delta: int = 1) -> int:
        return self._call("decr", key, delta)

    def delete(self, key: str) -> None:
        self._call("delete", key)

    def clear(self) -> None:
        """Forget every counter (tests): the local ones; the shared cache is cleared by whoever owns it."""
        self.local.clear()
        self._down_until = 0.0


throttle_cache = ThrottleCache()


class LiveRates:
    """Read the rate from the settings at request time (DRF reads them once, at import); count in the
    ThrottleCache (the shared cache, or this process's memory while it is down)."""

    scope: str | None
    cache = throttle_cache

    def get_rate(self) -> str | None:
        # A test that patched THROTTLE_RATES on a class keeps working: a replaced dict wins over the settings.
        patched = self.THROTTLE_RATES is not _RATES_AT_IMPORT  # type: ignore[attr-defined]
        rates = self.THROTTLE_RATES if patched else api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[attr-defined]
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate for scope {self.scope!r} in DEFAULT_THROTTLE_RATES.")
        return rates[self.scope]

    def allow_request(self, request, view) -> bool:
        allowed = super().allow_request(request, view)  # type: ignore[misc]
        if not allowed:
            note(request, self.scope, self.rate)  # type: ignore[attr-defined]
        return allowed

    def wait(self) -> float:
        """Seconds until the oldest counted request leaves the window. DRF's own answers None once more requests
        than the rate were counted (requests let through in parallel), which callers would read as "not
        refused": a refused request always gets a wait of at least one second."""
        history = getattr(self, "history", None)
        if not history:
            return float(self.duration)  # type: ignore[attr-defined]
        # history is newest first; to be let through, all but num_requests - 1 of them must have left the window.
        extra = max(len(history) - self.num_requests, 0)  # type: ignore[attr-defined]
        leaving = history[max(-1 - extra, -len(history))]
        return max(self.duration - (self.now - leaving), 1.0)  # type: ignore[attr-defined]


class AnonThrottle(LiveRates, AnonRateThrottle):
    pass


class UserThrottle(LiveRates, UserRateThrottle):
    pass


class ScopedThrottle(LiveRates, ScopedRateThrottle):
    """The view's `throttle_scope`, per user when signed in, else per client address."""


def note(request, scope: str | None, rate: str | None) -> None:
    """Remember on the request which limit refused it (the 429's message names it)."""
    setattr(request, NOTE_ATTR, (scope, rate))


def retry_after(wait: float | None) -> int:
    """Whole seconds for the Retry-After header: never 0 while the request is still refused."""
    return max(1, math.ceil(wait or 0))


def throttle_message(request, wait: float | None) -> str:
    scope, rate = getattr(request, NOTE_ATTR, (None, None))
    reason = REASONS.get(scope or "", "Too many requests")
    limit = f" (the limit is {rate})" if rate else ""
    return f"{reason}{limit}: try again in {retry_after(wait)} seconds."


def scope_wait(request, scope: str) -> float | None:
    """For a page (not an API view): count this request in `scope`; None if allowed, else the seconds to wait.
    Shares its counter with the API views of the same scope."""
    throttle = ScopedThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
        return None
    return throttle.wait()


class LoginFailureThrottle(LiveRates, SimpleRateThrottle):
    """Counts FAILED sign-ins per client address (scope `login`): `/accounts/login/`, `/api/auth/login/`,
    `/api/auth/token/` and `/admin/login/` share one budget (docs/security.md, "Sign-in throttling").

    The count is atomic (the cache's `add` and `incr`: one Redis INCR with CACHE_URL), so attempts sent in parallel
    cannot slip past it: each attempt TAKES one unit of the budget before its password is checked (`begin`) and a
    successful sign-in gives it back (`succeeded`). Once the budget is spent the address is blocked for one whole
    window from that moment (`<scope>_blocked` holds the time it ends), right password or not; nothing it sends in
    the meantime counts or extends the block.

        throttle = LoginFailureThrottle()
        if (wait := throttle.begin(request)) is not None: answer 429 with Retry-After: wait
        ... check the password ...
        if signed in: throttle.succeeded(request)
    """

    scope = "login"

    def get_cache_key(self, request, view=None) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _blocked_for(self, key: str, block_key: str) -> float | None:
        """Seconds left of the block of this address, None if it is not blocked (a block that ended is cleared
        with its window's count, whether or not the cache has expired them yet)."""
        until = self.cache.get(block_key)
        if until is None:
            return None
        left = until - self.timer()
        if left <= 0:
            self.cache.delete(block_key)
            self.cache.delete(key)
            return None
        return max(left, 1.0)

    def begin(self, request) -> float | None:
        """Take one attempt from the budget of `request`'s address: None if it may try its password, else the
        seconds until the block ends (the request is noted for the 429's message)."""
        self.counted = False
        if self.rate is None:
            return None
        key = self.get_cache_key(request)
        block_key = f"{key}_blocked"
        wait = self._blocked_for(key, block_key)
        if wait is None:
            self.cache.add(key, 0, self.duration)  # the window starts with its first failure
            try:
                attempts = self.cache.incr(key)
            except ValueError:  # the window ended between add and incr: a new one starts
                self.cache.add(key, 1, self.duration)
                attempts = 1
            if attempts <= self.num_requests:
                self.counted = True
                return None
            self.cache.add(block_key, self.timer() + self.duration, self.duration)  # the first refusal sets it
            wait = self._blocked_for(key, block_key) or float(self.duration)
        note(request, self.scope, self.rate)
        return wait

    def succeeded(self, request) -> None:
        """The attempt signed in: it was no failure, give its unit back."""
        if not getattr(self, "counted", False):
            return
        self.counted = False
        try:
            self.cache.decr(self.get_cache_key(request))
        except ValueError:  # the window ended meanwhile: nothing to give back
            pass


class WorkThrottle:
    """The engine work a client asks of the web requests, per minute: each request is charged its ESTIMATED cost
    (engine seconds, builder/services/budget.py) before it plays; once a client's allowance of the current
    one-minute window is spent, a request that would go past it is refused (WorkQuotaExceeded: 429, Retry-After:
    the end of the window). Counted in the shared cache in milliseconds (`add` then `incr`: atomic in Redis), per
    user (`HANGAR_WORK_PER_MINUTE_USER`) or per client address (`HANGAR_WORK_PER_MINUTE_ANON`)."""

    WINDOW = 60
    cache = throttle_cache

    def __init__(self, request) -> None:
        from django.conf import settings

        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            self.ident, self.allowance = f"user:{user.pk}", float(settings.HANGAR_WORK_PER_MINUTE_USER)
        else:
            address = AnonRateThrottle().get_ident(request)
            self.ident, self.allowance = f"anon:{address}", float(settings.HANGAR_WORK_PER_MINUTE_ANON)
        self.key = f"throttle_work_{self.ident}"

    def charge(self, cost: float) -> None:
        """Take `cost` engine seconds from this client's allowance, or raise WorkQuotaExceeded."""
        from builder.errors import WorkQuotaExceeded

        millis = max(1, int(math.ceil(cost * 1000)))
        now = time.time()
        self.cache.add(f"{self.key}_start", now, self.WINDOW)
        self.cache.add(self.key, 0, self.WINDOW)
        try:
            used = self.cache.incr(self.key, millis)
        except ValueError:  # the window ended between add and incr: a new one starts
            self.cache.add(f"{self.key}_start", now, self.WINDOW)
            self.cache.add(self.key, millis, self.WINDOW)
            used = millis
        if used <= self.allowance * 1000:
            return
        try:
            self.cache.decr(self.key, millis)  # refused: it played nothing, so it costs nothing
        except ValueError:
            pass
        start = self.cache.get(f"{self.key}_start") or now
        wait = max(1.0, self.WINDOW - (now - float(start)))
        raise WorkQuotaExceeded(
            f"Too much engine work asked from your {'account' if self.ident.startswith('user:') else 'address'}: "
            f"this request is estimated at {cost:.2f} s, and the allowance is {self.allowance:g} s of engine work a "
            f"minute; try again in {retry_after(wait)} seconds.",
            wait=wait, details={"limit_seconds_per_minute": self.allowance, "estimate_seconds": round(cost, 3)})


def work_charge(request):
    """The `charge(cost)` callback of `request`'s client (WorkThrottle) for the services that play games."""
    return WorkThrottle(request).charge
