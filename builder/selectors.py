"""Reads of lists, their validation, revisions and diffs, and of simulation runs.

HackSoft style: selectors read, services write."""
from __future__ import annotations

import json
import re
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from cards.models import Card, DataPackage, GameSystem, Opponent
from cards.selectors import (
    card_get, cards_diff, catalog_for, catalog_stamp, package_version_get, packages_list, search_normalise, system_get,
)
from cards.systems import SYSTEMS
from rules_engine.construction import RULES_VERSION, RULESETS, validate_list
from rules_engine.core.catalog import Catalog

from .errors import ListInputError, ListNotFound
from .listio import (
    MAX_ENTRIES, ListFormatError, RosterExportError, check_envelope, export_list_json, export_list_text, export_roster,
)
from .listio.hangar_roster import export_hangar_roster, uses_battlescribe_ids
from .models import (
    ACTIVE_STATUSES, FieldEntry, GameList, ListEntry, ListRevision, OpponentField, RunKind, RunStatus, SimulationRun,
    Visibility,
)

LIST_SCHEMA = "hangar.list/1"
SHARED_VISIBILITIES = (Visibility.UNLISTED, Visibility.PUBLIC)
DIFF_FIELDS = ("name", "format", "notes", "visibility")
LIST_SLUG = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what builder.models.new_list_slug makes
MAX_REVISION = 2**31 - 1  # ListRevision.number: the largest number every database stores
TRUE_WORDS = {"1", "true", "yes"}
FALSE_WORDS = {"0", "false", "no"}


# --- visibility ---------------------------------------------------------------------------------------------


def _user_id(user) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def list_can_see(game_list: GameList, user) -> bool:
    """The owner sees their lists, trash included; others see unlisted and public lists that are not deleted."""
    if game_list.owner_id == _user_id(user):
        return True
    return game_list.visibility in SHARED_VISIBILITIES and game_list.deleted_at is None


def list_get(*, slug: str, user) -> GameList:
    """The list `slug` if `user` may see it. A private list is a 404 for everyone but its owner."""
    if not isinstance(slug, str) or not LIST_SLUG.fullmatch(slug):  # e.g. a NUL, which PostgreSQL refuses
        raise ListNotFound(f"No list with id {slug!r}.")
    game_list = (
        GameList.objects.select_related("owner", "system", "forked_from")
        .prefetch_related("entries")
        .filter(slug=slug)
        .first()
    )
    if game_list is None or not list_can_see(game_list, user):
        raise ListNotFound(f"No list with id {slug!r}.")
    return game_list


def _parse_bool(name: str, value: str) -> bool:
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ListInputError(f"Query parameter {name!r} must be true or false, not {value!r}.", code="list.bad_filter")


def list_search(
    *,
    user,
    scope: str = "mine",
    system: str | None = None,
    format: str | None = None,
    legal: str | None = None,
    deleted: str | None = None,
    card: str | None = None,
    faction: str | None = None,
    sort: str | None = None,
) -> QuerySet[GameList]:
    """Lists for the index: `scope=mine` (the user's own, `deleted` for the trash) or `scope=public` (gallery).

    Filters come straight from query parameters; a bad value raises ListInputError naming the parameter. `card`
    keeps the lists using that card (its code, or words of its name: at most MAX_CARD_MATCHES cards), `faction` those
    with a card of that faction; both are one indexed subquery on the entries' card codes (never a query per list).
    `sort` is `newest` (the default) or `forks` (most forked first); every list carries `fork_count`, its forks that
    are not in a trash.
    """
    lists = GameList.objects.select_related("owner", "system", "forked_from")
    if scope == "public":
        lists = lists.filter(visibility=Visibility.PUBLIC, deleted_at__isnull=True).order_by("-created_at", "-id")
    elif scope == "mine":
        in_trash = _parse_bool("deleted", deleted) if deleted else False
        lists = lists.filter(owner_id=_user_id(user), deleted_at__isnull=not in_trash).order_by("-updated_at", "-id")
    else:
        raise ListInputError(f"Query parameter 'scope' must be 'mine' or 'public', not {scope!r}.", code="list.bad_filter")
    if system:
        if system not in SYSTEMS:
            raise ListInputError(
                f"Query parameter 'system': unknown system {system!r}; expected one of {', '.join(SYSTEMS)}.",
                code="list.bad_filter",
            )
        lists = lists.filter(system__slug=system)
    if format:
        if "\x00" in format:  # PostgreSQL cannot compare text holding U+0000
            raise ListInputError("Query parameter 'format' must not contain the NUL character (U+0000).",
                                 code="list.bad_filter")
        lists = lists.filter(format=format)
    if legal:
        lists = lists.filter(legal=_parse_bool("legal", legal))
    if card:
        codes = card_codes_matching(card, system=system)
        lists = lists.filter(id__in=ListEntry.objects.filter(card__in=codes).values("game_list_id"))
    if faction:
        if len(faction) > 80 or not _storable(faction):
            raise ListInputError("Query parameter 'faction' must be a faction's id (at most 80 characters).",
                                 code="list.bad_filter")
        of_faction = Card.objects.filter(faction=faction)
        if system:
            of_faction = of_faction.filter(system__slug=system)
        lists = lists.filter(id__in=ListEntry.objects.filter(card__in=of_faction.values("code")).values("game_list_id"))
    lists = lists.annotate(fork_count=Count("forks", filter=Q(forks__deleted_at__isnull=True), distinct=True))
    if sort and sort not in LIST_SORTS:
        raise ListInputError(f"Query parameter 'sort' must be one of {', '.join(LIST_SORTS)}, not {sort!r}.",
                             code="list.bad_filter")
    if sort == "forks":
        lists = lists.order_by("-fork_count", "-created_at", "-id")
    return lists


