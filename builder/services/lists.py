"""Writes to lists (HackSoft services, Zulip style: `check_*` validates and raises, then `_do_*` writes).

Every write runs in one transaction; create, update, restore and fork each store a ListRevision.
An ILLEGAL list is saved and flagged (legality is a status, never a reason to refuse); a structurally malformed
document (builder.listio.ListFormatError) or a bad field is refused whole, and nothing is written.
"""
from __future__ import annotations

from pathlib import PurePath
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone, translation
from django.utils.translation import gettext

from builder import selectors
from builder.listio import parse_list_json, parse_list_text, parse_roster
from builder.listio.jsonio import NAME_MAX
from builder.models import GameList, ListEntry, ListRevision, Visibility
from cards.models import GameSystem
from cards.selectors import catalog_for, sample_list_get
from cards.storable_text import surrogate_problem

from builder.errors import (
    ListConflict,
    ListInputError,
    ListNotFound,
    ListPermissionDenied,
    ListTooLarge,
    ListVersionRequired,
)

MAX_NOTES = 20_000
MAX_NAME = 200
MAX_FORMAT = 64
MAX_VERSION = 2**31 - 1  # GameList.version: the largest version every database stores
IMPORT_SUFFIXES = {".txt": "text", ".json": "json", ".ros": "roster", ".rosz": "roster"}


# --- checks (raise, never write) ----------------------------------------------------------------------------


def check_document(document: Any) -> tuple[dict[str, Any], GameSystem]:
    """A normalised hangar.list/1 document and its system, or ListFormatError / ListInputError naming the path."""
    if not isinstance(document, (dict, str, bytes)):
        raise ListInputError("'document' must be a hangar.list/1 JSON object.", details={"path": "document"})
    doc = parse_list_json(document)  # builder.listio.check_envelope first, as POST /api/validate/, then the schema
    system = selectors.system_with_cards(doc["system"])
    if len(doc.get("name") or "") > MAX_NAME:
        raise ListInputError(f"name: at most {MAX_NAME} characters.", details={"path": "name"})
    if len(doc.get("format") or "") > MAX_FORMAT:
        raise ListInputError(f"format: at most {MAX_FORMAT} characters.", details={"path": "format"})
    return doc, system


def check_visibility(visibility: Any) -> str:
    if visibility not in Visibility.values:
        raise ListInputError(
            f"visibility: must be one of {', '.join(Visibility.values)}, not {visibility!r}.",
            details={"path": "visibility"},
        )
    return visibility


def check_notes(notes: Any) -> str:
    if notes is None:
        return ""
    if not isinstance(notes, str):
        raise ListInputError("notes: must be a string.", details={"path": "notes"})
    if len(notes) > MAX_NOTES:
        raise ListInputError(f"notes: at most {MAX_NOTES} characters ({len(notes)} given).", details={"path": "notes"})
    if "\x00" in notes:  # PostgreSQL cannot store U+0000 in text
        raise ListInputError("notes: must not contain the NUL character (U+0000).", details={"path": "notes"})
    unstorable = surrogate_problem(notes)
    if unstorable:  # a "\\udfff" escape in a JSON body (cards.storable_text)
        raise ListInputError(f"notes: {unstorable}.", details={"path": "notes"})
    return notes


def check_owner(game_list: GameList, user) -> None:
    """Only the owner writes. Others get 404 when they cannot even see the list, 403 when they can."""
    if user is not None and user.is_authenticated and game_list.owner_id == user.pk:
        return
    if not selectors.list_can_see(game_list, user):
        raise ListNotFound(f"No list with id {game_list.slug!r}.")
    raise ListPermissionDenied("Only the owner of this list can change it.")


def check_version(expected_version: Any) -> int:
    if expected_version is None or expected_version == "":
        raise ListVersionRequired(
            "Say which version you are editing: send 'version' in the body or an If-Match header "
            "(the list's current 'version')."
        )
    if isinstance(expected_version, bool):
        raise ListInputError("version: must be an integer.", details={"path": "version"})
    text = str(expected_version).strip().strip('"')
    shown = text if len(text) <= 24 else text[:24] + "…"
    try:
        version = int(text)
    except ValueError:
        raise ListInputError(f"version: must be an integer, not {shown!r}.", details={"path": "version"}) from None
    if not 1 <= version <= MAX_VERSION:  # no list has it, and past the column's range the database would raise
        raise ListInputError(f"version: must be a list version from 1 to {MAX_VERSION}, not {shown}.",
                             details={"path": "version"})
    return version


