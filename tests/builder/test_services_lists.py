"""builder.services: the list writes, called directly (the HTML views use them too)."""
from __future__ import annotations

import pytest

from builder import selectors, services
from builder.listio import ListFormatError
from builder.models import GameList, ListEntry, ListRevision
from builder.services import lists as list_services

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved(catalogs, owner):
    return services.list_create(owner=owner, document=hagmi_doc(), notes="n", visibility="public")


def test_create_stores_entries_in_document_order_and_revision_1(saved, owner):
    assert selectors.list_document(saved) == hagmi_doc()
    assert list(saved.entries.values_list("position", flat=True)) == list(range(22))
    revision = saved.revisions.get()
    assert (revision.number, revision.author, revision.document, revision.notes, revision.visibility) == (
        1, owner, hagmi_doc(), "n", "public")
    assert saved.legal and saved.error_count == 0 and saved.catalog_stamp


def test_a_stored_check_of_older_rule_texts_is_computed_again(saved, monkeypatch):
    """A list's check is kept with the construction rules' version and the catalog's stamp: new rule texts (a
    RULES_VERSION bump) make the stored English messages stale, so pages never show the old wording."""
    assert not selectors.list_validation_is_stale(saved)
    saved.validation = {**saved.validation, "summary": "an old wording"}
    monkeypatch.setattr(selectors, "RULES_VERSION", "1999.1.1")
    assert selectors.list_validation_is_stale(saved)
    assert selectors.list_validation(saved)["summary"] != "an old wording"


def test_create_accepts_a_json_string_document(catalogs, owner):
    import json

    game_list = services.list_create(owner=owner, document=json.dumps(hagmi_doc(name="s")))
    assert game_list.name == "s"


def test_create_is_atomic(catalogs, owner, monkeypatch):
    """A failure after the list row is written leaves no list, no entries, no revision."""

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(list_services, "_do_write_revision", boom)
    with pytest.raises(RuntimeError):
        services.list_create(owner=owner, document=hagmi_doc())
    assert not GameList.objects.exists() and not ListEntry.objects.exists() and not ListRevision.objects.exists()


def test_update_is_atomic_and_keeps_the_version(saved, owner, monkeypatch):
    monkeypatch.setattr(list_services, "_do_write_revision", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        services.list_update(game_list=saved, user=owner, document=hagmi_doc(name="x"), expected_version=1)
    saved.refresh_from_db()
    assert saved.version == 1 and saved.name == "Blue rush" and saved.entries.count() == 22


def test_update_conflict_writes_nothing(saved, owner):
    services.list_update(game_list=saved, user=owner, notes="A", expected_version=1)
    with pytest.raises(services.ListConflict) as conflict:
        services.list_update(game_list=saved, user=owner, notes="B", document=hagmi_doc(name="B"),
                             expected_version=1)
    assert conflict.value.current.notes == "A" and conflict.value.current.version == 2
    assert conflict.value.submitted["name"] == "B"
    saved.refresh_from_db()
    assert saved.notes == "A" and saved.revisions.count() == 2


def test_update_by_a_stranger_is_refused(saved, other):
    with pytest.raises(services.ListPermissionDenied):
        services.list_update(game_list=saved, user=other, notes="x", expected_version=1)


def test_private_list_is_not_found_for_a_stranger(catalogs, owner, other):
    private = services.list_create(owner=owner, document=hagmi_doc())
    with pytest.raises(services.ListNotFound):
        services.list_delete(game_list=private, user=other)
    with pytest.raises(services.ListNotFound):
        selectors.list_get(slug=private.slug, user=other)


def test_malformed_document_raises_list_format_error(catalogs, owner):
    document = hagmi_doc()
    document["sections"]["weapons"][0]["qty"] = 0
    with pytest.raises(ListFormatError) as error:
        services.list_create(owner=owner, document=document)
    assert error.value.issues[0].path == "sections.weapons[0].qty"


def test_fork_copies_document_and_notes_into_a_private_list(saved, other):
    fork = services.list_fork(game_list=saved, user=other)
    assert fork.owner == other and fork.visibility == "private" and fork.forked_from == saved
    copied, original = selectors.list_document(fork), selectors.list_document(saved)
    assert copied.pop("name") == f"Copy of {original.pop('name')}"  # the fork is named as a copy
    assert copied == original and fork.notes == "n"


def test_delete_then_restore(saved, owner):
    services.list_delete(game_list=saved, user=owner)
    saved.refresh_from_db()
    assert saved.is_deleted
    restored = services.list_restore(game_list=saved, user=owner)
    assert not restored.is_deleted and restored.revisions.count() == 2


def test_slugs_are_random_and_url_safe(catalogs, owner):
    slugs = {services.list_create(owner=owner, document=hagmi_doc()).slug for _ in range(5)}
    assert len(slugs) == 5
    assert all(len(slug) >= 12 and slug.replace("-", "").replace("_", "").isalnum() for slug in slugs)


def test_user_signup_creates_a_token(db):
    user, token = services.user_signup(username="newbie", password="Str0ng-enough-pw", email="")
    assert user.check_password("Str0ng-enough-pw") and services.user_token(user=user) == token


@pytest.mark.services  # NUL: PostgreSQL cannot store it
def test_notes_with_a_nul_character_are_refused_naming_the_field(catalogs, owner):
    """U+0000 cannot be stored by PostgreSQL: refused as bad input (400), never a database error, nothing saved."""
    with pytest.raises(list_services.ListInputError, match="notes: must not contain the NUL"):
        services.list_create(owner=owner, document=hagmi_doc(), notes="a\x00b")
    assert not GameList.objects.exists()
