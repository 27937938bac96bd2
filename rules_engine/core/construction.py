"""Generic construction-rule machinery: normalise a `hangar.list/1` document once, run rule objects on it.

The shape follows django-oscar's offer conditions: each construction rule (one per rule ID of RULES.md) is a small
strategy object with `rule_id`, `code` and `check(ctx) -> Iterable[Violation]`. A per-system `RuleSet` declares
its sections, its format-option defaults, its rules and its summary. `RuleSet.validate` reads the untrusted list
into a `ListContext` (resolved entries, counts per section and per code) and reports every malformed part as a
`list.*` violation, so the rules only ever see well-formed entries of known cards with a quantity from 1 to 999.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, NamedTuple

from rules_engine.core.catalog import MAX_QTY, Catalog
from rules_engine.core.messages import Label, describe, plain, render, short

ERROR = "error"
WARNING = "warning"

# Per section and code, entry problems reported one by one; the rest are counted in one "… and N more" violation.
MAX_ENTRY_REPORTS = 25

# list.* codes, in the order the rules page lists them.
WRONG_SYSTEM = "list.wrong_system"
UNKNOWN_FORMAT = "list.unknown_format"
UNKNOWN_SECTION = "list.unknown_section"
UNKNOWN_CARD = "list.unknown_card"
BAD_QUANTITY = "list.bad_quantity"


@dataclass(frozen=True)
class Violation:
    """One broken rule. `message` is a key of messages.TEMPLATES (or a game's own template, a `Label`), rendered with
    `params` in the result's language.

    `order` breaks ties between violations of the same rule and section (entry index for list.* problems);
    it defaults to the card codes.
    """

    code: str
    rule: str | None
    message: str | Label
    params: Mapping[str, Any] = field(default_factory=dict)
    section: str | None = None
    cards: tuple[str, ...] = ()
    severity: str = ERROR
    order: tuple = ()

    def as_dict(self, lang: str) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "rule": self.rule,
            "message": render(self.message, self.params, lang),
            "section": self.section,
            "cards": list(self.cards),
        }


def card_codes(codes: Iterable[str]) -> tuple[str, ...]:
    """Sorted, de-duplicated card codes, as a violation's `cards`."""
    return tuple(sorted(set(codes)))


class Entry(NamedTuple):
    """A well-formed list entry of a known card. `index` is its 1-based position in its section."""

    section: str
    index: int
    code: str
    qty: int
    card: Mapping[str, Any]
    options: Any = None


@dataclass(frozen=True)
class SectionSpec:
    key: str
    label: Label


@dataclass
class ListContext:
    """A list read once: resolved entries and counts per section, the format's options, the catalog."""

    catalog: Catalog
    format_slug: str | None
    options: Mapping[str, Any]
    labels: Mapping[str, Label]
    entries: dict[str, list[Entry]]
    by_code: dict[str, dict[str, int]]
    totals: dict[str, int]

    def card(self, code: str) -> Mapping[str, Any]:
        return self.catalog.cards[code]

    def label(self, code: str) -> str:
        """A card named for a player: "補給物資 (HS-001)"."""
        card = self.catalog.cards.get(code)
        name = card.get("name") if card is not None else None
        return f"{name} ({code})" if isinstance(name, str) and name else short(code)

    def labels_of(self, codes: Iterable[str]) -> str:
        return ", ".join(self.label(code) for code in codes)

    @property
    def section_keys(self) -> tuple[str, ...]:
        return self._section_keys

    def __post_init__(self) -> None:
        self._section_keys = tuple(self.labels)

    def section_label(self, key: str) -> Label:
        return self.labels[key]

    def counts(self, *sections: str) -> dict[str, int]:
        """Copies per card code over the given sections."""
        merged: dict[str, int] = {}
        for section in sections:
            for code, qty in self.by_code[section].items():
                merged[code] = merged.get(code, 0) + qty
        return merged

    def copies_by_name(self, *sections: str) -> dict[str, tuple[int, list[str]]]:
        """Copies per card *name* over the given sections: name -> (copies, codes with that name)."""
        groups: dict[str, tuple[int, list[str]]] = {}
        names = self.catalog.derived("card_name")  # code -> name, once per catalog
        for code, qty in self.counts(*sections).items():
            name = names.get(code)
            if name is None:
                name = names[code] = card_name(self.card(code), code)
            group = groups.get(name)
            if group is None:
                groups[name] = (qty, [code])
            else:
                group[1].append(code)
                groups[name] = (group[0] + qty, group[1])
        return groups


def card_name(card: Mapping[str, Any], code: str) -> str:
    name = card.get("name")
    return name if isinstance(name, str) and name else code


def int_field(card: Mapping[str, Any], key: str, default: int = 0) -> int:
    """An integer card field, or `default` when absent or not an integer (bool is not an integer)."""
    value = card.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def is_mapping(value: Any) -> bool:
    """A JSON object (a dict, or a read-only mapping from the catalog); the dict test first, for speed."""
    return isinstance(value, dict) or isinstance(value, Mapping)


def is_count(value: Any) -> bool:
    """A JSON integer (not a bool) from 1 to MAX_QTY."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_QTY


class Rule:
    """A construction rule: one object per rule ID (and per violation code when a rule ID has several)."""

    rule_id: str | None = None
    code: str = ""
    severity: str = ERROR
    title_en: str = ""
    title_ja: str = ""

    def check(self, ctx: ListContext) -> Iterable[Violation]:
        raise NotImplementedError

    def violation(
        self,
        message: str | Label | None = None,
        *,
        section: str | None = None,
        cards: Iterable[str] = (),
        **params: Any,
    ) -> Violation:
        return Violation(
            code=self.code,
            rule=self.rule_id,
            message=message or self.rule_id or self.code,
            params=params,
            section=section,
            cards=card_codes(cards),
            severity=self.severity,
        )


UNDER, OVER, MET = "under", "over", "ok"


@dataclass(frozen=True)
class Gauge:
    """One counter of what the format still needs (the editor's "秘策 2 / 2", "points 287 / 300"): a count of the list
    against the limits the format's options give, with the rule ID that sets them. No words: the site names each
    `key` in the reader's language (and the suit or warjack of `subject`).

    `minimum` / `maximum` are None when that side has no limit; `severity` is WARNING for a limit whose breach is
    only a warning (H8's empty damage deck).
    """

    key: str
    value: int
    rule: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    subject: str | None = None  # a suit slug, a warjack's card code: which one of several gauges of one key
    severity: str = ERROR

    @property
    def status(self) -> str:
        """"under" below the minimum, "over" above the maximum, else "ok"."""
        if self.minimum is not None and self.value < self.minimum:
            return UNDER
        if self.maximum is not None and self.value > self.maximum:
            return OVER
        return MET

    @property
    def left(self) -> int | None:
        """How far from the limit: cards/points still missing (under), beyond the maximum (over), or still allowed
        before the maximum (ok); None for an ok gauge without a maximum."""
        if self.status == UNDER:
            return self.minimum - self.value  # type: ignore[operator]
        if self.maximum is None:
            return None
        return abs(self.maximum - self.value)

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "rule": self.rule, "min": self.minimum, "max": self.maximum,
                "subject": self.subject, "severity": self.severity, "status": self.status, "left": self.left}


@dataclass(frozen=True)
class RuleInfo:
    """A line of the rules registry (the rules page): which rule, of which system, reports which code."""

    id: str | None
    system: str | None
    code: str | None
    title_en: str
    title_ja: str
    severity: str | None = ERROR  # None for a rule reported only in the summary (M2)

    def title(self, lang: str = "en") -> str:
        return self.title_ja if lang == "ja" else self.title_en

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "system": self.system,
            "code": self.code,
            "title_en": self.title_en,
            "title_ja": self.title_ja,
            "severity": self.severity,
        }


LIST_RULES: tuple[RuleInfo, ...] = (
    RuleInfo(None, None, WRONG_SYSTEM, "List or card of another game system", "別のゲームシステムのリスト・カード"),
    RuleInfo(None, None, UNKNOWN_FORMAT, "Unknown format", "不明なフォーマット"),
    RuleInfo(None, None, UNKNOWN_SECTION, "Unknown or malformed section", "不明または不正なセクション"),
    RuleInfo(None, None, UNKNOWN_CARD, "Unknown card or entry without a card code", "不明なカード・カードコードのないエントリー"),
    RuleInfo(None, None, BAD_QUANTITY, "Quantity not a whole number from 1 to 999", "数量が1〜999の整数ではない"),
)


class _Problems:
    """Collects list.* violations found while reading a list, capping entry problems per section and code."""

    def __init__(self, system: str, labels: Mapping[str, Label]) -> None:
        self.system = system
        self.labels = labels
        self.found: list[Violation] = []
        self._reported: dict[tuple[str, str], int] = {}
        self._overflow: dict[tuple[str, str], int] = {}

    def document(self, code: str, message: str, **params: Any) -> None:
        self.found.append(Violation(code, None, message, params, order=(0, len(self.found))))

    def entry(self, code: str, message: str, key: str, index: int, cards: tuple[str, ...] = (), **params: Any) -> None:
        slot = (key, code)
        if self._reported.get(slot, 0) >= MAX_ENTRY_REPORTS:
            self._overflow[slot] = self._overflow.get(slot, 0) + 1
            return
        self._reported[slot] = self._reported.get(slot, 0) + 1
        params.update(key=short(key), index=index, place=self.labels[key], expected=self.system)
        self.found.append(Violation(code, None, message, params, section=key, cards=cards, order=(index,)))

    def close_section(self, key: str, size: int) -> None:
        for (section, code), count in self._overflow.items():
            if section == key:
                params = {"key": key, "place": self.labels[key], "count": count}
                self.found.append(Violation(code, None, "list.more", params, section=key, order=(size + 1,)))


def merge_options(defaults: Mapping[str, Any], given: Any) -> dict[str, Any]:
    """Format options over the system defaults; an option of the wrong type keeps its default."""
    options = dict(defaults)
    if is_mapping(given):
        for key, default in defaults.items():
            value = given.get(key)
            same_type = isinstance(value, bool) if isinstance(default, bool) else (
                isinstance(value, int) and not isinstance(value, bool)
            )
            if same_type:
                options[key] = value
    return options


@dataclass(frozen=True)
class RuleSet:
    """The construction rules of one game system."""

    system: str
    sections: tuple[SectionSpec, ...]
    defaults: Mapping[str, Any]
    rules: tuple[Rule, ...]
    summarise: Callable[[ListContext], dict[str, Any]]
    notes: tuple[RuleInfo, ...] = ()  # rules reported in the summary only (no violation code), e.g. M2
    measure: Callable[[ListContext], list[Gauge]] | None = None  # the counters of what the format still needs
    name: Label = Label("", "")  # the game's name, for messages (the registry's SystemEntry names come from here)

    @property
    def section_keys(self) -> tuple[str, ...]:
        return self._section_keys

    def __post_init__(self) -> None:
        object.__setattr__(self, "_section_keys", tuple(spec.key for spec in self.sections))

    def infos(self) -> tuple[RuleInfo, ...]:
        """The registry lines of this system, in rule order (summary-only notes by rule ID)."""
        lines = [RuleInfo(r.rule_id, self.system, r.code, r.title_en, r.title_ja, r.severity) for r in self.rules]
        for note in self.notes:
            position = next((i for i, line in enumerate(lines) if (line.id or "") > (note.id or "")), len(lines))
            lines.insert(position, note)
        return tuple(lines)

    # --- validation --------------------------------------------------------------------------------------------

    def validate(self, doc: Any, catalog: Catalog, lang: str = "en") -> dict[str, Any]:
        """Check a `hangar.list/1` document; returns the docs/design.md §2.3 result. Never raises on JSON input."""
        ctx, problems = self.read(doc, catalog)
        violations = [(0, v) for v in problems]
        for rank, rule in enumerate(self.rules, start=1):
            violations.extend((rank, v) for v in rule.check(ctx))
        section_rank = {key: i for i, key in enumerate(self.section_keys)}
        violations.sort(key=lambda rv: (rv[0], section_rank.get(rv[1].section, -1), rv[1].order or rv[1].cards))
        return {
            "legal": not any(v.severity == ERROR for _, v in violations),
            "system": catalog.system,
            "format": ctx.format_slug,
            "violations": [v.as_dict(lang) for _, v in violations],
            "summary": self.summarise(ctx),
        }

    def gauges(self, doc: Any, catalog: Catalog) -> list[Gauge]:
        """The counters of what the format still needs, each against the limits of the list's format options (the
        same reading of the document as `validate`). Never raises on JSON input."""
        if self.measure is None:
            return []
        ctx, _problems = self.read(doc, catalog)
        return self.measure(ctx)

    def read(self, doc: Any, catalog: Catalog) -> tuple[ListContext, list[Violation]]:
        """Normalise the untrusted document into a context; malformed parts become list.* violations."""
        labels = {spec.key: spec.label for spec in self.sections}
        problems = _Problems(self.system, labels)
        if not is_mapping(doc):
            problems.document(UNKNOWN_SECTION, "list.not_object", value=describe(doc))
            doc = {}
        system = doc.get("system")
        if system != catalog.system:
            problems.document(WRONG_SYSTEM, "list.wrong_system", found=describe(system), expected=self._name())
        format_slug, options = self._format(doc.get("format"), catalog, problems)
        ctx = ListContext(
            catalog=catalog,
            format_slug=format_slug,
            options=options,
            labels=labels,
            entries={key: [] for key in labels},
            by_code={key: {} for key in labels},
            totals=dict.fromkeys(labels, 0),
        )
        cards = catalog.cards
        for key, raw_entries in self._sections(doc.get("sections", {}), problems):
            entries, by_code, total = ctx.entries[key], ctx.by_code[key], 0
            for index, raw in enumerate(raw_entries, start=1):
                entry = None
                if type(raw) is dict:  # fast path: a well-formed entry of a known card
                    code, qty = raw.get("card"), raw.get("qty", 1)
                    if type(code) is str and type(qty) is int and 1 <= qty <= MAX_QTY:
                        card = cards.get(code)
                        if card is not None:
                            entry = tuple.__new__(Entry, (key, index, code, qty, card, raw.get("options")))
                if entry is None:
                    entry = self._entry(key, index, raw, catalog, problems)
                    if entry is None:
                        continue
                entries.append(entry)
                by_code[entry.code] = by_code.get(entry.code, 0) + entry.qty
                total += entry.qty
            ctx.totals[key] += total
            problems.close_section(key, len(raw_entries))
        return ctx, problems.found

    def _name(self) -> Label:
        return self.name if self.name.en else plain(self.system)

    def _format(self, requested: Any, catalog: Catalog, problems: _Problems) -> tuple[str | None, dict[str, Any]]:
        fallback = catalog.default_format if catalog.default_format in catalog.formats else None
        if requested is None:
            slug = fallback
        elif isinstance(requested, str) and requested in catalog.formats:
            slug = requested
        else:
            slug = fallback
            if slug is None:
                problems.document(UNKNOWN_FORMAT, "list.unknown_format.defaults", found=describe(requested))
            else:
                fmt = catalog.formats[slug]
                used = Label(str(fmt.get("name_en") or fmt.get("name") or slug), str(fmt.get("name") or slug))
                problems.document(UNKNOWN_FORMAT, "list.unknown_format", found=describe(requested), used=used)
        given = catalog.formats[slug].get("options") if slug is not None else None
        return slug, merge_options(self.defaults, given)

    def _sections(self, raw: Any, problems: _Problems) -> Iterator[tuple[str, list | tuple]]:
        """The system's sections present in the document, in section order; reports unknown and malformed ones."""
        if not is_mapping(raw):
            problems.document(UNKNOWN_SECTION, "list.sections_not_object", value=describe(raw))
            return
        known = Label(", ".join(f"{spec.label.en} ({spec.key})" for spec in self.sections),  # the keys a file uses
                      "、".join(spec.label.ja for spec in self.sections))
        unknown = [key for key in raw if key not in self.section_keys]
        for key in unknown[:MAX_ENTRY_REPORTS]:  # a few named; the rest counted in one line (a bounded answer)
            found = describe(key) if isinstance(key, str) else plain(short(repr(key)))
            problems.document(UNKNOWN_SECTION, "list.unknown_section", found=found, system=self._name(), known=known)
        if len(unknown) > MAX_ENTRY_REPORTS:
            problems.document(UNKNOWN_SECTION, "list.more_sections", count=len(unknown) - MAX_ENTRY_REPORTS,
                              system=self._name(), known=known)
        for key in self.section_keys:
            if key not in raw:
                continue
            value = raw[key]
            if isinstance(value, (list, tuple)):
                yield key, value
            else:
                problems.entry(UNKNOWN_SECTION, "list.section_not_list", key, 0, value=describe(value))

    @staticmethod
    def _entry(key: str, index: int, raw: Any, catalog: Catalog, problems: _Problems) -> Entry | None:
        """Read one entry; None (and a list.* violation) when it cannot be counted."""
        if not is_mapping(raw):
            problems.entry(UNKNOWN_CARD, "list.no_code", key, index)
            return None
        code, qty = raw.get("card"), raw.get("qty", 1)
        has_code = isinstance(code, str) and code.strip() != ""
        cards = (code,) if has_code else ()
        good_qty = is_count(qty)
        if not good_qty:
            shown = short(code) if has_code else "?"
            problems.entry(
                BAD_QUANTITY, "list.bad_quantity", key, index, cards, card=shown, value=describe(qty), max=MAX_QTY
            )
        if not has_code:
            problems.entry(UNKNOWN_CARD, "list.no_code", key, index)
            return None
        card = catalog.cards.get(code)
        if card is None:
            other = catalog.foreign_cards.get(code)
            if other is not None:
                problems.entry(WRONG_SYSTEM, "list.wrong_system.card", key, index, cards, card=short(code), other=other)
            else:
                problems.entry(UNKNOWN_CARD, "list.unknown_card", key, index, cards, card=short(code))
            return None
        if not good_qty:
            return None
        return Entry(key, index, code, qty, card, raw.get("options"))
