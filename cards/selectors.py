"""Reads of the catalog (HackSoft style: selectors read, services write)."""
from __future__ import annotations

import functools
import json
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from django.db.models import Count, F, Max, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from rules_engine.core.catalog import Catalog

from .models import Card, DataPackage, Format, GameSystem, Opponent, PackageVersion

# Process-local: a Catalog holds read-only mappings (not picklable) and is rebuilt only when the stamp changes.
_CATALOGS: dict[str, tuple[str, Catalog]] = {}
_CATALOGS_LOCK = threading.Lock()


# The stamp is read from the database at most once per STAMP_TTL_SECONDS per process (the query costs more than
# validating a list): an import in this process is seen at once (catalog_forget), one in another process within the TTL.
STAMP_TTL_SECONDS = 2.0
_stamp: tuple[float, str] | None = None


def catalog_stamp() -> str:
    """Changes whenever any package is (re)loaded, in any process; part of the catalog cache key."""
    global _stamp
    now = time.monotonic()
    if _stamp is not None and now < _stamp[0]:
        return _stamp[1]
    row = DataPackage.objects.aggregate(latest=Max("loaded_at"), count=Count("id"), ids=Max("id"))
    stamp = f"{row['latest']}:{row['count']}:{row['ids']}"
    _stamp = (now + STAMP_TTL_SECONDS, stamp)
    return stamp


def catalog_forget() -> None:
    """Drop this process's cached stamp and catalogs (after a package import, and between tests)."""
    global _stamp
    with _CATALOGS_LOCK:
        _stamp = None
        _CATALOGS.clear()
        _FACTIONS.clear()
        _PINNED.clear()


def system_get(slug: str) -> GameSystem | None:
    return GameSystem.objects.filter(slug=slug).first()


def catalog_for(system_slug: str) -> Catalog | None:
    """The engine view of one system's catalog, or None when the system is unknown.

    Cached per process until a package import bumps the stamp.
    """
    stamp = catalog_stamp()
    cached = _CATALOGS.get(system_slug)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    system = system_get(system_slug)
    if system is None:
        return None
    cards = [row for row in Card.objects.filter(system=system).values_list("data", flat=True)]
    formats = []
    default = None
    for fmt in Format.objects.filter(system=system):
        formats.append(fmt.data)
        if fmt.is_default and default is None:
            default = fmt.slug
    foreign = dict(Card.objects.exclude(system=system).values_list("code", "system__slug"))
    for card in cards:
        foreign.pop(card["code"], None)
    catalog = Catalog.build(system_slug, cards, formats, default_format=default, foreign_cards=foreign)
    with _CATALOGS_LOCK:
        _CATALOGS[system_slug] = (stamp, catalog)
    return catalog


_PINNED: dict[tuple[str, tuple[tuple[str, int, str], ...]], Catalog] = {}
PINNED_CACHE = 16  # catalogs of pinned versions kept per process (an event's; versions never change)


def catalog_pinned(system_slug: str, pins: dict[str, int]) -> Catalog:
    """The engine view of a system's catalog as it was at the package versions `pins` ({package slug: version
    number}, cards.PackageVersion): a tournament event checks every list against the data it pinned, whatever was
    imported since. A pinned version that no longer exists is left out (its cards are then unknown cards). Versions
    never change, so a built catalog is kept (a few per process)."""
    wanted = sorted((str(slug), int(number)) for slug, number in pins.items())
    found = {(slug, number): sha for slug, number, sha in PackageVersion.objects.filter(
        system__slug=system_slug, slug__in=[slug for slug, _n in wanted]).values_list("slug", "number", "sha256")}
    present = [(slug, number) for slug, number in wanted if (slug, number) in found]
    key = (system_slug, tuple((slug, number, found[slug, number]) for slug, number in present))
    cached = _PINNED.get(key)
    if cached is not None:
        return cached
    cards: list[dict] = []
    formats: list[dict] = []
    default = None
    seen: set[str] = set()
    for slug, number in present:
        data = (PackageVersion.objects.filter(system__slug=system_slug, slug=slug, number=number)
                .values_list("data", flat=True).first())
        if not isinstance(data, dict):
            continue
        for card in data.get("cards") or []:
            if isinstance(card, dict) and card.get("code") not in seen:
                seen.add(card.get("code"))
                cards.append(card)
        for fmt in data.get("formats") or []:
            if isinstance(fmt, dict):
                formats.append(fmt)
                if fmt.get("default") and default is None:
                    default = fmt.get("slug")
    catalog = Catalog.build(system_slug, cards, formats, default_format=default)
    with _CATALOGS_LOCK:
        if len(_PINNED) >= PINNED_CACHE:
            _PINNED.pop(next(iter(_PINNED)))
        _PINNED[key] = catalog
    return catalog


