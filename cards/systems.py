"""The game systems Hangar knows, as plain data for cards/ and builder/ (docs/design.md §2.2): a view of the registry
of game systems (rules_engine/systems.py), which is the one place a game is declared.

SYSTEMS maps slug -> {"name", "name_ja", "sections"}; SECTION_LABELS maps a section key -> {"ja", "en"}. Both are
live views: a game registered after this module was imported (rules_engine.systems.register) is in them too.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules_engine.systems import SYSTEMS as _REGISTRY


class _Systems(Mapping[str, dict[str, Any]]):
    def __getitem__(self, slug: str) -> dict[str, Any]:
        game = _REGISTRY[slug]
        return {"name": game.name, "name_ja": game.name_ja, "sections": list(game.section_keys)}

    def __iter__(self) -> Iterator[str]:
        return iter(_REGISTRY)

    def __len__(self) -> int:
        return len(_REGISTRY)


class _SectionLabels(Mapping[str, dict[str, str]]):
    def _labels(self) -> dict[str, dict[str, str]]:
        return {key: {"ja": label.ja, "en": label.en}
                for game in _REGISTRY.values() for key, label in game.section_labels.items()}

    def __getitem__(self, key: str) -> dict[str, str]:
        return self._labels()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels())

    def __len__(self) -> int:
        return len(self._labels())


SYSTEMS: Mapping[str, dict[str, Any]] = _Systems()
SECTION_LABELS: Mapping[str, dict[str, str]] = _SectionLabels()