def _storable(text: str) -> bool:
    """Text a database compares: no NUL (PostgreSQL refuses it) and no lone surrogate (not UTF-8)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


LIST_SORTS = ("newest", "forks")
MAX_CARD_MATCHES = 50
MAX_CARD_WORDS = 100


def card_codes_matching(words: str, *, system: str | None = None) -> list[str]:
    """The codes of the cards `words` names: the card of that code, else the cards whose code or names contain the
    words (NFKC, any case), at most MAX_CARD_MATCHES of them. [] when none does (so no list matches)."""
    if len(words) > MAX_CARD_WORDS or not _storable(words):
        raise ListInputError(f"Query parameter 'card' must be a card's code or name (at most {MAX_CARD_WORDS} "
                             "characters).", code="list.bad_filter")
    cards = Card.objects.all()
    if system:
        cards = cards.filter(system__slug=system)
    exact = list(cards.filter(code__iexact=words.strip()).values_list("code", flat=True)[:MAX_CARD_MATCHES])
    if exact:
        return exact
    text = search_normalise(words)
    if not text:
        return []
    return list(cards.filter(search_text__contains=text).order_by("code")
                .values_list("code", flat=True)[:MAX_CARD_MATCHES])


# --- documents and validation -------------------------------------------------------------------------------


def system_sections(system_slug: str) -> list[str]:
    return list(SYSTEMS.get(system_slug, {}).get("sections", []))


def list_cards(document: Any) -> dict[str, list[tuple[str, int]]] | None:
    """A list's cards by section, in a form two lists compare by: {section: sorted (card code, copies)}, empty
    sections left out (None for a document without sections). Names, notes and formats do not count."""
    sections = document.get("sections") if isinstance(document, dict) else None
    if not isinstance(sections, dict):
        return None
    cards: dict[str, list[tuple[str, int]]] = {}
    for key, entries in sections.items():
        copies: dict[str, int] = {}
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict):  # the same card in two rows counts as one row of both copies
                code = str(entry.get("card"))
                copies[code] = copies.get(code, 0) + int(entry.get("qty") or 0)
        if copies:
            cards[key] = sorted(copies.items())
    return cards


# What a list downloads as: ?as= → (content type, file suffix). Rosters for BattleScribe / New Recruit.
EXPORT_KINDS = {"json": ("application/json", "json"), "text": ("text/plain; charset=utf-8", "txt"),
                "ros": ("application/xml", "ros"), "rosz": ("application/zip", "rosz")}


def list_export(document: dict[str, Any], kind: str, *, lang: str = "ja") -> bytes | str:
    """A list document in one of EXPORT_KINDS. A roster of a list whose cards have no BattleScribe ids raises
    RosterExportError (builder.listio), naming each card."""
    system = document["system"]
    if kind == "json":
        return export_list_json(document)
    catalog = catalog_for(system) or Catalog.build(system, [], [])
    if kind == "text":
        return export_list_text(document, catalog, lang=lang)
    if not uses_battlescribe_ids(document, catalog):  # against the data Hangar exports (hangar_roster)
        return export_hangar_roster(document, catalog, roster_package(document), zipped=kind == "rosz",
                                    filename="list.ros")
    return export_roster(document, catalog, zipped=kind == "rosz", filename="list.ros")


def roster_package(document: dict[str, Any]) -> dict[str, str]:
    """The package whose exported catalogue a roster of this list names: the package of its first card, else of
    its format, else the system's first package ({"slug", "title"})."""
    system = document["system"]
    codes = [entry.get("card") for entries in document["sections"].values() for entry in entries]
    packages = DataPackage.objects.filter(system__slug=system)
    found = next((p for code in codes[:1] for p in packages.filter(cards__code=code)[:1]), None) \
        or packages.filter(formats__slug=document.get("format") or "").first() or packages.order_by("slug").first()
    return {"slug": found.slug, "title": found.title} if found else {"slug": system, "title": system}


