"""The HAGMI skill registry: every kind a card may declare (skills.py) does something in play (skill_effects.py binds
one handler per kind into skills.HANDLERS), and the game module loads the handlers."""
from __future__ import annotations

import pytest

from rules_engine.hagmi import game  # noqa: F401  (a game in play: its import binds the handlers)
from rules_engine.hagmi import skills


def test_every_declared_skill_kind_has_its_handler_and_no_handler_is_undeclared():
    assert set(skills.HANDLERS) == set(skills.REGISTRY)
    assert all(callable(handler) for handler in skills.HANDLERS.values())


def test_a_handler_for_an_undeclared_kind_is_refused():
    with pytest.raises(ValueError, match="not declared"):
        skills.handles("teleport")
