"""Domain errors of builder/, raised by services (writes) and selectors (reads) alike: this module sits below both,
so reading never depends on the write package (docs/architecture.md). The API layer (builder.api.errors) maps them
to HTTP; builder.services re-exports them for its callers."""
from __future__ import annotations

from typing import Any

from cards.storable_text import escaped


class ListServiceError(Exception):
    """A request about a list that cannot be carried out. `code` is machine-readable, `message` is for people."""

    code = "list.error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, details: Any = None):
        message = escaped(message)  # a message may quote input: lone surrogates stay escaped, so it can be sent
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class ListInputError(ListServiceError):
    """The input is not a list we can store (unknown system, bad visibility, unreadable upload...)."""

    code = "list.invalid"


class ListNotFound(ListServiceError):
    code = "not_found"
    status = 404


class ListPermissionDenied(ListServiceError):
    code = "permission_denied"
    status = 403


class ListVersionRequired(ListServiceError):
    """An update did not say which version it edits (body `version` or If-Match header)."""

    code = "list.version_required"
    status = 428


class ListTooLarge(ListServiceError):
    code = "request.too_large"
    status = 413


class ListConflict(ListServiceError):
    """Optimistic concurrency: the list changed since the client read it. Nothing was written."""

    code = "list.conflict"
    status = 409

    def __init__(self, message: str, *, current: Any, submitted: Any):
        super().__init__(message)
        self.current = current  # the GameList as it is on the server now
        self.submitted = submitted  # what the client sent, handed back so nothing is lost


# --- simulations (mapped to HTTP by builder.api.errors through ListServiceError.status) ------------------------------------------------------------------------------------------


class SimulationInvalid(ListServiceError):
    """The request cannot be simulated: the message names the field, section or card code."""

    code = "simulation.invalid"


class SimulationListTooLarge(SimulationInvalid):
    """The list is far larger than any format of its game allows (rules_engine's `max_list_size`)."""

    code = "simulation.list_too_large"


class SimulationLimitExceeded(ListServiceError):
    """Too many games in one run, or too many runs queued/running for this user."""

    code = "simulation.limit"
    status = 429


class SimulationBrokerUnavailable(ListServiceError):
    """The message broker cannot be reached: nothing was written."""

    code = "simulation.broker_unavailable"
    status = 503


class DoctorApplyRefused(ListServiceError):
    """Applying a list doctor's change that no longer stands for its figures: the run is not done (its ranking can
    still change), or the list's cards changed since the run (the figures are for the cards it had then)."""

    code = "doctor.cannot_apply"
    status = 409


class SimulationNotActive(ListServiceError):
    """Cancelling a run that is already done, failed or cancelled."""

    code = "simulation.not_active"
    status = 409


# --- engine work budgets (builder.services.budget) -------------------------------------------------------------


class WorkOverBudget(ListServiceError):
    """The estimated engine work of a request, a run or a command is over its budget: nothing was played.
    `details` holds the path of the field that made it dear, the limit and the estimate (engine seconds)."""

    code = "budget.exceeded"
    status = 400


class WorkQuotaExceeded(ListServiceError):
    """This user's or address's engine work of the last minute is spent (429, Retry-After: `wait`)."""

    code = "throttled"
    status = 429

    def __init__(self, message: str, *, wait: float, details: Any = None):
        super().__init__(message, details=details)
        self.wait = wait


# --- tournament events (builder.services.events) -----------------------------------------------------------------


class EventClosed(ListServiceError):
    """An event action its state refuses: submitting or changing the pins after the lists locked, joining a full
    event, publishing before the lock. Nothing was written."""

    code = "event.closed"
    status = 409