def roster_exportable(document: dict[str, Any]) -> bool:
    """The list can be downloaded for BattleScribe / New Recruit (every list whose cards are loaded)."""
    try:
        list_export(document, "ros")
    except RosterExportError:
        return False
    return True


def list_document(game_list: GameList) -> dict[str, Any]:
    """The list as a normalised hangar.list/1 document (docs/design.md §2.2), rebuilt from its entries."""
    sections: dict[str, list[dict[str, Any]]] = {name: [] for name in system_sections(game_list.system.slug)}
    for entry in game_list.entries.all():  # ordered by position
        item: dict[str, Any] = {"card": entry.card, "qty": entry.qty}
        if entry.options is not None:
            item["options"] = entry.options
        sections.setdefault(entry.section, []).append(item)
    return {
        "schema": LIST_SCHEMA,
        "system": game_list.system.slug,
        "format": game_list.format or None,
        "name": game_list.name,
        "sections": sections,
    }


def _catalog(system_slug: str) -> Catalog:
    return catalog_for(system_slug) or Catalog.build(system_slug, [], [])


def validation_stamp() -> str:
    """What a stored check was computed with: the construction rules' version (their texts included) and the
    catalog's stamp. A new rule text or a reloaded package makes every stored check stale."""
    return f"{RULES_VERSION}|{catalog_stamp()}"


def package_versions_now(system_slug: str) -> dict[str, int]:
    """{package slug: its newest version number} of a system's loaded packages (what a list is saved against)."""
    return {package.slug: package.latest for package in packages_list(system_slug) if package.latest}


def list_card_changes(game_list: GameList) -> dict[str, Any]:
    """The cards of a list that changed in the catalog since the list was saved: for each package whose
    version moved on, the diff of its two versions, kept to the list's cards. {"changed": [{"card", "fields"}],
    "removed": [code], "removed_names": {code: {"name", "name_en"}} (as the version the list was saved against
    named them: the catalog has them no more), "count": n}; nothing for a list saved before versions were
    recorded."""
    saved = game_list.package_versions or {}
    if not saved:
        return {"changed": [], "removed": [], "removed_names": {}, "count": 0}
    used = {entry.card for entry in game_list.entries.all()}
    changed: dict[str, list[str]] = {}
    removed: list[str] = []
    removed_names: dict[str, dict[str, str]] = {}
    now = package_versions_now(game_list.system.slug)
    for slug, number in saved.items():
        latest = now.get(slug)
        if latest == number:
            continue
        old = package_version_get(game_list.system.slug, slug, number)
        new = package_version_get(game_list.system.slug, slug, latest) if latest else None
        if old is None:
            continue
        diff = cards_diff(old.data.get("cards", []), new.data.get("cards", []) if new else [])
        for code, fields in diff["changed"].items():
            if code in used:
                changed.setdefault(code, sorted({*changed.get(code, []), *fields}))
        gone = [code for code in diff["removed"] if code in used and code not in removed]
        olds = {card["code"]: card for card in old.data.get("cards", []) if card["code"] in gone}
        for code in gone:  # a card that moved to another package is changed only where its data differ
            card = card_get(game_list.system.slug, code)
            if card is None:
                removed.append(code)
                removed_names[code] = {key: str(olds[code].get(key) or "") for key in ("name", "name_en")}
            elif card.data != olds[code]:
                fields = {key for key in {*card.data, *olds[code]} if card.data.get(key) != olds[code].get(key)}
                changed[code] = sorted({*changed.get(code, []), *fields})
    return {"changed": [{"card": code, "fields": fields} for code, fields in changed.items()],
            "removed": removed, "removed_names": removed_names, "count": len(changed) + len(removed)}


