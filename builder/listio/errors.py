"""Errors raised when a list file (hangar.list/1 JSON or the text format) cannot be read.

Every problem is a `ListIssue` that says what is wrong and where: a text line number, a JSON path such as
`sections.weapons[3].qty`, or both. All problems of a file are collected and raised together as one
`ListFormatError`, so the user can fix them in one go. Pure Python: no Django here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cards.storable_text import escaped
from rules_engine.core.messages import Label

from . import messages

# At most this many issues are kept and shown: a file with 100 000 bad lines gets a short, readable answer.
MAX_ISSUES = 50


@dataclass(frozen=True)
class ListIssue:
    """One problem in a list file.

    message:     full sentence, already prefixed with its place ("line 7: ...", "sections.weapons[3].qty: ...")
    line:        1-based line number (JSON syntax errors and the text format), else None
    path:        JSON path of the offending value (`sections.weapons[3].qty`), else None
    suggestions: close matches the user may have meant, e.g. ["補給物資 (HS-001)"]
    code, params: the message's code and parameters (builder/listio/messages.py), so that a page can say the same
                 in its own language (`words`); "" for a message only English has

    Lone surrogates (cards.storable_text) in the message, path or suggestions are kept escaped (`\\udfff`): an issue
    often quotes what the user wrote, and must itself be sendable as UTF-8.
    """

    message: str
    line: int | None = None
    path: str | None = None
    suggestions: list[str] = field(default_factory=list)
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", escaped(self.message))
        object.__setattr__(self, "path", escaped(self.path))
        object.__setattr__(self, "suggestions", [escaped(text) for text in self.suggestions])
        object.__setattr__(self, "params", {name: _escaped(value) for name, value in self.params.items()})

    def words(self, lang: str) -> str:
        """The problem in `lang` ("ja" or "en") for a page, said once: without the "line N:" prefix and the "did
        you mean" names (the page shows the line number and the suggestions beside it); a JSON path stays in front.
        A message without a code is shown as the English message."""
        if self.code in messages.TEMPLATES:
            text = messages.render(self.code, self.params, lang)
        else:
            text = _LINE_PREFIX.sub("", self.message)
            if self.suggestions:
                text = text.split("; did you mean ", 1)[0]
            if self.path and text.startswith(f"{self.path}: "):
                text = text[len(self.path) + 2:]
        return f"{self.path}: {text}" if self.path else text

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "line": self.line, "path": self.path, "suggestions": list(self.suggestions)}


_LINE_PREFIX = re.compile(r"^line \d+: ")


def _escaped(value: Any) -> Any:
    if isinstance(value, (Label, messages.Worded)):
        return type(value)(*(escaped(part) for part in value))
    return escaped(value) if isinstance(value, str) else value


class ListFormatError(ValueError):
    """A list file that cannot be read; `issues` holds (up to MAX_ISSUES of) its problems, in file order."""

    code = "list.invalid"

    def __init__(self, issues: list[ListIssue]):
        if not issues:
            raise ValueError("ListFormatError needs at least one issue")
        self.total = len(issues)
        self.issues = list(issues[:MAX_ISSUES])
        super().__init__(self.message)

    @property
    def message(self) -> str:
        first = self.issues[0].message
        if self.total == 1:
            return first
        shown = "" if self.total <= MAX_ISSUES else f"; the first {MAX_ISSUES} are listed"
        return f"{first} (and {self.total - 1} more problem{'s' if self.total > 2 else ''}{shown})"

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "issues": [issue.to_dict() for issue in self.issues]}


class RosterExportError(ListFormatError):
    """A list that cannot be written as a roster: cards without BattleScribe ids (each named), another game."""

    code = "list.not_exportable"
