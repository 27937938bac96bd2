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
"""
from __future__ import annotations

import math
from types import SimpleNamespace

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


class LiveRates:
    """Read the rate from the settings at request time (DRF reads them once, at import)."""

    scope: str | None

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
    """Counts FAILED sign-ins per client address (scope `login`): successful sign-ins cost nothing; once the
    budget is spent, every attempt is refused until the oldest failure leaves the window."""

    scope = "login"

    def get_cache_key(self, request, view=None) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _load(self, request) -> None:
        self.key = self.get_cache_key(request)
        self.history: list[float] = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()

    def blocked(self, request) -> float | None:
        """None if `request` may try to sign in, else the seconds to wait (and the request is noted)."""
        if self.rate is None:
            return None
        self._load(request)
        if len(self.history) < self.num_requests:
            return None
        note(request, self.scope, self.rate)
        return self.wait()

    def record_failure(self, request) -> None:
        if self.rate is None:
            return
        self._load(request)
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)