def validation_compute(document: Any, system_slug: str, lang: str = "en") -> tuple[dict[str, Any], str]:
    """Validate a document against the current catalog: (docs/design.md §2.3 result, the stamp it was computed on)."""
    stamp = validation_stamp()
    return validate_list(document, _catalog(system_slug), lang=lang), stamp


def list_validation_is_stale(game_list: GameList) -> bool:
    return not game_list.validation or game_list.catalog_stamp != validation_stamp()


def list_validation(game_list: GameList, lang: str = "en") -> dict[str, Any]:
    """The list's validation result in `lang`: the cached English result while the catalog is unchanged."""
    if lang == "en" and not list_validation_is_stale(game_list):
        return game_list.validation
    result, _ = validation_compute(list_document(game_list), game_list.system.slug, lang)
    return result


# --- revisions and diffs ------------------------------------------------------------------------------------


def revision_list(game_list: GameList) -> QuerySet[ListRevision]:
    return game_list.revisions.select_related("author").order_by("-number")


def revision_get(game_list: GameList, number: int) -> ListRevision:
    in_range = 1 <= number <= MAX_REVISION  # past the column's range the database would raise, not answer "none"
    revision = game_list.revisions.select_related("author").filter(number=number).first() if in_range else None
    if revision is None:
        raise ListNotFound(f"List {game_list.slug!r} has no revision {number}.")
    return revision


