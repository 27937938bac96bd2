"""Writes to fields (HackSoft services, Zulip style: `check_*` validates and raises, then one transaction writes).

A field (a "meta") is a named, shareable set of weighted opponents of one game (builder.models.OpponentField):
each entry a sample opponent (its package slug) or a saved list, with a weight above 0. A gauntlet or the list
doctor plays a list against it (builder.services.batches: an opponent {"field": id}). Bad input is a 400
(ListInputError, code field.invalid) whose details name the path (name, entries[2].list, ...); nothing is
written. An entry may name only a list the field's owner may see — their own, or another player's unlisted or
public list — so a private list never enters another player's field.
"""
from __future__ import annotations

import math
from typing import Any

from django.db import transaction

from builder import selectors
from builder.errors import ListInputError, ListNotFound, ListPermissionDenied
from builder.models import FieldEntry, GameList, OpponentField, Visibility
from cards.models import GameSystem, Opponent
from cards.storable_text import surrogate_problem
from rules_engine.batch import MAX_LEGS

MAX_ENTRIES = MAX_LEGS  # a gauntlet plays at most MAX_LEGS opponents: a field never holds more
MAX_NAME = 100
MAX_DESCRIPTION = 2_000
MAX_WEIGHT = 1_000_000
MAX_FIELDS = 200  # fields per player
CODE = "field.invalid"


def _invalid(message: str, path: str, **details: Any) -> ListInputError:
    return ListInputError(message, code=CODE, details={"path": path, **details})


# --- checks (raise, never write) ----------------------------------------------------------------------------


def _check_text(value: Any, path: str, limit: int, *, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _invalid(f"{path}: expected text, got {type(value).__name__}.", path)
    value = value.strip() if path == "name" else value
    if required and not value:
        raise _invalid(f"{path}: required: give the field a name (at most {limit} characters).", path)
    if len(value) > limit:
        raise _invalid(f"{path}: at most {limit} characters, got {len(value)}.", path, limit=limit)
    if "\x00" in value or surrogate_problem(value):
        raise _invalid(f"{path}: contains a character that cannot be stored (U+0000 or a lone surrogate).", path)
    return value


def check_field_system(system: Any) -> GameSystem:
    found = GameSystem.objects.filter(slug=system).first() if isinstance(system, str) else None
    if found is None:
        known = ", ".join(GameSystem.objects.order_by("slug").values_list("slug", flat=True))
        raise _invalid(f"system: unknown game {system!r}; expected one of: {known}.", "system")
    return found


def check_field_visibility(visibility: Any) -> str:
    if visibility not in Visibility.values:
        raise _invalid(f"visibility: must be one of {', '.join(Visibility.values)}, not {visibility!r}.",
                       "visibility")
    return visibility


def _weight(value: Any, path: str) -> float:
    if value is None:
        return 1.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 < value <= MAX_WEIGHT) \
            or (isinstance(value, float) and not math.isfinite(value)):
        raise _invalid(f"{path}: expected a number above 0 and at most {MAX_WEIGHT}, got {value!r}.", path)
    return float(value)


def _entry_list(owner, system: GameSystem, slug: Any, path: str) -> GameList:
    """A saved list as an entry: one the field's owner may see (their own, or someone's unlisted or public list),
    not in the trash, of the field's game. The message quotes the id given, never a list it may not show."""
    if not isinstance(slug, str) or not slug:
        raise _invalid(f"{path}: expected the id of a saved list.", path)
    game_list = (GameList.objects.select_related("system").filter(slug=slug).first()
                 if selectors.LIST_SLUG.fullmatch(slug) else None)
    if game_list is None or not selectors.list_can_see(game_list, owner):
        raise _invalid(f"{path}: no list {slug!r} you may put in a field: an entry must be one of your own lists, "
                       "or another player's public or unlisted list.", path, list=slug)
    if game_list.deleted_at is not None:
        raise _invalid(f"{path}: list {slug!r} is in the trash; restore it first.", path, list=slug)
    if game_list.system_id != system.pk:
        raise _invalid(f"{path}: list {slug!r} is a {game_list.system.slug} list; this field is of "
                       f"{system.slug}.", path, list=slug)
    return game_list


