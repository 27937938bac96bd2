"""Sign-up (through services.user_signup), log-in and log-out pages."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_account_and_signs_in():
    client = Client()
    response = client.post("/accounts/signup/", {"username": "pilot", "email": "",
                                                 "password": PASSWORD, "password_again": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/lists/"
    assert get_user_model().objects.filter(username="pilot").exists()
    assert client.get("/lists/").status_code == 200  # signed in


def test_sign_up_shows_the_password_rule_that_failed_next_to_the_field():
    response = Client().post("/accounts/signup/", {"username": "pilot", "password": "password",
                                                   "password_again": "password"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "too common" in page and 'class="field has-error"' in page
    assert not get_user_model().objects.filter(username="pilot").exists()


def test_sign_up_refuses_a_taken_username(owner):
    response = Client().post("/accounts/signup/", {"username": "OWNER", "password": PASSWORD,
                                                   "password_again": PASSWORD})
    assert "That username is taken." in response.content.decode()


def test_sign_up_refuses_two_different_passwords():
    response = Client().post("/accounts/signup/", {"username": "pilot", "password": PASSWORD,
                                                   "password_again": PASSWORD + "x"})
    assert "The two passwords differ." in response.content.decode()
    assert not get_user_model().objects.filter(username="pilot").exists()


def test_log_in_and_log_out(owner):
    client = Client()
    response = client.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert response.status_code == 302
    assert "owner" in client.get("/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/lists/").status_code == 302  # signed out again


def test_wrong_password_is_refused_with_a_message(owner):
    response = Client().post("/accounts/login/", {"username": "owner", "password": "nope"})
    assert response.status_code == 200 and "correct username and password" in response.content.decode()
