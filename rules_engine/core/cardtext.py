"""What every game's card text (rules_engine/<game>/cardtext.py) writes with, without Django: a card's or an
ability's own wording in the reader's language, the space between two sentences, a line with its title."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules_engine.core.words import _t, language, word

__all__ = ["own_text", "gap", "sentence", "titled", "signed", "worded"]


def own_text(item: Mapping[str, Any]) -> str:
    """An item's own wording in the reader's language (text_en in English, text in Japanese), or ""."""
    ja, en = item.get("text"), item.get("text_en")
    first, second = (en, ja) if language() == "en" else (ja, en)
    return str(first or second or "")


def gap() -> str:
    """What stands between two sentences: a space in English, nothing in Japanese (「…出す。コスト1以下…」)."""
    return _t("two sentences", "%(first)s %(second)s", first="", second="")


def sentence(text: str) -> str:
    """Capitalised: "a friendly unit gets ..." -> "A friendly unit gets ..." (Japanese text is unchanged)."""
    return text[:1].upper() + text[1:]


def titled(title: str, own: str, text: str) -> dict[str, str]:
    """A line; a package's own wording that starts with its own heading ("緊急：...", "Emergency: ...") keeps it
    instead of ours."""
    head = re.split("[:：]", own, maxsplit=1)[0] if own else ""
    if own and head != own and len(head) <= 24:
        return {"title": "", "text": sentence(text)}
    return {"title": title, "text": sentence(text)}


def signed(amount: Any) -> str:
    """+2, -1: a change to a number."""
    return f"{amount:+d}" if isinstance(amount, int) and not isinstance(amount, bool) else str(amount)


def worded(table: Mapping[str, Any], value: Any) -> str:
    """A value of a skill or an effect in words (its table, else humanised); "" when it has none."""
    return word(table, value) if value is not None else ""
