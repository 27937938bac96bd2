"""The card editor's writes and reads: drafts of a package's next version, proposed corrections,
and the history of both.

A data editor (the `cards.edit_catalog` permission: the "Data editors" group, or staff) edits the cards of a
package's **draft** — the whole `hangar.package/1` document, started from the package's newest version — then
**publishes** it: the draft goes through `services.package_import` like any import (every check, one transaction),
so it becomes the package's next `PackageVersion` and lists that use a changed card say so. A
signed-in user may **propose** a correction to a card; an editor accepts it (the card goes into the draft) or rejects
it. Every one of these writes a `CatalogChange` with who and when.

A card is checked before it is kept, with the package checks every import runs (cards.package_validation): the
draft with this card in it must pass them, and only this card's problems are reported, each with its field path
(`skills[0].amount`), so that the form can put it next to its input.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from . import package_validation as checks
from .models import CardProposal, CatalogChange, GameSystem, PackageDraft, PackageVersion
from .selectors import cards_diff, fields_changed, package_document
from .services import PackageError, catalog_context, package_import, system_ensure

EDITOR_GROUP = "Data editors"
EDIT_PERMISSION = "cards.edit_catalog"
MAX_NOTE = 2000  # characters of a proposal's note or an editor's reply


class CardInvalid(Exception):
    """A card the checks refuse: `problems` are (field path or "", message) pairs, every one found."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"{field or 'card'}: {message}" for field, message in problems))


class DraftRefused(Exception):
    """A draft action that cannot be done (nothing to publish, a stale proposal, ...); the message says why."""


def is_data_editor(user: Any) -> bool:
    """The data-editor role: staff, or a user with `cards.edit_catalog` (the "Data editors" group has it)."""
    return bool(getattr(user, "is_authenticated", False)
                and (user.is_staff or user.has_perm(EDIT_PERMISSION)))


def editor_group():
    """The "Data editors" group with its permission (a migration makes it; this makes it again where a database was
    emptied since, as `manage.py flush` does)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=EDITOR_GROUP)
    permission = Permission.objects.get(content_type__app_label="cards", codename="edit_catalog")
    group.permissions.add(permission)
    return group


# --- reads ---------------------------------------------------------------------------------------------------


def draft_get(system_slug: str, slug: str) -> PackageDraft | None:
    return PackageDraft.objects.filter(system__slug=system_slug, slug=slug).select_related("created_by").first()


def working_document(system_slug: str, slug: str) -> dict | None:
    """What an editor edits: the draft's document when there is a draft, else the package as published (None when
    the system has no such package and no draft)."""
    draft = draft_get(system_slug, slug)
    if draft is not None:
        return draft.data
    return package_document(system_slug, slug)


def draft_changes(draft: PackageDraft | None, published: dict | None) -> dict:
    """What a draft changes against the published package (its document): cards_diff's added, removed, changed."""
    if draft is None:
        return {"added": [], "removed": [], "changed": {}}
    return cards_diff((published or {}).get("cards", []), draft.data.get("cards", []))


def history(system_slug: str, slug: str | None = None, *, limit: int = 50) -> QuerySet[CatalogChange]:
    changes = CatalogChange.objects.filter(system__slug=system_slug).select_related("user", "system")
    if slug is not None:
        changes = changes.filter(slug=slug)
    return changes[:limit]


def proposals_open(system_slug: str | None = None, slug: str | None = None) -> QuerySet[CardProposal]:
    """The corrections waiting for an editor, newest first; of one package when its system and slug are given."""
    proposals = CardProposal.objects.filter(status=CardProposal.Status.OPEN).select_related("system", "proposed_by")
    if system_slug is not None:
        proposals = proposals.filter(system__slug=system_slug, slug=slug)
    return proposals


def proposals_decided(*, limit: int = 30) -> QuerySet[CardProposal]:
    return (CardProposal.objects.exclude(status=CardProposal.Status.OPEN)
            .select_related("system", "proposed_by", "decided_by").order_by("-decided_at", "-id")[:limit])


def proposals_by(user: Any, system_slug: str, code: str, *, limit: int = 10) -> list[CardProposal]:
    """A user's own corrections to one card, newest first (the card page shows them with the editors' reply)."""
    if not getattr(user, "is_authenticated", False):
        return []
    proposals = list(CardProposal.objects.filter(proposed_by=user, system__slug=system_slug, code=code)[:limit])
    for proposal in proposals:
        proposal.outcome = accepted_outcome(proposal)
    return proposals


