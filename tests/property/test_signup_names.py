"""Sign-up names that fold to a taken one, as a property: a sign-up with ANY name that Django folds (NFKC, then
compared without case) to a taken one is refused with "That username is taken." — never a 500 IntegrityError — and
any name at all gives a clear answer (201 or 400 with the field), never an exception. Full-width letters
(ａｌｉｃｅ), mathematical alphanumerics (𝐚𝐥𝐢𝐜𝐞), ligatures (ﬁ), circled and superscript forms all fold."""
from __future__ import annotations

import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from builder.services.accounts import TAKEN, AccountError, user_signup
from tests.conftest import PASSWORD
from tests.property.strategies import examples

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the names are under test

FULL_WIDTH = 0xFEE0  # ａ = a + FULL_WIDTH
MATH_BOLD = {c: chr(0x1D41A + i) for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")}
MATH_BOLD.update({c: chr(0x1D400 + i) for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")})
DIGIT_FORMS = {str(d): [chr(0x2070 + d) if d not in (1, 2, 3) else "¹²³"[d - 1], chr(0x1D7CE + d)] for d in range(10)}
LIGATURES = {"fi": "ﬁ", "fl": "ﬂ", "ff": "ﬀ"}

base_names = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=3, max_size=12)


@st.composite
def folding_copy(draw) -> tuple[str, str]:
    """(a name, another spelling of it that folds to the same name)."""
    name = draw(base_names)
    spelled = []
    for char in name:
        forms = [char, char.upper(), chr(ord(char) + FULL_WIDTH), chr(ord(char.upper()) + FULL_WIDTH)]
        forms += [MATH_BOLD[char]] if char in MATH_BOLD else DIGIT_FORMS.get(char, [])
        spelled.append(draw(st.sampled_from(forms)))
    copy = "".join(spelled)
    for plain, ligature in LIGATURES.items():
        if draw(st.booleans()):
            copy = copy.replace(plain, ligature)
    return name, copy


def _signup_in_rollback(*names: str) -> list[str | None]:
    """Sign each name up in turn inside one transaction that is rolled back; the refusals' username messages."""
    answers: list[str | None] = []
    with transaction.atomic():
        for name in names:
            try:
                user_signup(username=name, password=PASSWORD)
                answers.append(None)
            except AccountError as refused:
                answers.append((refused.details or {}).get("username", [None])[0])
        transaction.set_rollback(True)
    return answers


@examples(40, shared_fixture=True)
@given(folding_copy())
def test_a_name_that_folds_to_a_taken_name_is_taken(db, pair):
    name, copy = pair
    assert unicodedata.normalize("NFKC", copy).lower() == name.lower()
    assert _signup_in_rollback(name, copy) == [None, TAKEN]


@examples(40, shared_fixture=True)
@given(st.text(min_size=0, max_size=40))
def test_any_name_gets_an_answer_never_an_exception(db, name):
    answers = _signup_in_rollback(name)
    assert answers[0] is None or isinstance(answers[0], str)
    assert not get_user_model().objects.exists()
