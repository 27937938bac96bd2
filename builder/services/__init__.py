"""Writes for lists and accounts (HackSoft services). Import from here: `from builder.services import list_create`."""
from .accounts import AccountError, user_signup, user_token
from .errors import (
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
    list_fork,
    list_import_file,
    list_import_json,
    list_import_text,
    list_restore,
    list_update,
    list_validation_refresh,
)

__all__ = [
    "AccountError",
    "ListConflict",
    "ListInputError",
    "ListNotFound",
    "ListPermissionDenied",
    "ListServiceError",
    "ListTooLarge",
    "ListVersionRequired",
    "check_document",
    "list_create",
    "list_delete",
    "list_fork",
    "list_import_file",
    "list_import_json",
    "list_import_text",
    "list_restore",
    "list_update",
    "list_validation_refresh",
    "user_signup",
    "user_token",
]
