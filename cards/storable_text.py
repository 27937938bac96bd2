"""Text that cannot be stored: lone surrogates (docs/security.md, "Text that cannot be stored").

JSON may write any UTF-16 code unit as an escape, so `"\\udfff"` is valid JSON and `json.loads` turns it into a
Python str holding the code point U+DFFF. Such a code point (U+D800..U+DFFF, half of a UTF-16 pair) is not a
character: it cannot be encoded as UTF-8, so the database driver, the templates and every UTF-8 response raise
UnicodeEncodeError on it. (A valid pair such as `"\\ud83d\\ude00"` is joined into one character by json.loads and
is fine.) The readers of user and package input (builder.listio, cards.package_validation) refuse such text here,
naming where it is; messages show it escaped (`\\udfff`), so an error about it can itself be sent.

Pure Python, no Django: shared by cards/ and builder/.
"""
from __future__ import annotations

import re
from typing import Any

SURROGATES = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    return SURROGATES.search(text) is not None


def surrogate_problem(text: str) -> str | None:
    """Why `text` cannot be stored, or None: "contains a lone surrogate (U+DFFF at character 3), ..."."""
    found = SURROGATES.search(text)
    if found is None:
        return None
    return (f"contains a lone surrogate (U+{ord(found.group()):04X} at character {found.start() + 1}), "
            "which is not a character and cannot be stored")


def escaped(text: str) -> str:
    """`text` with each lone surrogate written as its JSON escape (`\\udfff`): safe to encode, log and show."""
    if not isinstance(text, str) or not has_surrogate(text):
        return text
    return SURROGATES.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def holds_surrogate(value: Any) -> bool:
    """Whether decoded JSON `value` holds a lone surrogate in any string or key: the quick test (about 12 µs for a
    26-entry list) run on every list before the slower `surrogate_places`. Walked without recursion."""
    search = SURROGATES.search
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            if search(item):
                return True
        elif kind is dict:
            for key, child in item.items():
                if isinstance(key, str) and search(key):
                    return True
                if type(child) is str:
                    if search(child):
                        return True
                elif isinstance(child, (str, dict, list, tuple)):
                    stack.append(child)
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif isinstance(item, str):  # a str subclass from Python code
            if search(item):
                return True
        elif isinstance(item, (dict, list, tuple)):
            stack.append(dict(item) if isinstance(item, dict) else list(item))
    return False


def surrogate_places(value: Any, limit: int = 50) -> list[tuple[list[str | int], bool, str]]:
    """Where decoded JSON `value` holds a lone surrogate, in document order: (path parts, is_a_key, problem).

    A key holding one is reported at its own path ("the key contains ..."). Walked without recursion, so any depth
    gets an answer; at most `limit` places.
    """
    found: list[tuple[list[str | int], bool, str]] = []
    stack: list[tuple[Any, list[str | int], bool]] = [(value, [], False)]
    while stack and len(found) < limit:
        item, parts, is_key = stack.pop()
        if isinstance(item, str):
            problem = surrogate_problem(item)
            if problem:
                found.append((parts, is_key, "the key " + problem if is_key else problem))
        elif isinstance(item, dict):
            children: list[tuple[Any, list[str | int], bool]] = []
            for key, child in item.items():
                if isinstance(key, str) and has_surrogate(key):
                    children.append((key, [*parts, key], True))
                children.append((child, [*parts, key], False))
            stack.extend(reversed(children))
        elif isinstance(item, (list, tuple)):
            stack.extend((child, [*parts, index], False) for index, child in reversed(list(enumerate(item))))
    return found
