"""The card editor's form, drawn from the system's JSON Schema (cards/schemas/<system>.schema.json),
so that it follows every field a package may hold and nothing else:

- a card's own kind (HAGMI `category`, MWDA and Warcaster `kind`) chooses which fields it has (the schema's
  `if category = unit then ...`); so does a skill's, an effect's or an ability's `kind` (its parameters);
- a value of a fixed set (frames, triggers, targets) is a select, in words (builder/web/vocabulary.py); a list of
  them (MWDA abilities, Warcaster qualities) is a set of checkboxes; a field of the widget "known_words" (HAGMI
  types) is checkboxes of the known words and a box for any other;
- a field of the widget "firepower" (HAGMI) is two numbers, the firepower and the attacks (`2` × `2` is "2x2", H10);
- what is the game's own (which vocabulary table says a field's values, which fields have a widget of their own)
  the game declares in its presentation (rules_engine/<game>/presentation.py `value_words`, `field_widgets`);
- a list of objects is one row per item, with "add" and "remove" buttons: skills, weapons, effects; a list of
  objects of plain numbers (an MWDA dial, click by click) is a table, one row per click;
- a field the form cannot draw as inputs (a Warcaster hardpoint group) is its JSON, in a text box;
- fields that only an import writes (`bs_id`, `battlescribe`) are not shown and are kept as they were.

`build` makes the tree of inputs for a card; `parse` reads the submitted form back into a card, with a problem for
every input that is not what its field holds. Input names are the fields' paths: `skills.0.amount`. A list's rows
carry a marker `skills.0.__row`, so that an empty row is kept. No Django forms: the schema is the form.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from django.utils.translation import gettext as _

from cards import package_validation as checks
from cards import spreadsheet

from . import vocabulary
from .presenters import presentation

HIDDEN = {"bs_id", "battlescribe", "bs_links"}  # written by the BattleScribe import; kept, never shown
LONG_TEXT = {"text", "text_en"}
KIND_KEYS = ("category", "kind")  # what chooses an object's fields
MAX_ROWS = 40  # rows one list of the form may hold (an MWDA dial has at most 20 clicks)



@dataclass
class Node:
    """One input, or a group of them. `control` says how it is drawn (templates/data/_field.html)."""

    path: str  # "skills.0.amount"; "" for the card
    key: str
    label: str
    control: str  # text textarea number checkbox select choices words firepower group list table json
    value: Any = None
    required: bool = False
    options: list[tuple[str, str]] = field(default_factory=list)
    children: list["Node"] = field(default_factory=list)
    columns: list[tuple[str, str]] = field(default_factory=list)  # a table's (key, label)
    minimum: int | None = None
    maximum: int | None = None
    redraw: bool = False  # a kind: changing it redraws the form with that kind's fields
    errors: list[str] = field(default_factory=list)
    other: str = ""  # HAGMI types: the types not in the vocabulary, comma separated
    collapsed: bool = False  # an optional group the card does not use (a skill's condition): folded away
    hint: str = ""

    @property
    def id(self) -> str:
        return "f-" + (re.sub(r"[^A-Za-z0-9]+", "-", self.path) or "card")

    @property
    def attacks(self) -> Any:
        """Firepower: the number of attacks (the M of N×M)."""
        return _firepower(self.value)[1]

    @property
    def power(self) -> Any:
        return _firepower(self.value)[0]


def _firepower(value: Any) -> tuple[str, str]:
    text = str(value or "")
    power, _sep, attacks = text.partition("x")
    return power, attacks


@lru_cache(maxsize=4)
def schema(system: str) -> dict[str, Any]:
    path = checks.schema_path(system)  # the schema folder's, or the one a game outside rules_engine/ brings
    return json.loads(path.read_text(encoding="utf-8"))


def _resolve(root: dict[str, Any], spec: Any) -> dict[str, Any]:
    while isinstance(spec, dict) and "$ref" in spec:
        spec = root["$defs"][spec["$ref"].rsplit("/", 1)[-1]]
    return spec if isinstance(spec, dict) else {}


def _variant_key(spec: dict[str, Any]) -> str | None:
    for part in spec.get("allOf", []):
        condition = part.get("if", {}).get("properties", {})
        for key in KIND_KEYS:
            if key in condition:
                return key
    return None


def _matches(condition: dict[str, Any], value: Any) -> bool:
    if "const" in condition:
        return condition["const"] == value
    if "enum" in condition:
        return value in condition["enum"]
    return False


def fields_of(root: dict[str, Any], spec: dict[str, Any], value: Mapping[str, Any]) -> tuple[
        list[tuple[str, dict[str, Any]]], set[str]]:
    """The fields an object has, in the schema's order, and which are required: its own properties, narrowed or
    extended by the variant its kind chooses."""
    spec = _resolve(root, spec)
    props: dict[str, Any] = dict(spec.get("properties", {}))
    required = set(spec.get("required", []))
    key = _variant_key(spec)
    if key is not None:
        chosen = value.get(key)
        for part in spec.get("allOf", []):
            condition = part.get("if", {}).get("properties", {}).get(key)
            if condition is None or not _matches(condition, chosen):
                continue
            then = _resolve(root, part.get("then", {}))
            required |= set(then.get("required", []))
            extra = then.get("properties", {})
            if then.get("additionalProperties") is False:
                props = {name: (props.get(name) if extra[name] is True else extra[name])
                         for name in [*props, *[n for n in extra if n not in props]] if name in extra}
            else:
                for name, sub in extra.items():
                    if _forbidden(sub):
                        props.pop(name, None)
                        required.discard(name)
                    elif name not in props:
                        props[name] = sub
                    else:  # narrows the field: an MWDA vehicle's dial clicks have no secondary damage
                        props[name] = _overlay(root, props[name], sub)
    shown = [(name, sub) for name, sub in props.items() if name not in HIDDEN and sub is not False
             and not _forbidden(sub)]
    if key is not None and value.get(key) in (None, ""):
        shown = [(name, sub) for name, sub in shown if name in (key, "code", "name", "name_en")]
    return shown, required


def _overlay(root: dict[str, Any], base: Any, extra: Any) -> dict[str, Any]:
    """A field's schema with a variant's narrowing on top: properties and items merged, required joined."""
    base = dict(_resolve(root, base))
    if not isinstance(extra, dict):
        return base
    for key, value in extra.items():
        if key == "properties":
            merged = dict(_resolve(root, base).get("properties", {}))
            for name, sub in value.items():
                merged[name] = sub if _forbidden(sub) or name not in merged else _overlay(root, merged[name], sub)
            base["properties"] = merged
        elif key == "items":
            base["items"] = _overlay(root, base.get("items", {}), value)
        elif key == "required":
            base["required"] = sorted({*base.get("required", []), *value})
        else:
            base[key] = value
    return base


def _forbidden(spec: Any) -> bool:
    """`{"not": {"description": "mechs only"}}`: the field is not allowed at all (a `not` of a value, such as
    `{"not": {"const": "universal"}}`, only narrows it)."""
    return isinstance(spec, dict) and isinstance(spec.get("not"), dict) and set(spec["not"]) <= {"description"}


def build(system: str, card: Mapping[str, Any], *, errors: Mapping[str, list[str]] | None = None,
          raw: Mapping[str, str] | None = None) -> Node:
    """The form's tree for a card (a new card: {}), with the problems (by field path) next to their inputs. `raw`:
    what was typed in inputs that could not be read, shown again as typed."""
    root = schema(system)
    builder = _Builder(system, root, dict(raw or {}))
    node = builder.object_node("", "", _("Card"), root["$defs"]["card"], card, required=True)
    _place_errors(node, {(_dotted(path)): list(found) for path, found in (errors or {}).items()})
    return node


def _dotted(path: str) -> str:
    """`skills[0].amount` -> `skills.0.amount`."""
    return re.sub(r"\[(\d+)\]", r".\1", path or "").strip(".")


def _place_errors(node: Node, errors: dict[str, list[str]]) -> list[str]:
    """Each problem on its input, or on the nearest group holding it; what fits nowhere stays on the card."""
    by_path: dict[str, Node] = {}

    def walk(item: Node) -> None:
        by_path[item.path] = item
        for child in item.children:
            walk(child)

    walk(node)
    for path, messages in errors.items():
        target = path
        while target and target not in by_path:
            target = target.rsplit(".", 1)[0] if "." in target else ""
        holder = by_path.get(target, node)
        if target != path and path:
            messages = [f"{path_words(path)}: {message}" for message in messages]
        holder.errors.extend(messages)
    return node.errors


def path_words(path: str) -> str:
    """`skills.0.amount` -> "Skills 1 · Amount", in the UI language."""
    words = []
    for part in _dotted(path).split("."):
        if part.isdigit():
            words[-1:] = [f"{words[-1]} {int(part) + 1}" if words else str(int(part) + 1)]
        elif part:
            words.append(vocabulary.card_field(part))
    return " · ".join(words)


class _Builder:
    def __init__(self, system: str, root: dict[str, Any], raw: dict[str, str]):
        self.system = system
        self.root = root
        self.raw = raw

    def words_for(self, key: str, path: str = "") -> str:
        if key == "kind" and "." not in path:
            return key  # the card's own kind (MWDA, Warcaster); a nested kind is a skill's or an effect's
        return presentation(self.system).value_words.get(key, key)

    def options(self, key: str, values: list[Any], path: str = "") -> list[tuple[str, str]]:
        words = self.words_for(key, path)
        return [(str(value), vocabulary.label(self.system, words, value)) for value in values]

    def label(self, key: str) -> str:
        """A field in words; a Warcaster stat (and a weapon's RNG and POW) as the card's stat line calls it."""
        if key in vocabulary.words(self.system, "stat"):
            return vocabulary.label(self.system, "stat", key)
        return vocabulary.card_field(key)

    def known_values(self, key: str) -> list[str]:
        """A text field whose values are words the site knows (a HAGMI frame, a faction) is a select of them."""
        shows = presentation(self.system)
        if key not in shows.worded_fields:
            return []
        known = list(vocabulary.words(self.system, key))
        if key == "faction":
            from cards.selectors import declared_factions

            known += declared_factions(self.system)
        return list(dict.fromkeys([*known, *shows.field_values.get(key, ())]))

    def object_node(self, path: str, key: str, label: str, spec: Any, value: Any, *, required: bool) -> Node:
        spec = _resolve(self.root, spec)
        value = value if isinstance(value, Mapping) else {}
        node = Node(path, key, label, "group", required=required, collapsed=bool(path) and not required and not value)
        shown, needed = fields_of(self.root, spec, value)
        variant = _variant_key(spec)
        for name, sub in shown:
            child = self.node(f"{path}.{name}" if path else name, name, sub, value.get(name),
                              required=name in needed)
            if name == variant:
                child.redraw = True
            node.children.append(child)
        return node

    def node(self, path: str, key: str, spec: Any, value: Any, *, required: bool) -> Node:
        spec = _resolve(self.root, spec)
        label = self.label(key)
        raw = self.raw.get(path)
        if presentation(self.system).field_widgets.get(key) == "firepower":
            return Node(path, key, label, "firepower", value=raw if raw is not None else value, required=required,
                        hint=_("Firepower, and how many attacks: 2 × 2 is two attacks of firepower 2 (H10)."))
        if "enum" in spec:
            options = self.options(key, spec["enum"], path)
            return Node(path, key, label, "select", value=value, required=required, options=options)
        if "const" in spec:
            return Node(path, key, label, "select", value=value, required=required,
                        options=self.options(key, [spec["const"]], path))
        kind = spec.get("type")
        if kind == "integer":
            return Node(path, key, label, "number", value=raw if raw is not None else value, required=required,
                        minimum=spec.get("minimum"), maximum=spec.get("maximum"))
        if kind == "boolean":
            return Node(path, key, label, "checkbox", value=bool(value), required=False)
        if kind == "string" and self.known_values(key):
            known = self.known_values(key)
            if isinstance(value, str) and value and value not in known:
                known = [*known, value]
            return Node(path, key, label, "select", value=value, required=required,
                        options=[(item, vocabulary.label(self.system, key, item)) for item in known])
        if kind == "string":
            control = "textarea" if key in LONG_TEXT else "text"
            return Node(path, key, label, control, value=value, required=required)
        if kind == "array":
            return self.array_node(path, key, label, spec, value, required=required)
        if kind == "object" or "properties" in spec or "allOf" in spec:
            if "properties" in spec or "allOf" in spec:
                return self.object_node(path, key, label, spec, value, required=required)
        return self.json_node(path, key, label, value, required=required)

    def json_node(self, path: str, key: str, label: str, value: Any, *, required: bool) -> Node:
        raw = self.raw.get(path)
        text = raw if raw is not None else ("" if value is None else json.dumps(value, ensure_ascii=False))
        return Node(path, key, label, "json", value=text, required=required,
                    hint=_("As JSON (docs/data-packages.md describes the field)."))

    def array_node(self, path: str, key: str, label: str, spec: dict[str, Any], value: Any, *,
                   required: bool) -> Node:
        items = _resolve(self.root, spec.get("items", {}))
        values = value if isinstance(value, list) else []
        if "enum" in items:
            return Node(path, key, label, "choices", value=[str(item) for item in values], required=required,
                        options=self.options(key, items["enum"]))
        if items.get("type") == "string":
            if presentation(self.system).field_widgets.get(key) == "known_words":  # the known words, any other typed
                known = list(vocabulary.words(self.system, self.words_for(key)))
                chosen = [item for item in values if item in known]
                others = [item for item in values if item not in known]
                return Node(path, key, label, "choices", value=chosen, required=required,
                            options=self.options(key, known), other=", ".join(others),
                            hint=_("Other types: separated by commas."))
            raw = self.raw.get(path)
            return Node(path, key, label, "words", value=raw if raw is not None else ", ".join(map(str, values)),
                        required=required, hint=_("Separated by commas."))
        if "properties" in items or "allOf" in items:
            node = Node(path, key, label, "list", required=required)
            plain = self._plain_columns(items)
            if plain is not None:
                node.control = "table"
                node.columns = [(name, self.label(name)) for name, _sub in plain]
            for index, item in enumerate(values[:MAX_ROWS]):
                row_path = f"{path}.{index}"
                row = self.object_node(row_path, str(index), f"{label} {index + 1}", items, item, required=True)
                if plain is not None:  # a table row has every column, in the table's order
                    have = {child.key: child for child in row.children}
                    row.children = [have.get(name) or self.node(f"{row_path}.{name}", name, sub, None,
                                                                required=False) for name, sub in plain]
                node.children.append(row)
            return node
        return self.json_node(path, key, label, value, required=required)

    def _plain_columns(self, items: dict[str, Any]) -> list[tuple[str, dict[str, Any]]] | None:
        """A list of objects of plain numbers and yes/no (a dial click) is drawn as a table: its columns."""
        if _variant_key(items) is not None:
            return None
        props = items.get("properties", {})
        columns = []
        for name, sub in props.items():
            if _forbidden(sub):
                continue
            sub = _resolve(self.root, sub)
            if sub.get("type") not in ("integer", "boolean"):
                return None
            columns.append((name, sub))
        return columns or None


# --- reading the form back -----------------------------------------------------------------------------------


@dataclass
class Parsed:
    card: dict[str, Any]
    errors: dict[str, list[str]]  # path -> problems of inputs that could not be read
    raw: dict[str, str]  # path -> what was typed there


def parse(system: str, form: Any, original: Mapping[str, Any] | None = None) -> Parsed:
    """The card a submitted form describes (`form`: a QueryDict or {name: [values]}). An input that is not what its
    field holds is a problem at its path and is left out of the card, so that the checks can still run."""
    root = schema(system)
    reader = _Reader(system, root, form, Parsed({}, {}, {}))
    card = reader.object_value("", root["$defs"]["card"], original or {})
    reader.parsed.card = card
    return reader.parsed


def _values(form: Any, name: str) -> list[str]:
    if hasattr(form, "getlist"):
        return form.getlist(name)
    value = form.get(name, [])
    return value if isinstance(value, list) else [value]


def _value(form: Any, name: str) -> str | None:
    values = _values(form, name)
    return values[-1] if values else None


class _Reader:
    def __init__(self, system: str, root: dict[str, Any], form: Any, parsed: Parsed):
        self.system = system
        self.root = root
        self.form = form
        self.parsed = parsed
        self.names = list(form.keys())

    def problem(self, path: str, message: str, raw: str | None = None) -> None:
        self.parsed.errors.setdefault(path, []).append(message)
        if raw is not None:
            self.parsed.raw[path] = raw

    def object_value(self, path: str, spec: Any, original: Any) -> dict[str, Any]:
        spec = _resolve(self.root, spec)
        original = original if isinstance(original, Mapping) else {}
        result: dict[str, Any] = {}
        variant = _variant_key(spec)
        if variant is not None:  # the kind first: it says which fields there are
            chosen = (_value(self.form, f"{path}.{variant}" if path else variant) or "").strip()
            probe = {variant: chosen} if chosen else {}
        else:
            probe = {}
        shown, _needed = fields_of(self.root, spec, probe)
        for name, sub in shown:
            value = self.value(f"{path}.{name}" if path else name, name, sub, original.get(name))
            if value is not None:
                result[name] = value
        for name in HIDDEN:
            if name in original and name in _resolve(self.root, spec).get("properties", {}):
                result[name] = original[name]
        return result

    def value(self, path: str, key: str, spec: Any, original: Any) -> Any:
        spec = _resolve(self.root, spec)
        if presentation(self.system).field_widgets.get(key) == "firepower":
            return self.firepower(path)
        if "enum" in spec or "const" in spec:
            text = (_value(self.form, path) or "").strip()
            if not text:
                return None
            allowed = spec.get("enum", [spec.get("const")])
            chosen = next((item for item in allowed if str(item) == text), None)
            if chosen is None:
                self.problem(path, _("choose one of the listed values"))
            return chosen
        kind = spec.get("type")
        if kind == "integer":
            text = (_value(self.form, path) or "").strip()
            if not text:
                return None
            try:
                return spreadsheet.read_cell(text, "integer")
            except ValueError:
                self.problem(path, _("expected a whole number"), raw=text)
                return None
        if kind == "boolean":
            if _value(self.form, path) is not None:
                return True
            return False if original is False else None
        if kind == "string":
            text = (_value(self.form, path) or "").replace("\r\n", "\n")
            text = text if key in LONG_TEXT else text.strip()
            return text or None
        if kind == "array":
            found = self.array_value(path, key, spec, original)
            return [] if found is None and original == [] else found  # an empty list stays as the card had it
        if "properties" in spec or "allOf" in spec:
            value = self.object_value(path, spec, original)
            return value if value or original == {} else None  # HAGMI `equip: {}`: any unit
        return self.json_value(path)

    def json_value(self, path: str) -> Any:
        text = (_value(self.form, path) or "").strip()
        if not text:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            self.problem(path, _("not valid JSON: %(problem)s at character %(at)s")
                         % {"problem": error.msg, "at": error.pos + 1}, raw=text)
            return None

    def firepower(self, path: str) -> str | None:
        power = (_value(self.form, path) or "").strip()
        attacks = (_value(self.form, f"{path}.__attacks") or "").strip()
        if not power and not attacks:
            return None
        if not power.isdigit() or (attacks and not attacks.isdigit()):
            self.problem(path, _("expected whole numbers: the firepower, and how many attacks"),
                         raw=f"{power}x{attacks}" if attacks else power)
            return None
        if not attacks or int(attacks) == 1:
            return str(int(power))
        return f"{int(power)}x{int(attacks)}"

    def array_value(self, path: str, key: str, spec: dict[str, Any], original: Any) -> Any:
        items = _resolve(self.root, spec.get("items", {}))
        originals = original if isinstance(original, list) else []
        if "enum" in items:
            chosen = [value.strip() for value in _values(self.form, path) if value.strip()]
            allowed = [str(item) for item in items["enum"]]
            ticked = [item for item in items["enum"] if str(item) in chosen]
            before = [item for item in originals if item in ticked]  # the card's order, then new ones
            kept = [*before, *[item for item in ticked if item not in before]]
            if any(value not in allowed for value in chosen):
                self.problem(path, _("choose among the listed values"))
            return kept or None
        if items.get("type") == "string":
            if presentation(self.system).field_widgets.get(key) == "known_words":
                known = list(vocabulary.words(self.system, presentation(self.system).value_words.get(key, key)))
                ticked = [value for value in known if value in _values(self.form, path)]
                before = [value for value in originals if value in ticked]  # the card's order, then new ones
                chosen = [*before, *[value for value in ticked if value not in before]]
                other = spreadsheet.read_cell(_value(self.form, f"{path}.__other") or "", "words")
                return [*chosen, *[word for word in other if word not in chosen]] or None
            text = _value(self.form, path) or ""
            words = spreadsheet.read_cell(text, "words") if text.strip() else []
            return words or None
        if "properties" in items or "allOf" in items:
            pattern = re.compile(re.escape(path) + r"\.(\d+)\.__row$")
            indexes = sorted({int(match.group(1)) for name in self.names if (match := pattern.match(name))})
            rows = []
            for index in indexes[:MAX_ROWS]:
                before = originals[index] if index < len(originals) else {}
                rows.append(self.object_value(f"{path}.{index}", items, before))
            return rows or None
        return self.json_value(path)


def apply_action(card: dict[str, Any], action: str) -> dict[str, Any]:
    """The form's structural buttons: `add:skills` appends an empty row to the list at that path, `remove:skills.1`
    takes one out. Anything else leaves the card as it is."""
    verb, _sep, path = action.partition(":")
    parts = [int(part) if part.isdigit() else part for part in _dotted(path).split(".") if part != ""]
    if verb not in ("add", "remove") or not parts:
        return card
    target: Any = card
    for part in parts[:-1] if verb == "remove" else parts[:-1]:
        if isinstance(target, dict) and isinstance(part, str):
            target = target.setdefault(part, {}) if verb == "add" else target.get(part)
        elif isinstance(target, list) and isinstance(part, int) and part < len(target):
            target = target[part]
        else:
            return card
    last = parts[-1]
    if verb == "add" and isinstance(target, dict) and isinstance(last, str):
        rows = target.get(last) if isinstance(target.get(last), list) else []
        if len(rows) < MAX_ROWS:
            target[last] = [*rows, {}]
    elif verb == "remove" and isinstance(target, list) and isinstance(last, int) and last < len(target):
        del target[last]
    return card