# --- catalog browsing (REST API, HTML views) -----------------------------------------------------------------


def systems_list() -> QuerySet[GameSystem]:
    """Systems with `card_count` and `default_format` (slug or None) annotated."""
    default = Format.objects.filter(system=OuterRef("pk"), is_default=True).values("slug")[:1]
    cards = Card.objects.filter(system=OuterRef("pk")).order_by().values("system").annotate(n=Count("pk")).values("n")
    return GameSystem.objects.annotate(
        card_count=Coalesce(Subquery(cards), 0), default_format=Subquery(default)
    ).order_by("slug")


def system_detail(slug: str) -> GameSystem | None:
    return systems_list().filter(slug=slug).first()


def formats_for(system: GameSystem) -> QuerySet[Format]:
    return Format.objects.filter(system=system).order_by("-is_default", "slug")


def opponents_for(system: GameSystem) -> QuerySet[Opponent]:
    return Opponent.objects.filter(system=system).order_by("slug")


@dataclass(frozen=True)
class CardQuery:
    """A validated card search (cards.api.filters builds it from query parameters)."""

    system: str | None = None
    q: str = ""
    category: str | None = None  # HAGMI category or MWDA/Warcaster kind
    faction: str | None = None
    frame: str | None = None  # HAGMI only
    cost_min: int | None = None
    cost_max: int | None = None
    ordering: str = "code"  # code, name, cost, with "-" for descending


CARD_ORDERINGS = ("code", "name", "cost")


def card_search(query: CardQuery) -> QuerySet[Card]:
    cards = Card.objects.select_related("system", "package")
    if query.system:
        cards = cards.filter(system__slug=query.system)
    if query.q:
        cards = cards.filter(search_text__contains=search_normalise(query.q))
    if query.category:
        cards = cards.filter(category=query.category)
    if query.faction:
        cards = cards.filter(faction=query.faction)
    if query.frame:
        cards = cards.filter(data__frame=query.frame)
    if query.cost_min is not None:
        cards = cards.filter(cost__gte=query.cost_min)
    if query.cost_max is not None:
        cards = cards.filter(cost__lte=query.cost_max)
    return cards.order_by(*_card_ordering(query.ordering))


def _card_ordering(ordering: str) -> list:
    descending = ordering.startswith("-")
    key = ordering.lstrip("-")
    if key == "cost":  # cards without a cost sort last either way
        primary = F("cost").desc(nulls_last=True) if descending else F("cost").asc(nulls_last=True)
    else:
        primary = f"-{key}" if descending else key
    return [primary, "system__slug", "code"]


def card_get(system_slug: str, code: str) -> Card | None:
    return Card.objects.select_related("system", "package").filter(system__slug=system_slug, code=code).first()


def card_by_code(code: str, *, system: str | None = None) -> Card | None:
    """The card of that code (in that system, when given; codes are unique within a system)."""
    cards = Card.objects.filter(code=code)
    return (cards.filter(system__slug=system) if system else cards).order_by("system__slug").first()


def search_normalise(text: str) -> str:
    """Same normalisation as Card.search_text (NFKC, lower-case), so full-width input finds half-width names."""
    return unicodedata.normalize("NFKC", text).strip().lower()