# --- writes --------------------------------------------------------------------------------------------------


def _apply_document(game_list: GameList, doc: dict[str, Any]) -> None:
    game_list.format = doc.get("format") or ""
    game_list.name = doc.get("name") or ""
    result, stamp = selectors.validation_compute(doc, doc["system"])
    _store_validation(game_list, result, stamp)
    game_list.package_versions = selectors.package_versions_now(doc["system"])  # what it is saved against


def _store_validation(game_list: GameList, result: dict[str, Any], stamp: str) -> None:
    severities = [violation.get("severity") for violation in result.get("violations", [])]
    game_list.legal = bool(result.get("legal"))
    game_list.error_count = severities.count("error")
    game_list.warning_count = severities.count("warning")
    game_list.validation = result
    game_list.catalog_stamp = stamp


def _do_write_entries(game_list: GameList, doc: dict[str, Any]) -> None:
    game_list.entries.all().delete()
    entries = [
        ListEntry(
            game_list=game_list,
            section=section,
            card=entry["card"],
            qty=entry["qty"],
            options=entry.get("options"),
            position=position,
        )
        for position, (section, entry) in enumerate(
            (section, entry) for section, items in doc["sections"].items() for entry in items
        )
    ]
    ListEntry.objects.bulk_create(entries)


def _do_write_revision(game_list: GameList, doc: dict[str, Any], author) -> ListRevision:
    last = game_list.revisions.aggregate(last=Max("number"))["last"] or 0
    return ListRevision.objects.create(
        game_list=game_list,
        number=last + 1,
        document=doc,
        notes=game_list.notes,
        visibility=game_list.visibility,
        author=author if author is not None and author.is_authenticated else None,
    )


def _reloaded(game_list: GameList) -> GameList:
    """A fresh copy with entries prefetched, as the API shows it."""
    return (
        GameList.objects.select_related("owner", "system", "forked_from")
        .prefetch_related("entries")
        .get(pk=game_list.pk)
    )


def list_create(
    *,
    owner,
    document: Any,
    notes: Any = "",
    visibility: Any = Visibility.PRIVATE,
    forked_from: GameList | None = None,
) -> GameList:
    """Save a new list (legal or not) with revision 1. Raises ListFormatError / ListInputError for bad input."""
    doc, system = check_document(document)
    notes = check_notes(notes)
    visibility = check_visibility(visibility)
    with transaction.atomic():
        game_list = GameList(owner=owner, system=system, notes=notes, visibility=visibility, forked_from=forked_from)
        _apply_document(game_list, doc)
        game_list.save()
        _do_write_entries(game_list, doc)
        _do_write_revision(game_list, doc, owner)
    return _reloaded(game_list)


def list_update(
    *,
    game_list: GameList,
    user,
    document: Any = None,
    notes: Any = None,
    visibility: Any = None,
    expected_version: Any,
) -> GameList:
    """Change a list the user owns, if it is still at `expected_version`; else ListConflict and nothing is written.

    `None` means "leave as is" for document, notes and visibility. The list's system cannot change.
    """
    check_owner(game_list, user)
    if game_list.deleted_at is not None:
        raise ListInputError("This list is in the trash; restore it before editing.", code="list.deleted")
    expected = check_version(expected_version)
    doc = None
    if document is not None:
        doc, system = check_document(document)
        if system.pk != game_list.system_id:
            raise ListInputError(
                f"system: this is a {game_list.system.slug} list; it cannot become {system.slug} "
                "(fork or import it as a new list instead).",
                code="list.system_change",
                details={"path": "system"},
            )
    notes = None if notes is None else check_notes(notes)
    visibility = None if visibility is None else check_visibility(visibility)

    with transaction.atomic():
        # Compare-and-swap on the version: atomic on every database, so two editors can never both win.
        claimed = GameList.objects.filter(pk=game_list.pk, version=expected, deleted_at__isnull=True).update(
            version=F("version") + 1
        )
        if not claimed:
            raise ListConflict(
                f"This list was changed since version {expected}: nothing was saved. "
                "Compare your version ('submitted') with the current one ('current') and save again.",
                current=_reloaded(game_list),
                submitted=doc if doc is not None else document,
            )
        game_list = GameList.objects.select_related("system").get(pk=game_list.pk)
        if notes is not None:
            game_list.notes = notes
        if visibility is not None:
            game_list.visibility = visibility
        if doc is not None:
            _apply_document(game_list, doc)
            _do_write_entries(game_list, doc)
        else:
            doc = selectors.list_document(game_list)
        game_list.save()
        _do_write_revision(game_list, doc, user)
    return _reloaded(game_list)


