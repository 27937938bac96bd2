"""Writes for accounts: sign-up with Django's password validators, and API tokens."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from builder.errors import ListServiceError


class AccountError(ListServiceError):
    """Sign-up refused; `details` maps each bad field to its messages."""

    code = "auth.invalid"


TAKEN = "That username is taken."


def check_signup(*, username: str, password: str, email: str) -> dict[str, list[str]]:
    """Each bad field's messages. `username` is compared as it will be stored: Django folds it to NFKC
    (`ａｌｉｃｅ` is stored as `alice`), so a full-width copy of a taken name is taken too."""
    User = get_user_model()
    username = User.normalize_username(username)
    problems: dict[str, list[str]] = {}
    if not username:
        problems["username"] = ["A username is required."]
    else:
        try:
            UnicodeUsernameValidator()(username)
        except ValidationError as error:
            problems["username"] = list(error.messages)
        if len(username) > 150:
            problems.setdefault("username", []).append("At most 150 characters.")
        elif User.objects.filter(username__iexact=username).exists():
            problems.setdefault("username", []).append(TAKEN)
    if email:
        try:
            validate_email(email)
        except ValidationError as error:
            problems["email"] = list(error.messages)
    if not password:
        problems["password"] = ["A password is required."]
    else:
        try:
            validate_password(password, user=User(username=username, email=email))
        except ValidationError as error:
            problems["password"] = list(error.messages)
    return problems


def user_signup(*, username: str, password: str, email: str = "") -> tuple[object, str]:
    """Create an account and its API token: (user, token key). Raises AccountError naming each bad field."""
    username, email = (username or "").strip(), (email or "").strip()
    problems = check_signup(username=username, password=password or "", email=email)
    if problems:
        first_field, messages = next(iter(problems.items()))
        raise AccountError(f"{first_field}: {messages[0]}", details=problems)
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, email=email, password=password)
            token = Token.objects.create(user=user)
    except IntegrityError:  # the same name signed up a moment ago, between the check and the insert
        raise AccountError(f"username: {TAKEN}", details={"username": [TAKEN]}) from None
    return user, token.key


def user_token(*, user) -> str:
    """The user's API token key, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