def package_document(system_slug: str, slug: str) -> dict | None:
    """The `hangar.package/1` document of a loaded package, rebuilt from its rows (cards, formats and opponents in
    the order they were imported), or None when the system has no such package."""
    package = DataPackage.objects.filter(system__slug=system_slug, slug=slug).first()
    if package is None:
        return None
    document = {
        "schema": "hangar.package/1",
        "system": system_slug,
        "slug": package.slug,
        "version": package.version,
        "title": package.title,
        "cards": list(package.cards.order_by("id").values_list("data", flat=True)),
        "formats": list(package.formats.order_by("id").values_list("data", flat=True)),
        "opponents": list(package.opponents.order_by("id").values_list("data", flat=True)),
    }
    # What has no rows — the factions a Warcaster package declares, its description — comes from the
    # version kept for this content, so that the document is the one imported (a sheet of the same cards imports as
    # "unchanged", and keeps the description).
    kept = (PackageVersion.objects.filter(system__slug=system_slug, slug=slug, sha256=package.sha256)
            .order_by("-number").values_list("data", flat=True).first())
    if isinstance(kept, dict):
        for key in ("description", "factions"):
            if kept.get(key):
                document[key] = kept[key]
    return document


_FACTIONS: dict[str, tuple[str, dict[str, dict[str, str]]]] = {}


def declared_factions(system_slug: str) -> dict[str, dict[str, str]]:
    """The factions the loaded packages of a system declare (a Warcaster package names its factions with
    ja/en names, a BattleScribe import one per catalogue): {slug: {"name": ja, "name_en": en}}. They have no rows of
    their own, so they come from each loaded package's current version; cached per process like the catalog."""
    stamp = catalog_stamp()
    cached = _FACTIONS.get(system_slug)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found: dict[str, dict[str, str]] = {}
    for slug, sha in DataPackage.objects.filter(system__slug=system_slug).order_by("slug").values_list("slug", "sha256"):
        kept = (PackageVersion.objects.filter(system__slug=system_slug, slug=slug, sha256=sha)
                .order_by("-number").values_list("data", flat=True).first())
        for faction in (kept or {}).get("factions") or [] if isinstance(kept, dict) else []:
            if isinstance(faction, dict) and isinstance(faction.get("slug"), str) and faction.get("name"):
                found.setdefault(faction["slug"], {"name": str(faction["name"]),
                                                   "name_en": str(faction.get("name_en") or faction["name"])})
    with _CATALOGS_LOCK:
        _FACTIONS[system_slug] = (stamp, found)
    return found


def cards_diff(before: list[dict], after: list[dict]) -> dict:
    """What changed from one list of cards to another, by code: {"added": [code], "removed": [code], "changed":
    {code: [field, ...]}} in the order of the cards (a sheet import's dry run, the diff of two package versions)."""
    old = {card["code"]: card for card in before}
    new = {card["code"]: card for card in after}
    return {
        "added": [code for code in new if code not in old],
        "removed": [code for code in old if code not in new],
        "changed": {code: fields_changed(old[code], card) for code, card in new.items()
                    if code in old and card != old[code]},
    }


def fields_changed(before: dict, after: dict) -> list[str]:
    """The fields of a card that differ from one version to another (added, removed or changed), sorted."""
    return sorted(key for key in {*before, *after} if before.get(key) != after.get(key))


def package_versions(system_slug: str, slug: str) -> QuerySet[PackageVersion]:
    """Every version of a package, newest first (the documents stay out: they can be large)."""
    return PackageVersion.objects.filter(system__slug=system_slug, slug=slug).defer("data").order_by("-number")


def package_version_get(system_slug: str, slug: str, number: int) -> PackageVersion | None:
    return PackageVersion.objects.filter(system__slug=system_slug, slug=slug, number=number).first()


def packages_list(system_slug: str | None = None) -> QuerySet[DataPackage]:
    """The loaded packages, with their card counts and the number of their newest version."""
    packages = DataPackage.objects.select_related("system").annotate(card_count=Count("cards", distinct=True))
    newest = PackageVersion.objects.filter(system=OuterRef("system"), slug=OuterRef("slug")).order_by("-number")
    packages = packages.annotate(latest=Subquery(newest.values("number")[:1]))
    return packages.filter(system__slug=system_slug) if system_slug else packages