def accepted_outcome(proposal: CardProposal) -> tuple[str, PackageVersion | None]:
    """Where an accepted correction is now: ("published", the version that put it in the catalog), ("discarded",
    None) when the draft holding it was thrown away, ("draft", None) while it waits in the draft; ("", None) for a
    proposal not accepted. Read from the catalog's history: the first publish or discard of its package after
    the acceptance."""
    if proposal.status != CardProposal.Status.ACCEPTED or proposal.decided_at is None:
        return "", None
    after = (CatalogChange.objects.filter(system_id=proposal.system_id, slug=proposal.slug,
                                          at__gte=proposal.decided_at,
                                          action__in=(CatalogChange.Action.PUBLISHED, CatalogChange.Action.DISCARDED))
             .order_by("at", "id").first())
    if after is None:
        return "draft", None
    if after.action == CatalogChange.Action.DISCARDED:
        return "discarded", None
    version = PackageVersion.objects.filter(system_id=proposal.system_id, slug=proposal.slug,
                                            number=after.version_number).defer("data").first()
    return ("published", version) if version is not None else ("draft", None)


def proposal_get(pk: int) -> CardProposal | None:
    return CardProposal.objects.filter(pk=pk).select_related("system", "proposed_by", "decided_by").first()


def card_package(system_slug: str, code: str) -> str | None:
    """The slug of the package a published card is in."""
    from .models import Card

    return Card.objects.filter(system__slug=system_slug, code=code).values_list("package__slug", flat=True).first()


# --- checking one card ---------------------------------------------------------------------------------------


def card_problems(document: dict, card: Any, *, replacing: str | None = None) -> list[tuple[str, str]]:
    """Every problem of `card` in `document` (a package), as the package checks see it: the document with the card
    put in place of `replacing` (its code before the edit) or added at the end. Problems of other cards are not
    this card's and are left out. [] when the card may be kept."""
    trial = copy.copy(document)
    cards = list(document.get("cards", []))
    index = next((i for i, other in enumerate(cards) if other.get("code") == replacing), None)
    if index is None:
        index = len(cards)
        cards.append(card)
    else:
        cards[index] = card
    trial["cards"] = cards
    trial.setdefault("version", "draft")
    code = card.get("code") if isinstance(card, dict) else None
    problems: list[tuple[str, str]] = []
    if isinstance(code, str) and code and any(other.get("code") == code for i, other in enumerate(cards)
                                              if i != index):
        problems.append(("code", f"{code} is the code of another card of this package: a code names one card"))
    errors = [error for error in checks.check_package(trial) if not (problems and "code used" in error)]
    if not errors:
        system = GameSystem.objects.filter(slug=document.get("system")).first()
        if system is not None:
            existing = system.packages.filter(slug=document.get("slug")).first()
            errors = checks.check_against_catalog(trial, catalog_context(system, exclude=existing))
    mine = [f"card {code}" for code in [code] if isinstance(code, str) and code] + [f"card #{index + 1}"]
    for error in errors:
        head = next((label for label in mine if error.startswith(label + ",") or error.startswith(label + ":")),
                    None)
        if head is None:
            continue
        problems.append(_field_problem(error[len(head):]))
    if errors and not problems and not any(error.startswith("card ") for error in errors):
        problems = [("", error) for error in errors]  # the package itself (the draft's title, its formats)
    return problems


_FIELD = re.compile(r'^, field (?:"(?P<field>[^"]+)"(?: or "[^"]+")*)?: (?P<message>.*)$', re.DOTALL)


def _field_problem(rest: str) -> tuple[str, str]:
    """`, field "skills[0].amount": expected ...` -> ("skills[0].amount", "expected ..."); `: missing required field
    "armor"` -> ("armor", ...)."""
    match = _FIELD.match(rest)
    if match:
        field, message = match.group("field") or "", match.group("message")
    else:
        field, message = "", rest.lstrip(":, ").strip()
    missing = re.match(r'missing required field "([^"]+)"', message)
    if missing:
        field = f"{field}.{missing.group(1)}" if field else missing.group(1)
    if "code already used by package" in message or "code used" in message:
        field = field or "code"
    return field, message


# --- drafts --------------------------------------------------------------------------------------------------