def list_delete(*, game_list: GameList, user) -> GameList:
    """Soft delete: the list goes to its owner's trash (`?deleted=1`) and can be restored. Deleting twice is fine."""
    check_owner(game_list, user)
    # Conditional on the row as stored (not as read): of parallel deletes one bumps the version, the others nothing.
    GameList.objects.filter(pk=game_list.pk, deleted_at__isnull=True).update(deleted_at=timezone.now(),
                                                                           version=F("version") + 1)
    return _reloaded(game_list)


def list_unlist(*, game_list: GameList, user) -> GameList:
    """Make the owner's private list unlisted (anyone with its link may open it; not in the gallery), so that its
    share link works; an unlisted or public list stays as it is. A trashed list: ListInputError (restore it first)."""
    check_owner(game_list, user)
    if game_list.deleted_at is not None:
        raise ListInputError("This list is in the trash; restore it before sharing it.", code="list.deleted")
    if game_list.visibility != Visibility.PRIVATE:
        return game_list
    return list_update(game_list=game_list, user=user, visibility=Visibility.UNLISTED,
                       expected_version=game_list.version)


def list_restore(*, game_list: GameList, user) -> GameList:
    """Take a list out of the trash, as a new revision."""
    check_owner(game_list, user)
    with transaction.atomic():
        # The UPDATE is conditional on the row as stored, and holds its lock to the end of the transaction: of
        # parallel restores exactly one takes the list out of the trash and writes a revision; the others wait for
        # it, then find the list no longer trashed and are told so.
        restored = GameList.objects.filter(pk=game_list.pk, deleted_at__isnull=False).update(
            deleted_at=None, version=F("version") + 1)
        if not restored:
            raise ListInputError("This list is not in the trash.", code="list.not_deleted")
        game_list = _reloaded(game_list)
        _do_write_revision(game_list, selectors.list_document(game_list), user)
    return _reloaded(game_list)


def fork_name(name: str, lang: str = "en") -> str:
    """A fork's name: "Copy of Blue rush" / "Blue rush のコピー" in `lang` ("en" or "ja"), the original's name cut
    (with "…") to keep within the list name's limit."""
    with translation.override(lang):
        if not name:
            return gettext("Copy of an untitled list")
        text = gettext("Copy of %(name)s") % {"name": name}
        if len(text) > NAME_MAX:
            keep = len(name) - (len(text) - NAME_MAX) - 1
            text = gettext("Copy of %(name)s") % {"name": name[:keep].rstrip() + "…"}
        return text


def list_fork(*, game_list: GameList, user, lang: str = "en") -> GameList:
    """Copy a list the user can see into a new private list of theirs, remembering where it came from, named
    "Copy of <name>" in `lang` (fork_name; the new owner renames it as they like)."""
    if user is None or not user.is_authenticated:
        raise ListPermissionDenied("Sign in to fork a list.", code="not_authenticated")
    if not selectors.list_can_see(game_list, user):  # others never see a trashed list: 404
        raise ListNotFound(f"No list with id {game_list.slug!r}.")
    if game_list.deleted_at is not None:  # its owner does, and is told why
        raise ListInputError("This list is in the trash; restore it before forking.", code="list.deleted")
    document = selectors.list_document(game_list)
    return list_create(
        owner=user,
        document={**document, "name": fork_name(document["name"], lang)},
        notes=game_list.notes,
        visibility=Visibility.PRIVATE,
        forked_from=game_list,
    )


def list_fork_sample(*, system: str, key: str, user) -> GameList:
    """Copy a bundled sample list (cards.selectors.sample_lists) into a new private list of the user's, under the
    sample's own name: a first list to change and play with."""
    if user is None or not user.is_authenticated:
        raise ListPermissionDenied("Sign in to copy a sample list.", code="not_authenticated")
    sample = sample_list_get(system, key)
    if sample is None:
        raise ListNotFound(f"No sample list {key!r} for the game {system!r}.")
    return list_create(owner=user, document=sample["document"], visibility=Visibility.PRIVATE)