def package_sha256(system_slug: str, slug: str) -> str:
    """The sha256 of a loaded package's content ("" when the system has no such package): the data import page
    refuses a confirm when it changed since the preview."""
    found = DataPackage.objects.filter(system__slug=system_slug, slug=slug).values_list("sha256", flat=True).first()
    return found or ""


def package_battlescribe(system_slug: str, slug: str, *, zipped: bool = False) -> dict[str, bytes] | None:
    """A loaded package as BattleScribe data, {file name: bytes} of its game system and catalogue (zipped one by
    one as .gstz/.catz when `zipped`), or None when the system has no such package. Bounded by the package's size,
    which its import bounded (docs/data-packages.md "BattleScribe data out")."""
    from rules_engine.formats.battlescribe.export import export_package

    document = package_document(system_slug, slug)
    return export_package(document, zipped=zipped) if document is not None else None


def package_battlescribe_zip(system_slug: str, slug: str) -> bytes | None:
    """The package page's download: one .zip of the package's .gst and .cat, or None (no such package)."""
    from rules_engine.formats.battlescribe.export import export_zip

    document = package_document(system_slug, slug)
    return export_zip(document) if document is not None else None


# --- the bundled sample lists ---------------------------------------------------------------------------------

BUNDLED_DIR = Path(__file__).resolve().parent / "packages"  # the bundled packages; `<system>/lists/`: the sample lists
SAMPLE_LIST_MAX_BYTES = 256 * 1024  # a sample list is a few KB; a bigger file is not read
SAMPLE_LIST_KEY_MAX = 64


def bundled_dir(system: str, directory: Path | str | None = None, *, own: bool | None = None) -> Path:
    """The folder of `system`'s bundled packages (and its `lists/`): the one its game brings (the registry entry's
    `bundled_dir`, a game outside rules_engine/) unless `own` is false (by default: when no directory is given),
    else `<directory>/<system>/` (cards/packages/<system>/)."""
    from rules_engine.systems import SYSTEMS

    entry = SYSTEMS.get(system)
    if (directory is None if own is None else own) and entry is not None and entry.bundled_dir:
        return Path(entry.bundled_dir)
    return Path(directory if directory is not None else BUNDLED_DIR) / system


@functools.lru_cache(maxsize=1)
def _sample_lists() -> tuple[dict, ...]:
    from .systems import SYSTEMS

    found = []
    for system in SYSTEMS:
        for path in sorted((bundled_dir(system) / "lists").glob("*.json")):
            if not path.is_file() or path.stat().st_size > SAMPLE_LIST_MAX_BYTES or len(path.stem) > SAMPLE_LIST_KEY_MAX:
                continue
            document = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(document, dict) or document.get("system") != system:
                continue
            sections = document.get("sections") or {}
            count = sum(entry.get("qty", 0) for entries in sections.values() for entry in entries
                        if isinstance(entry.get("qty"), int))
            found.append({"system": system, "key": path.stem, "name": str(document.get("name") or path.stem),
                          "format": document.get("format") or "", "cards": count, "document": document})
    return tuple(found)


def sample_lists(system: str | None = None) -> list[dict]:
    """The sample lists bundled with the packages (cards/packages/<system>/lists/*.json), read once per process:
    [{"system", "key" (the file's name), "name", "format", "cards" (copies in all), "document"}], by game."""
    return [sample for sample in _sample_lists() if system is None or sample["system"] == system]


def sample_list_get(system: str, key: str) -> dict | None:
    return next((sample for sample in _sample_lists() if sample["system"] == system and sample["key"] == key), None)


def card_factions(system_slug: str) -> list[str]:
    """The factions the system's cards name (MWDA, Warcaster; none in HAGMI!), sorted: one DISTINCT query."""
    values = Card.objects.filter(system__slug=system_slug).exclude(faction="").order_by()
    return sorted(set(values.values_list("faction", flat=True).distinct()))


def _registry_changed() -> None:
    """A game came or went (rules_engine.systems.register): its sample lists too."""
    _sample_lists.cache_clear()
    catalog_forget()


def _listen_to_the_registry() -> None:
    from rules_engine.systems import on_change

    on_change(_registry_changed)


_listen_to_the_registry()
