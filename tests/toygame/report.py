"""Toy Duel's replay report: each event its engine logs (game.py: `setup`, `turn_start`, `play`, `game_over`) as a
sentence in the reader's language, naming cards and sides through the report's Namer (rules_engine/core/naming.py):
"You played Lance Knight and rolled 4: 9 points.", 「あなたは槍の騎士を出し、ダイスは4：9点。」.

The site's catalogue of translations has no line for a game outside it, so its sentences are `Label`s in both
languages, the one of the reader's language chosen with rules_engine.core.words.language(); the sides ("you",
"the opponent") and the last sentence (who won and why: rules_engine.core.naming.game_over) are the site's own
words. builder/web/gamereport.py reads `REPORT` through the registry (`Presentation.report`)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.gamewords import ReportWords, Sentence
from rules_engine.core.messages import Label
from rules_engine.core.naming import Namer, game_over
from rules_engine.core.words import language

__all__ = ["SENTENCES", "SILENT", "REPORT"]

FIRST = Label("%(who)s went first; the duel lasts %(rounds)s rounds.", "%(who)sが先攻。%(rounds)sラウンドの決闘。")
PLAYED = Label("%(who)s played %(card)s and rolled %(roll)s: %(points)s points.",
               "%(who)sは%(card)sを出し、ダイスは%(roll)s：%(points)s点。")


def _say(label: Label, **values: Any) -> str:
    return label.get(language()) % values


def _setup(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    return _say(FIRST, who=n.subject(data.get("first")), rounds=data.get("rounds"))


def _play(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    return _say(PLAYED, who=n.subject(e["player"]), card=n.card(data.get("card")), roll=data.get("roll"),
                points=data.get("points"))


def _game_over(n: Namer, e: Mapping[str, Any]) -> str:
    return game_over(n, e["data"].get("winner"), e["data"].get("reason"))


SENTENCES: dict[str, Sentence] = {"setup": _setup, "play": _play, "game_over": _game_over}
SILENT = frozenset({"turn_start"})  # the heading says whose turn and which round it is
REPORT = ReportWords(sentences=SENTENCES, silent=SILENT)
