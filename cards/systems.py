"""The game systems Hangar knows, as plain data for cards/ and builder/ (docs/design.md §2.2): a view of the registry
of game systems (rules_engine/systems.py), which is the one place a game is declared.

SYSTEMS maps slug -> {"name", "name_ja", "sections"}; SECTION_LABELS maps a section key -> {"ja", "en"}.
"""
from rules_engine.systems import SYSTEMS as _REGISTRY

SYSTEMS = {
    slug: {"name": game.name, "name_ja": game.name_ja, "sections": list(game.section_keys)}
    for slug, game in _REGISTRY.items()
}

SECTION_LABELS = {
    key: {"ja": label.ja, "en": label.en}
    for game in _REGISTRY.values()
    for key, label in game.section_labels.items()
}