def _draft_for_update(system: GameSystem, slug: str, user: Any) -> PackageDraft:
    """The package's draft, locked; started from the published package when there is none."""
    draft = PackageDraft.objects.select_for_update().filter(system=system, slug=slug).first()
    if draft is not None:
        return draft
    document = package_document(system.slug, slug)
    if document is None:
        raise DraftRefused(f"{system.slug} has no package {slug!r}")
    newest = (PackageVersion.objects.filter(system=system, slug=slug).order_by("-number")
              .values_list("number", flat=True).first())
    return PackageDraft.objects.create(system=system, slug=slug, based_on=newest, data=document,
                                       created_by=_user(user))


def _user(user: Any):
    return user if getattr(user, "is_authenticated", False) else None


def draft_card_save(system_slug: str, slug: str, card: dict, *, user: Any, replacing: str | None = None,
                    proposal: CardProposal | None = None) -> PackageDraft:
    """Put a card into the package's draft (a new one, or in place of the card coded `replacing`). Raises
    CardInvalid with every problem, and then nothing is written."""
    system = system_ensure(system_slug)
    with transaction.atomic():
        draft = _draft_for_update(system, slug, user)
        problems = card_problems(draft.data, card, replacing=replacing)
        if problems:
            raise CardInvalid(problems)
        cards = list(draft.data.get("cards", []))
        before = next((other for other in cards if other.get("code") == replacing), None) if replacing else None
        if before is not None:
            if before == card:
                return draft
            cards[cards.index(before)] = card
        else:
            cards.append(card)
        draft.data = {**draft.data, "cards": cards}
        draft.save(update_fields=["data", "updated_at"])
        action = CatalogChange.Action.CARD_CHANGED if before is not None else CatalogChange.Action.CARD_ADDED
        CatalogChange.objects.create(system=system, slug=slug, code=card["code"], action=action, user=_user(user),
                                     before=before, after=card, proposal=proposal)
        return draft


def draft_card_remove(system_slug: str, slug: str, code: str, *, user: Any) -> PackageDraft:
    system = system_ensure(system_slug)
    with transaction.atomic():
        draft = _draft_for_update(system, slug, user)
        cards = list(draft.data.get("cards", []))
        before = next((card for card in cards if card.get("code") == code), None)
        if before is None:
            raise DraftRefused(f"the draft has no card {code}")
        if len(cards) == 1:
            raise DraftRefused("a package keeps at least one card: add another card before removing this one")
        cards.remove(before)
        draft.data = {**draft.data, "cards": cards}
        draft.save(update_fields=["data", "updated_at"])
        CatalogChange.objects.create(system=system, slug=slug, code=code, action=CatalogChange.Action.CARD_REMOVED,
                                     user=_user(user), before=before)
        return draft


@dataclass(frozen=True)
class Published:
    number: int
    version: str
    added: int
    changed: int
    removed: int


def draft_publish(system_slug: str, slug: str, *, user: Any, version: str) -> Published:
    """The draft as the package's next version: checked and imported as every import is (services.package_import),
    kept as a PackageVersion published by `user`, and the draft is gone. Raises DraftRefused (no draft, nothing
    changed, a bad version label) or PackageError (the checks' problems); then nothing changes."""
    system = system_ensure(system_slug)
    version = (version or "").strip()
    if not version or len(version) > 50:
        raise DraftRefused("give the new version a label of 1 to 50 characters, such as 2026.12")
    with transaction.atomic():
        draft = PackageDraft.objects.select_for_update().filter(system=system, slug=slug).first()
        if draft is None:
            raise DraftRefused("there is no draft to publish: edit a card first")
        published = package_document(system_slug, slug) or {"cards": []}
        diff = cards_diff(published.get("cards", []), draft.data.get("cards", []))
        if not (diff["added"] or diff["removed"] or diff["changed"]):
            raise DraftRefused("the draft changes no card: there is nothing to publish")
        document = {**draft.data, "version": version}
        report = package_import(document, source=f"card editor ({getattr(user, 'username', '')})")
        if report.status == "unchanged":
            raise DraftRefused("the draft changes nothing: there is nothing to publish")
        kept = PackageVersion.objects.filter(system=system, slug=slug).order_by("-number").first()
        kept.published_by = _user(user)
        kept.save(update_fields=["published_by"])
        CatalogChange.objects.create(system=system, slug=slug, action=CatalogChange.Action.PUBLISHED,
                                     user=_user(user), version_number=kept.number,
                                     after={"version": version, **{key: len(value) for key, value in diff.items()}})
        draft.delete()
        return Published(kept.number, version, len(diff["added"]), len(diff["changed"]), len(diff["removed"]))


