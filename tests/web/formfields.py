"""What a browser would submit for a page's form: every input, select, textarea and checked checkbox of the form with
the given id, as (name, value) pairs (stdlib html.parser; the card editor's tests)."""
from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.pairs: list[tuple[str, str]] = []
        self.select: str | None = None
        self.select_value: str | None = None
        self.first_option: str | None = None
        self.option: str | None = None
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button"):
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.pairs.append((name, attrs.get("value") or "on"))
            else:
                self.pairs.append((name, attrs.get("value") or ""))
        elif tag == "select" and name:
            self.select, self.select_value, self.first_option = name, None, None
        elif tag == "option" and self.select:
            value = attrs.get("value", "")
            if self.first_option is None:
                self.first_option = value
            if "selected" in attrs:
                self.select_value = value
        elif tag == "textarea" and name:
            self.textarea, self.text = name, ""

    def handle_endtag(self, tag):
        if not self.inside:
            return
        if tag == "select" and self.select:
            value = self.select_value if self.select_value is not None else self.first_option or ""
            self.pairs.append((self.select, value))
            self.select = None
        elif tag == "textarea" and self.textarea:
            self.pairs.append((self.textarea, self.text.removeprefix("\n")))
            self.textarea = None
        elif tag == "form":
            self.inside = False

    def handle_data(self, data):
        if self.textarea:
            self.text += data


def form_pairs(html: str, form_id: str) -> list[tuple[str, str]]:
    parser = _Form(form_id)
    parser.feed(html)
    return parser.pairs


def as_post(pairs: list[tuple[str, str]], **extra: str) -> dict[str, list[str]]:
    """The pairs as the test client's POST data (a name given twice keeps both values)."""
    data: dict[str, list[str]] = {}
    for name, value in pairs:
        data.setdefault(name, []).append(value)
    for name, value in extra.items():
        data[name] = [value]
    return data