def check_field_entries(owner, system: GameSystem, entries: Any) -> list[tuple[str, GameList | None, float]]:
    """[(sample opponent slug or "", the list or None, weight)] of `entries` ([{"opponent": slug} or {"list": id},
    each with an optional "weight", default 1]); at most MAX_ENTRIES of them, none twice."""
    if not isinstance(entries, list):
        raise _invalid("entries: expected a list of {\"opponent\": slug} or {\"list\": id} objects, each with an "
                       "optional \"weight\".", "entries")
    if len(entries) > MAX_ENTRIES:
        raise _invalid(f"entries: at most {MAX_ENTRIES} entries in a field, {len(entries)} given.", "entries",
                       limit=MAX_ENTRIES)
    samples = set(Opponent.objects.filter(system=system).values_list("slug", flat=True))
    found: list[tuple[str, GameList | None, float]] = []
    seen: set[str] = set()
    for index, given in enumerate(entries):
        path = f"entries[{index}]"
        if not isinstance(given, dict) or ("opponent" in given) == ("list" in given):
            raise _invalid(f'{path}: expected {{"opponent": slug}} or {{"list": id}} (exactly one), with an '
                           'optional "weight".', path)
        extra = sorted(set(given) - {"opponent", "list", "weight"})
        if extra:
            raise _invalid(f"{path}: unknown field {extra[0]!r} (expected opponent or list, and weight).",
                           f"{path}.{extra[0]}")
        weight = _weight(given.get("weight"), f"{path}.weight")
        if "opponent" in given:
            slug = given["opponent"]
            if not isinstance(slug, str) or slug not in samples:
                raise _invalid(f"{path}.opponent: {system.slug} has no sample opponent {slug!r}; expected one of: "
                               f"{', '.join(sorted(samples)) or 'none'}.", f"{path}.opponent")
            key, row = slug, (slug, None, weight)
        else:
            game_list = _entry_list(owner, system, given["list"], f"{path}.list")
            key, row = f"list:{game_list.slug}", ("", game_list, weight)
        if key in seen:
            raise _invalid(f"{path}: {key} is given twice.", path)
        seen.add(key)
        found.append(row)
    return found


def _check_owner(field: OpponentField, user) -> None:
    if field.owner_id != getattr(user, "pk", None):
        if selectors.field_can_see(field, user):
            raise ListPermissionDenied("Only the owner of this field can change it.")
        raise ListNotFound(f"No field with id {field.slug!r}.")


# --- writes -------------------------------------------------------------------------------------------------


def _write_entries(field: OpponentField, entries: list[tuple[str, GameList | None, float]]) -> None:
    FieldEntry.objects.filter(field=field).delete()
    FieldEntry.objects.bulk_create([
        FieldEntry(field=field, position=position, opponent=opponent, game_list=game_list, weight=weight)
        for position, (opponent, game_list, weight) in enumerate(entries)])


def field_create(*, owner, system: Any, name: Any, description: Any = "", visibility: Any = Visibility.PRIVATE,
                 entries: Any = ()) -> OpponentField:
    """A new field of `owner` (at most MAX_FIELDS each). `entries` as check_field_entries takes them."""
    game = check_field_system(system)
    name = _check_text(name, "name", MAX_NAME, required=True)
    description = _check_text(description, "description", MAX_DESCRIPTION, required=False)
    visibility = check_field_visibility(visibility)
    rows = check_field_entries(owner, game, list(entries) if isinstance(entries, tuple) else entries)
    if OpponentField.objects.filter(owner=owner).count() >= MAX_FIELDS:
        raise ListInputError(f"You already have {MAX_FIELDS} fields, the most a player may keep: delete one first.",
                             code="field.limit", details={"path": "fields", "limit": MAX_FIELDS})
    with transaction.atomic():
        field = OpponentField.objects.create(owner=owner, system=game, name=name, description=description,
                                             visibility=visibility)
        _write_entries(field, rows)
    return field


def field_update(*, field: OpponentField, user, name: Any = None, description: Any = None, visibility: Any = None,
                 entries: Any = None) -> OpponentField:
    """Change a field (its owner only: 403 for anyone who may see it, else 404). None leaves a part as it is;
    `entries` replaces every entry. The game of a field never changes."""
    _check_owner(field, user)
    name = None if name is None else _check_text(name, "name", MAX_NAME, required=True)
    description = None if description is None else _check_text(description, "description", MAX_DESCRIPTION,
                                                                 required=False)
    visibility = None if visibility is None else check_field_visibility(visibility)
    rows = None if entries is None else check_field_entries(user, field.system, entries)
    with transaction.atomic():
        for attribute, value in (("name", name), ("description", description), ("visibility", visibility)):
            if value is not None:
                setattr(field, attribute, value)
        field.save()
        if rows is not None:
            _write_entries(field, rows)
    return field


def field_delete(*, field: OpponentField, user) -> None:
    """Delete a field for good (its owner only). Runs that played it keep their frozen opponents."""
    _check_owner(field, user)
    field.delete()


__all__ = ["MAX_ENTRIES", "check_field_entries", "field_create", "field_delete", "field_update"]
