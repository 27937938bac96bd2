"""Writes for lists, accounts and simulation runs (HackSoft services). Import from here: `from builder.services import list_create`."""
from .accounts import AccountError, user_signup, user_token
from builder.errors import (
    ListConflict,
    ListInputError,
    ListNotFound,
    ListPermissionDenied,
    ListServiceError,
    ListTooLarge,
    ListVersionRequired,
)
from .lists import (
    check_document,
    list_create,
    list_delete,
    fork_name,
    list_fork,
    list_fork_sample,
    list_import_file,
    list_import_json,
    list_import_text,
    list_restore,
    list_unlist,
    list_update,
    list_validation_refresh,
)
from .batches import doctor_apply, doctor_start, gauntlet_start, impact_start
from .fields import field_create, field_delete, field_update
from .runs_chunks import simulation_chunk_play, simulation_chunk_store
from .runs_input import load_simulator_modules, simulation_snapshot_build
from .runs_merge import simulation_finish
from .runs_stop import simulation_cancel, simulation_fail
from .runs_submit import simulation_start
from .runs_watchdog import simulations_requeue_stalled
from builder.errors import (
    SimulationBrokerUnavailable,
    SimulationInvalid,
    SimulationLimitExceeded,
    SimulationListTooLarge,
    SimulationNotActive,
)

__all__ = [
    "doctor_apply",
    "field_create",
    "field_delete",
    "field_update",
    "doctor_start",
    "gauntlet_start",
    "impact_start",
    "AccountError",
    "ListConflict",
    "ListInputError",
    "ListNotFound",
    "ListPermissionDenied",
    "ListServiceError",
    "ListTooLarge",
    "ListVersionRequired",
    "SimulationBrokerUnavailable",
    "SimulationInvalid",
    "SimulationLimitExceeded",
    "SimulationListTooLarge",
    "SimulationNotActive",
    "check_document",
    "list_create",
    "list_delete",
    "list_fork",
    "list_import_file",
    "list_import_json",
    "list_import_text",
    "list_restore",
    "list_unlist",
    "list_update",
    "list_validation_refresh",
    "load_simulator_modules",
    "simulation_cancel",
    "simulation_chunk_play",
    "simulation_chunk_store",
    "simulation_fail",
    "simulation_finish",
    "simulation_snapshot_build",
    "simulation_start",
    "simulations_requeue_stalled",
    "user_signup",
    "user_token",
]