def list_validation_refresh(*, game_list: GameList) -> GameList:
    """Recompute the cached validation when the catalog changed since it was computed (no new version)."""
    if not selectors.list_validation_is_stale(game_list):
        return game_list
    result, stamp = selectors.validation_compute(
        selectors.list_document(game_list), game_list.system.slug
    )
    _store_validation(game_list, result, stamp)
    GameList.objects.filter(pk=game_list.pk).update(
        legal=game_list.legal,
        error_count=game_list.error_count,
        warning_count=game_list.warning_count,
        validation=result,
        catalog_stamp=stamp,
    )
    return game_list


# --- import --------------------------------------------------------------------------------------------------


IMPORT_COPIES_MAX = 999  # "Blue rush (2)" ... "(999)": past that the name is kept as it is


def distinct_name(owner, name: str) -> str:
    """`name`, or "name (2)", "name (3)" ... — the first that none of `owner`'s lists (trash included) has, so that
    a list imported again is told apart from the first one in every list of lists and opponent picker. The name is
    cut (with "…") to keep the number within the name's limit; an empty name stays empty."""
    if not name or owner is None or not getattr(owner, "pk", None):
        return name
    taken = set(GameList.objects.filter(owner=owner, name__startswith=name[:NAME_MAX - 8]).values_list("name", flat=True))
    if name not in taken:
        return name
    for number in range(2, IMPORT_COPIES_MAX + 1):
        mark = f" ({number})"
        base = name if len(name) + len(mark) <= NAME_MAX else name[:NAME_MAX - len(mark) - 1].rstrip() + "…"
        if base + mark not in taken:
            return base + mark
    return name


def _with_name(doc: dict[str, Any], name: Any, owner=None) -> dict[str, Any]:
    """The imported document named `name` (when given), made distinct from the owner's other lists' names."""
    if name is not None and name != "":
        if not isinstance(name, str):
            raise ListInputError("name: must be a string.", details={"path": "name"})
        doc = {**doc, "name": name}
    if isinstance(doc.get("name"), str) and doc["name"]:
        doc = {**doc, "name": distinct_name(owner, doc["name"])}
    return doc


def list_import_text(
    *, owner, text: Any, system: str | None = None, name: Any = None, notes: Any = "", visibility: Any = Visibility.PRIVATE
) -> GameList:
    """Import the readable text format (docs/list-formats.md). Raises ListFormatError with line numbers."""
    if not isinstance(text, str):
        raise ListInputError("text: must be a string holding the list.", details={"path": "text"})
    doc = parse_list_text(text, catalog_for, system=system or None)
    return list_create(owner=owner, document=_with_name(doc, name, owner), notes=notes, visibility=visibility)


def list_import_json(
    *, owner, raw: Any, name: Any = None, notes: Any = "", visibility: Any = Visibility.PRIVATE
) -> GameList:
    """Import a hangar.list/1 document given as an object or a JSON string."""
    if not isinstance(raw, (dict, str, bytes)):
        raise ListInputError("json: must be a hangar.list/1 object or a JSON string.", details={"path": "json"})
    doc = parse_list_json(raw)
    return list_create(owner=owner, document=_with_name(doc, name, owner), notes=notes, visibility=visibility)


def list_import_file(
    *,
    owner,
    filename: str,
    content: bytes,
    system: str | None = None,
    name: Any = None,
    notes: Any = "",
    visibility: Any = Visibility.PRIVATE,
) -> GameList:
    """Import an uploaded .txt (text format), .json (hangar.list/1) or BattleScribe / New Recruit roster (.ros,
    .rosz: read against the imported BattleScribe data, builder/listio/roster.py)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if len(content) > limit:
        raise ListTooLarge(f"file: {filename} is {len(content)} bytes; the limit is {limit} bytes.")
    kind = IMPORT_SUFFIXES.get(PurePath(filename or "").suffix.lower())
    if kind is None:
        raise ListInputError(
            f"file: {filename!r} must be a .txt list, a .json (hangar.list/1) file or a BattleScribe roster "
            "(.ros, .rosz).", details={"path": "file"}
        )
    if kind == "roster":
        doc = parse_roster(content, catalog_for, filename=PurePath(filename).name)
        return list_create(owner=owner, document=_with_name(doc, name, owner), notes=notes, visibility=visibility)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ListInputError(
            f"file: {filename} is not UTF-8 text (byte {error.start}).", details={"path": "file"}
        ) from None
    if kind == "json":
        return list_import_json(owner=owner, raw=text, name=name, notes=notes, visibility=visibility)
    return list_import_text(owner=owner, text=text, system=system, name=name, notes=notes, visibility=visibility)