def draft_discard(system_slug: str, slug: str, *, user: Any) -> None:
    system = system_ensure(system_slug)
    with transaction.atomic():
        deleted, _ = PackageDraft.objects.filter(system=system, slug=slug).delete()
        if not deleted:
            raise DraftRefused("there is no draft to discard")
        CatalogChange.objects.create(system=system, slug=slug, action=CatalogChange.Action.DISCARDED,
                                     user=_user(user))


# --- proposed corrections ------------------------------------------------------------------------------------


def proposal_create(system_slug: str, code: str, card: dict, *, user: Any, note: str) -> CardProposal:
    """A signed-in user's correction to a published card: checked like an editor's edit (CardInvalid), and it must
    change something (DraftRefused)."""
    slug = card_package(system_slug, code)
    document = package_document(system_slug, slug) if slug else None
    if document is None:
        raise DraftRefused(f"{system_slug} has no card {code}")
    before = next(other for other in document["cards"] if other.get("code") == code)
    if card.get("code") != code:
        raise CardInvalid([("code", "a correction keeps the card's code; propose a new card to the editors "
                                    "in the note instead")])
    problems = card_problems(document, card, replacing=code)
    if problems:
        raise CardInvalid(problems)
    if card == before:
        raise DraftRefused("the proposal changes nothing: change a field of the card first")
    note = (note or "").strip()[:MAX_NOTE]
    with transaction.atomic():
        proposal = CardProposal.objects.create(system=system_ensure(system_slug), slug=slug, code=code,
                                               before=before, data=card, note=note, proposed_by=_user(user))
        CatalogChange.objects.create(system=proposal.system, slug=slug, code=code,
                                     action=CatalogChange.Action.PROPOSED, user=_user(user), before=before,
                                     after=card, proposal=proposal)
    return proposal


def proposal_accept(proposal: CardProposal, *, user: Any, reply: str = "") -> PackageDraft:
    """The proposed card goes into the package's draft (started when there is none); the editor publishes it with
    the draft's other changes. Raises DraftRefused for a decided proposal, CardInvalid when the card no longer
    fits the draft."""
    with transaction.atomic():
        locked = CardProposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status != CardProposal.Status.OPEN:
            raise DraftRefused("this proposal was decided already")
        card = _merged(locked, working_document(locked.system.slug, locked.slug) or {"cards": []})
        draft = draft_card_save(locked.system.slug, locked.slug, card, user=user, replacing=locked.code,
                                proposal=locked)
        _decide(locked, CardProposal.Status.ACCEPTED, user=user, reply=reply)
        return draft


def _merged(proposal: CardProposal, document: dict) -> dict:
    """The card the draft gets: the fields the proposal changes, on top of the card as the draft has it now, so that
    an editor's own edits of other fields since the proposal was made are kept."""
    current = next((card for card in document.get("cards", []) if card.get("code") == proposal.code), None)
    if current is None:
        raise DraftRefused(f"the draft no longer has the card {proposal.code}")
    merged = dict(current)
    for key in fields_changed(proposal.before, proposal.data):
        if key in proposal.data:
            merged[key] = proposal.data[key]
        else:
            merged.pop(key, None)
    return merged


def proposal_reject(proposal: CardProposal, *, user: Any, reply: str = "") -> None:
    with transaction.atomic():
        locked = CardProposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status != CardProposal.Status.OPEN:
            raise DraftRefused("this proposal was decided already")
        _decide(locked, CardProposal.Status.REJECTED, user=user, reply=reply)


def _decide(proposal: CardProposal, status: str, *, user: Any, reply: str) -> None:
    proposal.status = status
    proposal.decided_by = _user(user)
    proposal.decided_at = timezone.now()
    proposal.reply = (reply or "").strip()[:MAX_NOTE]
    proposal.save(update_fields=["status", "decided_by", "decided_at", "reply"])
    action = CatalogChange.Action.ACCEPTED if status == CardProposal.Status.ACCEPTED else CatalogChange.Action.REJECTED
    CatalogChange.objects.create(system=proposal.system, slug=proposal.slug, code=proposal.code, action=action,
                                 user=_user(user), proposal=proposal)


__all__ = ["CardInvalid", "DraftRefused", "PackageError", "is_data_editor"]
