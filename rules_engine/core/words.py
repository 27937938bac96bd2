"""A game's words in the reader's language, without Django.

What a game shows (its card text, the sentences of its replays and positions, the words of its values) lives in its
own package (rules_engine/<game>/), which never imports Django. Those modules write their words through this module:

    from rules_engine.core.words import _t, _tn, _tl
    _t("replay", "%(who)s attacked %(target)s.", who=..., target=...)   # now, in the reader's language
    _tn("replay", "%(count)s card", "%(count)s cards", 3)                # with a count (Japanese has one form)
    TRIGGERS = {"played": _tl("hagmi trigger", "when played")}           # a table's word, translated when shown
    _g("Cost"), _gn("%(count)s card", "%(count)s cards", 3)               # a word with no context (gettext, ngettext)
    language()                                                           # "ja" or "en": the reader's language

The site installs Django's translation functions when it starts (hangar/__init__.py), so the words come from the
project's message catalogue (locale/ja/LC_MESSAGES/django.po) in the language of the request; `manage.py
makemessages` extracts `_t`, `_tn`, `_tl` with their contexts and `_g`, `_gn` without
(builder/management/commands/makemessages.py).
Outside the site (the engines' command lines, a test of a game alone) the English text is used as written.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["install", "installed", "language", "humanise", "word", "_t", "_tn", "_tl", "_g", "_gn"]

_pgettext: Callable[[str, str], str] = lambda context, message: message  # noqa: E731
_npgettext: Callable[[str, str, str, int], str] = \
    lambda context, singular, plural, number: singular if number == 1 else plural  # noqa: E731
_pgettext_lazy: Callable[[str, str], Any] | None = None
_gettext: Callable[[str], str] = lambda message: message  # noqa: E731
_ngettext: Callable[[str, str, int], str] = \
    lambda singular, plural, number: singular if number == 1 else plural  # noqa: E731
_get_language: Callable[[], str | None] = lambda: "en"  # noqa: E731


def install(*, pgettext: Callable[[str, str], str], npgettext: Callable[[str, str, str, int], str],
            pgettext_lazy: Callable[[str, str], Any], gettext: Callable[[str], str] | None = None,
            ngettext: Callable[[str, str, int], str] | None = None,
            get_language: Callable[[], str | None] | None = None) -> None:
    """Route the games' words through a translation catalogue (the site passes Django's functions) and tell them
    the reader's language (Django's get_language)."""
    global _pgettext, _npgettext, _pgettext_lazy, _gettext, _ngettext, _get_language
    _pgettext, _npgettext, _pgettext_lazy = pgettext, npgettext, pgettext_lazy
    if gettext is not None:
        _gettext = gettext
    if ngettext is not None:
        _ngettext = ngettext
    if get_language is not None:
        _get_language = get_language


def installed() -> bool:
    return _pgettext_lazy is not None


def language() -> str:
    """"ja" or "en": the language the words are written in now (the request's, on the site; English outside it).
    A game picks a card's name or its own text in that language (`name` / `name_en`, `text` / `text_en`)."""
    return "ja" if (_get_language() or "en").startswith("ja") else "en"


def _t(context: str, message: str, **values: Any) -> str:
    """`message` in the reader's language, with its %(name)s values filled in."""
    text = _pgettext(context, message)
    return text % values if values else text


def _tn(context: str, singular: str, plural: str, count: Any, **values: Any) -> str:
    """A sentence with a count in it: "1 card" / "2 cards"; %(count)s is filled in. A count that is not a whole
    number (a range, a word) takes the plural."""
    number = count if isinstance(count, int) and not isinstance(count, bool) else 2
    return _npgettext(context, singular, plural, number) % {"count": count, **values}


def _g(message: str, **values: Any) -> str:
    """A word with no context (gettext), with its %(name)s values filled in: the card text's words."""
    text = _gettext(message)
    return text % values if values else text


def _gn(singular: str, plural: str, count: Any, **values: Any) -> str:
    """A word with a count and no context (ngettext); %(count)s is filled in, as with `_tn`."""
    number = count if isinstance(count, int) and not isinstance(count, bool) else 2
    return _ngettext(singular, plural, number) % {"count": count, **values}


def humanise(value: Any) -> str:
    """A value no table has a word for, still not a slug: "steel-wolves" -> "steel wolves"."""
    return str(value).replace("_", " ").replace("-", " ").strip() or "–"


def word(table: Any, value: Any) -> str:
    """The word of `value` in a table of words (a game's vocabulary, field -> value -> word), else the value
    humanised: never a slug."""
    known = table.get(value) if isinstance(value, str) else None
    return str(known) if known is not None else humanise(value)


class _Deferred:
    """A word of a table made before the catalogue was installed: translated each time it is shown."""

    __slots__ = ("context", "message")

    def __init__(self, context: str, message: str) -> None:
        self.context, self.message = context, message

    def __str__(self) -> str:
        return _pgettext(self.context, self.message)

    def __repr__(self) -> str:
        return f"_tl({self.context!r}, {self.message!r})"

    def __mod__(self, values: Any) -> str:
        return str(self) % values

    def __add__(self, other: Any) -> str:
        return str(self) + str(other)

    def __radd__(self, other: Any) -> str:
        return str(other) + str(self)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, _Deferred):
            return (self.context, self.message) == (other.context, other.message)
        return str(self) == other

    def __hash__(self) -> int:
        return hash((self.context, self.message))

    def __bool__(self) -> bool:
        return bool(self.message)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _tl(context: str, message: str) -> Any:
    """A word kept in a table and translated when it is shown (Django's pgettext_lazy once the site has started)."""
    if _pgettext_lazy is not None:
        return _pgettext_lazy(context, message)
    return _Deferred(context, message)
