"""Request-level permissions for the lists API.

Per-list rules (who may see, change, delete, fork a list) live in builder.services / builder.selectors so the
HTML views share them: a private list is a 404 for everyone but its owner; a visible list that is not yours is a
403 on writes.
"""
from __future__ import annotations

from rest_framework.permissions import BasePermission

SIGNED_IN_ACTIONS = {"create", "import_list"}


class ListsPermission(BasePermission):
    """Creating and importing need an account; so does the index, except the public gallery (?scope=public)."""

    message = "Sign in (session or 'Authorization: Token <key>') to use your lists."

    def has_permission(self, request, view) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        action = getattr(view, "action", None)
        if action in SIGNED_IN_ACTIONS:
            return False
        if action == "list":
            return request.query_params.get("scope") == "public"
        return True
