"""Reads of the catalog (HackSoft style: selectors read, services write)."""
from __future__ import annotations

from django.core.cache import cache

from rules_engine.core.catalog import Catalog

from django.db.models import Count, Max

from .models import Card, DataPackage, Format, GameSystem

_CATALOG_CACHE_KEY = "hangar:catalog:{system}:{stamp}"


def catalog_stamp() -> str:
    """Changes whenever any package is (re)loaded, in any process; part of the catalog cache key."""
    stamp = DataPackage.objects.aggregate(latest=Max("loaded_at"), count=Count("id"), ids=Max("id"))
    return f"{stamp['latest']}:{stamp['count']}:{stamp['ids']}"


def system_get(slug: str) -> GameSystem | None:
    return GameSystem.objects.filter(slug=slug).first()


def catalog_for(system_slug: str) -> Catalog | None:
    """The engine view of one system's catalog, or None when the system is unknown.

    Cached per process until a package import bumps the stamp.
    """
    key = _CATALOG_CACHE_KEY.format(system=system_slug, stamp=catalog_stamp())
    catalog = cache.get(key)
    if catalog is not None:
        return catalog
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
    cache.set(key, catalog, 3600)
    return catalog