def _revision_fields(revision: ListRevision) -> dict[str, Any]:
    document = revision.document
    return {
        "name": document.get("name", ""),
        "format": document.get("format"),
        "notes": revision.notes,
        "visibility": revision.visibility,
    }


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _section_cards(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """card code -> {"qty": total, "options": options of its entries} (a card may sit in several entries)."""
    cards: dict[str, dict[str, Any]] = {}
    for entry in entries:
        card = cards.setdefault(entry["card"], {"qty": 0, "options": []})
        card["qty"] += entry["qty"]
        if entry.get("options") is not None:
            card["options"].append(entry["options"])
    for card in cards.values():
        options = card["options"]
        card["options"] = options[0] if len(options) == 1 else (options or None)
    return cards


def _section_diff(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    before, after = _section_cards(old), _section_cards(new)
    added = [{"card": code, **after[code]} for code in after if code not in before]
    removed = [{"card": code, **before[code]} for code in before if code not in after]
    changed = []
    for code in after:
        if code not in before:
            continue
        change: dict[str, Any] = {"card": code}
        if before[code]["qty"] != after[code]["qty"]:
            change["qty"] = {"from": before[code]["qty"], "to": after[code]["qty"]}
        if _canonical(before[code]["options"]) != _canonical(after[code]["options"]):
            change["options"] = {"from": before[code]["options"], "to": after[code]["options"]}
        if len(change) > 1:
            changed.append(change)
    return {"added": added, "removed": removed, "changed": changed}


def revision_diff(game_list: GameList, from_number: int, to_number: int) -> dict[str, Any]:
    """What changed from revision `from_number` to `to_number`: fields, and per section added/removed/changed cards."""
    old, new = revision_get(game_list, from_number), revision_get(game_list, to_number)
    old_fields, new_fields = _revision_fields(old), _revision_fields(new)
    fields = {
        name: {"from": old_fields[name], "to": new_fields[name]}
        for name in DIFF_FIELDS
        if old_fields[name] != new_fields[name]
    }
    old_sections = old.document.get("sections", {})
    new_sections = new.document.get("sections", {})
    order = system_sections(game_list.system.slug)
    names = order + [name for name in {**old_sections, **new_sections} if name not in order]
    sections = {name: _section_diff(old_sections.get(name, []), new_sections.get(name, [])) for name in names}
    return {"from": from_number, "to": to_number, "fields": fields, "sections": sections}


# --- the account-free validate endpoint ---------------------------------------------------------------------


def system_with_cards(slug: str) -> GameSystem:
    """The catalog row of a list's system, or ListInputError `list.unknown_system` when no package of it is loaded
    (saving and validating a list say the same)."""
    system = system_get(slug)
    if system is None:
        raise ListInputError(
            f"system: no cards are loaded for {slug!r} yet; an operator must run load_packages.",
            code="list.unknown_system",
            details={"path": "system"},
        )
    return system


def document_validate(document: Any, lang: str = "en") -> dict[str, Any]:
    """Validate an unsaved list (POST /api/validate/). Only the envelope is checked here, by the checks a save runs
    first too (builder.listio.check_envelope): a body that is not an object, an unknown system or a system without
    cards, more than MAX_ENTRIES entries, or text no answer can carry (a lone surrogate: ListFormatError with its
    path); everything else inside becomes violations."""
    if not isinstance(document, dict):
        raise ListInputError(
            f"The body must be a hangar.list/1 JSON object, not {_json_type(document)}.", details={"path": ""}
        )
    system = document.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        raise ListInputError(
            f"system: unknown system {system!r}; expected one of {', '.join(SYSTEMS)}.",
            code="list.unknown_system",
            details={"path": "system"},
        )
    system_with_cards(system)
    try:
        check_envelope(document)
    except ListFormatError as error:
        if error.issues[0].code != "json.too_many_entries":
            raise
        # this endpoint's own code for it (docs/api.md), with the same count as a save's message
        raise ListInputError(
            f"sections: the list has {error.issues[0].params['total']} entries; at most {MAX_ENTRIES} are allowed.",
            code="list.too_many_entries",
            details={"path": "sections"},
        ) from None
    return validate_list(document, catalog_for(system), lang=lang)


def document_gauges(document: Any) -> list[dict[str, Any]]:
    """The counters of what a list's format still needs, each with its limits from the format's options and its rule
    ID (RuleSet.gauges: {"key", "value", "min", "max", "rule", "subject", "severity", "status", "left"}); [] for a
    document of no known system or one without cards."""
    system = document.get("system") if isinstance(document, dict) else None
    ruleset = RULESETS.get(system) if isinstance(system, str) else None
    catalog = catalog_for(system) if ruleset is not None else None
    if catalog is None:
        return []
    return [gauge.as_dict() for gauge in ruleset.gauges(document, catalog)]


def _json_type(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


# --- simulation runs (the builder.services.runs_* modules write them) ---------------------------------------


def simulation_get(*, public_id: str, user) -> SimulationRun:
    """The run `public_id` if it is the user's own: anyone else's run is a 404 (runs are owner-only)."""
    run = SimulationRun.objects.select_related("game_list").filter(public_id=public_id).first()
    if run is None or run.owner_id != _user_id(user):
        raise ListNotFound(f"No simulation run with id {public_id!r}.")
    return run


def simulation_get_shared(*, public_id: str, user) -> SimulationRun:
    """A run by its link: its owner sees it in any state; anyone with the (unguessable) link sees a FINISHED run's
    result — that is what "share this result" means. Unfinished runs of others stay a 404."""
    run = SimulationRun.objects.select_related("game_list").filter(public_id=public_id).first()
    if run is None or (run.owner_id != _user_id(user) and run.status != RunStatus.DONE):
        raise ListNotFound(f"No simulation run with id {public_id!r}.")
    return run


def simulation_list(*, user) -> QuerySet[SimulationRun]:
    """The user's runs, newest first (the snapshot stays out: it can be large)."""
    return (
        SimulationRun.objects.filter(owner_id=_user_id(user))
        .select_related("game_list")
        .defer("snapshot")
        .order_by("-created_at", "-id")
    )


def simulation_progress(run: SimulationRun) -> int:
    """0-100: the share of chunks stored; 100 only once the result is merged."""
    if run.status == RunStatus.DONE:
        return 100
    if not run.chunks_total:
        return 0
    if run.kind == RunKind.DOCTOR and run.stages and run.games:  # its chunks grow by a stage: count its budget
        return min(99, simulation_games_played(run) * 100 // run.games)
    return min(99, run.chunks_done * 100 // run.chunks_total)


def simulation_games_played(run: SimulationRun) -> int:
    """How many of the run's games are played: all once it is done, else the games of its stored chunks (every
    opponent's of a gauntlet)."""
    if run.status == RunStatus.DONE:
        played = (run.result or {}).get("games_played") if isinstance(run.result, dict) else None
        return played if isinstance(played, int) else simulation_games_total(run)  # a doctor may stop short
    return run.chunks.aggregate(total=Sum("games"))["total"] or 0


def simulation_legs(run: SimulationRun) -> int:
    """How many opponents a gauntlet plays (1 for any other run): from its result's rows once done, else from its
    frozen batch (or, with the snapshot deferred, the opponents' keys in its label)."""
    if run.kind != RunKind.GAUNTLET:
        return 1
    if isinstance(run.result, dict) and isinstance(run.result.get("opponents"), list):
        return max(1, len(run.result["opponents"]))
    if "snapshot" not in run.get_deferred_fields() and isinstance(run.snapshot, dict):
        return max(1, len(run.snapshot.get("legs") or ()))
    label = run.opponent or ""
    count = label.split(" ", 1)[0]
    return int(count) if label.endswith(" opponents") and count.isdigit() else max(1, len(label.split(",")))


def simulation_games_total(run: SimulationRun) -> int:
    """Every game the run plays: its games (a doctor's budget) times the opponents of a gauntlet, which plays
    `games` against each."""
    return run.games * simulation_legs(run)


def simulation_active_count(*, user) -> int:
    return SimulationRun.objects.filter(owner_id=_user_id(user), status__in=ACTIVE_STATUSES).count()


def simulation_find_reusable(
    *, user, snapshot_hash: str, opponent: str, policy: str, games: int, seed: int, engine_version: str,
    kind: str = "simulation",
) -> SimulationRun | None:
    """A stored run answering the same question (same kind: a plain run, a gauntlet or a doctor run): the user's own
    done or active run first, else anyone's done run."""
    same = SimulationRun.objects.filter(
        snapshot_hash=snapshot_hash, opponent=opponent, policy=policy, games=games, seed=seed,
        engine_version=engine_version, kind=kind,
    )
    own = same.filter(owner_id=_user_id(user), status__in=(RunStatus.DONE, *ACTIVE_STATUSES)).order_by("-id").first()
    return own or same.filter(status=RunStatus.DONE).order_by("-id").first()


def simulation_reused_from(run: SimulationRun) -> SimulationRun | None:
    """The earlier finished run whose stored result answered `run` (the same kind, frozen snapshot or batch, games,
    seed, seats, policies and engine version: nothing was played), or None for a run that played its games."""
    if run.reused_from_id is None:
        return None
    return SimulationRun.objects.filter(pk=run.reused_from_id, status=RunStatus.DONE).defer("snapshot").first()


def simulation_stalled_ids(*, cutoff) -> list[int]:
    """Active runs whose last progress (or creation) is older than `cutoff`."""
    runs = SimulationRun.objects.filter(status__in=ACTIVE_STATUSES).filter(
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=cutoff)
    )
    return list(runs.order_by("id").values_list("id", flat=True))


def simulation_missing_chunks(run: SimulationRun) -> list[int]:
    stored = set(run.chunks.values_list("index", flat=True))
    return [index for index in range(run.chunks_total) if index not in stored]


# --- fields: named sets of weighted opponents (builder.services.fields writes them) ---------------------------


def field_can_see(field: OpponentField, user) -> bool:
    """As a list: the owner always; anyone else an unlisted (by its link) or public field."""
    return field.owner_id == _user_id(user) or field.visibility in SHARED_VISIBILITIES


def field_get(*, slug: Any, user) -> OpponentField:
    """The field `slug` if `user` may see it; a private field of someone else is a 404, as a list is."""
    if not isinstance(slug, str) or not LIST_SLUG.fullmatch(slug):
        raise ListNotFound(f"No field with id {slug!r}.")
    field = OpponentField.objects.select_related("owner", "system").filter(slug=slug).first()
    if field is None or not field_can_see(field, user):
        raise ListNotFound(f"No field with id {slug!r}.")
    return field


def field_search(*, user, scope: str = "mine", system: str | None = None) -> QuerySet[OpponentField]:
    """The user's own fields (`scope=mine`) or everyone's public ones (`scope=public`), newest change first, each
    with `entry_count`."""
    fields = OpponentField.objects.select_related("owner", "system")
    if scope == "mine":
        fields = fields.filter(owner_id=_user_id(user))
    elif scope == "public":
        fields = fields.filter(visibility=Visibility.PUBLIC)
    else:
        raise ListInputError(f"Query parameter 'scope' must be 'mine' or 'public', not {scope!r}.",
                             code="field.bad_filter")
    if system:
        if system not in SYSTEMS:
            raise ListInputError(f"Query parameter 'system': unknown system {system!r}; expected one of "
                                 f"{', '.join(SYSTEMS)}.", code="field.bad_filter")
        fields = fields.filter(system__slug=system)
    return fields.annotate(entry_count=Count("entries")).order_by("-updated_at", "-id")


def field_choices(*, user, system: str, limit: int = 30) -> list[OpponentField]:
    """The fields a gauntlet or the doctor offers for a list of `system`: the user's own first, then the newest
    public fields of other players (at most `limit` of each)."""
    mine = list(field_search(user=user, scope="mine", system=system)[:limit])
    others = field_search(user=user, scope="public", system=system).exclude(owner_id=_user_id(user))
    return mine + list(others[:limit])


def _entry_visible(entry: FieldEntry, user) -> bool:
    """An entry the reader may see and play: any sample opponent; a saved list that is not in its owner's trash
    and that the reader may see (a private list only by its owner)."""
    if entry.game_list_id is None:
        return True
    return entry.game_list.deleted_at is None and list_can_see(entry.game_list, user)


def field_entries(field: OpponentField, *, user) -> list[FieldEntry]:
    """The field's entries `user` may see, in order: an entry naming a list the reader may not see (a private
    list of its owner, a list in the trash) is left out, so a field shown to another player never reveals a
    private list."""
    entries = (FieldEntry.objects.filter(field=field).select_related("game_list", "game_list__owner")
               .order_by("position"))
    return [entry for entry in entries if _entry_visible(entry, user)]


def field_hidden_count(field: OpponentField, *, user) -> int:
    """How many of the field's entries `user` may not see (see field_entries)."""
    return FieldEntry.objects.filter(field=field).count() - len(field_entries(field, user=user))


def field_opponents(field: OpponentField, *, user) -> list[dict[str, Any]]:
    """The field's opponents as a gauntlet or the doctor takes them (builder.services.batches):
    [{"opponent": slug, "weight": w} or {"list": list id, "weight": w}], in the field's order, only the entries
    `user` may see and play (field_entries). Raises ListNotFound when `user` may not see the field itself."""
    if not field_can_see(field, user):
        raise ListNotFound(f"No field with id {field.slug!r}.")
    return [{"opponent": entry.opponent, "weight": entry.weight} if entry.game_list_id is None
            else {"list": entry.game_list.slug, "weight": entry.weight}
            for entry in field_entries(field, user=user)]


def field_entry_name(entry: FieldEntry, lang: str = "en") -> str:
    """An entry's name for the API: a list's name (its id when unnamed), a sample opponent's package name in `lang`
    (English, else its own), else its slug."""
    if entry.game_list_id is not None:
        return entry.game_list.name or entry.game_list.slug
    opponent = Opponent.objects.filter(system_id=entry.field.system_id, slug=entry.opponent).first()
    if opponent is None:
        return entry.opponent
    return (opponent.data.get("name_en") if lang == "en" else "") or opponent.name or entry.opponent


# --- matchup matrices (builder.services.matrices) -----------------------------------------------------------


def matrix_get(*, public_id: str, user):
    """The matrix `public_id` if it is the user's own: anyone else's is a 404 (matrices are owner-only, as runs)."""
    from .models import MatchupMatrix

    matrix = MatchupMatrix.objects.filter(public_id=public_id).first() if LIST_SLUG.fullmatch(public_id or "") \
        else None
    if matrix is None or matrix.owner_id != _user_id(user):
        raise ListNotFound(f"No matchup matrix with id {public_id!r}.")
    return matrix


def matrix_list(*, user, kind: str | None = None):
    """The user's matrices, newest first (of one kind when `kind` is given)."""
    from .models import MatchupMatrix

    matrices = MatchupMatrix.objects.filter(owner_id=_user_id(user))
    return matrices.filter(kind=kind) if kind else matrices


def matrix_cells(matrix) -> list:
    """The matrix's cells with their runs (the snapshot left out), by row then column."""
    return list(matrix.cells.select_related("run").defer("run__snapshot").order_by("row", "column"))


def matrix_states(matrices) -> dict[int, tuple[str, int]]:
    """{matrix pk: (status, progress 0-100)} of several matrices (a page of "your matrices") in one query, as
    matrix_status and matrix_progress give them."""
    from .models import MatrixCell

    cells: dict[int, list] = {matrix.pk: [] for matrix in matrices}
    for cell in (MatrixCell.objects.filter(matrix_id__in=list(cells)).select_related("run")
                 .only("matrix_id", "run__status", "run__chunks_done", "run__chunks_total")):
        cells[cell.matrix_id].append(cell)
    return {pk: (matrix_status(found), matrix_progress(found)) for pk, found in cells.items()}


def matrix_status(cells) -> str:
    """The matrix's status from its cells': queued or running while any cell is, then failed or cancelled when
    any cell ended so, else done."""
    statuses = {cell.run.status for cell in cells}
    for status in (RunStatus.RUNNING, RunStatus.QUEUED, RunStatus.FAILED, RunStatus.CANCELLED):
        if status in statuses:
            if status == RunStatus.QUEUED and any(cell.run.status == RunStatus.DONE for cell in cells):
                return RunStatus.RUNNING
            return status
    return RunStatus.DONE


def matrix_progress(cells) -> int:
    """0-100: the share of the cells' chunks stored (a done cell counts whole); 100 only when every cell is done."""
    total = done = 0
    for cell in cells:
        chunks = max(1, cell.run.chunks_total)
        total += chunks
        done += chunks if cell.run.status == RunStatus.DONE else min(cell.run.chunks_done, chunks)
    if all(cell.run.status == RunStatus.DONE for cell in cells):
        return 100
    return min(99, done * 100 // total) if total else 0


def _cell_figures(cell) -> dict[str, Any]:
    run = cell.run
    figures: dict[str, Any] = {"run": run.public_id, "status": run.status, "reused": cell.reused,
                               "games": run.games}
    result = run.result if run.status == RunStatus.DONE and isinstance(run.result, dict) else None
    if result is not None:
        figures.update({name: result.get(name) for name in ("wins", "losses", "draws", "win_rate",
                                                             "win_rate_interval")})
    return figures


def matrix_result(matrix, user, cells=None) -> dict[str, Any]:
    """The matrix as JSON: its rows (with each row's weighted total over the field once its cells are done),
    columns, and a win rate with its 95 % Wilson interval per cell (the list's, against that opponent). An opponent
    list's id is given only while the reader may see it."""
    from rules_engine.batch import weighted_total

    cells = matrix_cells(matrix) if cells is None else cells
    grid: list[list[dict[str, Any] | None]] = [[None] * len(matrix.columns) for _row in matrix.rows]
    for cell in cells:
        grid[cell.row][cell.column] = _cell_figures(cell)
    visible = {row.slug for row in GameList.objects.filter(
        slug__in=[column["list"] for column in matrix.columns if column.get("list")])
        .select_related("owner") if list_can_see(row, user)}
    rows = []
    for index, row in enumerate(matrix.rows):
        figures = grid[index]
        total = None
        if all(cell is not None and cell.get("win_rate") is not None for cell in figures):
            total = weighted_total([(column["weight"], cell["wins"], cell["games"])
                                    for column, cell in zip(matrix.columns, figures)])
        rows.append({"list": row["list"], "name": row["name"], "total": total})
    columns = [{**{name: column.get(name) for name in ("key", "name", "name_en", "kind", "weight")},
                "list": column["list"] if column.get("list") in visible else None} for column in matrix.columns]
    return {
        "id": matrix.public_id, "kind": matrix.kind, "system": matrix.system, "status": matrix_status(cells),
        "progress": matrix_progress(cells), "games": matrix.games, "seed": matrix.seed, "seats": matrix.seats,
        "policy": matrix.policy, "opponent_policy": matrix.opponent_policy or None,
        "cells_total": len(cells), "cells_reused": sum(1 for cell in cells if cell.reused),
        "left_out": matrix.left_out, "rows": rows, "columns": columns, "cells": grid,
    }


def matrix_loss_game(run, *, tries: int = 64) -> int | None:
    """The index of a game the list lost in a finished cell's run (the first among its first `tries` games, played
    again exactly), None when it lost none of them; remembered in the cache by run."""
    from django.core.cache import cache

    from rules_engine.replay import find_game

    result = run.result if isinstance(run.result, dict) else {}
    if run.status != RunStatus.DONE or not result.get("losses"):
        return None
    key = f"hangar:matrix-loss:{run.public_id}:{tries}"
    found = cache.get(key)
    if found is None:
        snapshot = SimulationRun.objects.only("snapshot").get(pk=run.pk).snapshot
        index = find_game(snapshot, run.seed, "loss", games=run.games, tries=tries)
        found = -1 if index is None else index
        cache.set(key, found, 24 * 3600)
    return None if found < 0 else found
