"""Markdown of the project's own documents (docs/rules.md, docs/engine-<system>.md) as safe HTML for the rules pages.

    inline("**H4** at most **2** copies [seed 000]")  -> '<strong>H4</strong> at most <strong>2</strong> copies <span …'
    block("| a | b |\\n|---|---|\\n| 1 | 2 |")          -> '<div class="table-scroll" …><table>…</table></div>'

The Markdown is CommonMark plus tables (markdown-it-py) with raw HTML off, so `<b>` in a document is shown as text;
the HTML is then cleaned by nh3 with an allow-list of tags, attributes, classes and link schemes (http, https and
relative links only), so nothing the renderer lets through can run a script.

The documents' source tags become small badges in the UI language, each with its meaning as a tooltip (the rules
page has a legend of them):

    [seed 003]                                   -> 「出典：種テキスト003」 / "source: seed text 003"
    [public]                                     -> 「公開情報」 / "public"
    [interpretation, option `max_rounds` = 10]   -> 「解釈」 + "option max_rounds, default 10"
    [seed 002; option `attack_dice` = 3]         -> a seed badge and an option badge
    [public: the community BattleScribe file]    -> a badge, then its note "(the community BattleScribe file)"

A tag is a bracketed text starting with `seed NNN`, `public` or `interpretation` (docs/rules.md's legend); its
parts are separated by ";", "+" or ", " before another kind. Anything else in brackets ([改装]) stays text.

A page may pass `terms` (replace_terms): the game terms the English docs leave in Japanese ("兵器 deck") in the
English page's words ("Weapons deck"); builder/rulebook.py says which.

Rendered HTML is cached by (text, inline or block, language, terms): the docs are read once per process.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import nh3
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

# --- source tags -----------------------------------------------------------------------------------------------

SEED, PUBLIC, INTERPRETATION, OPTION = "seed", "public", "interpretation", "option"
SEED_SYSTEMS = {"000": "hagmi", "002": "mwda", "003": "warcaster"}  # docs/rules.md: the seed files' games

_TAG_START = re.compile(r"(?:seed \d{3}|public|interpretation)\b")
_PART_SPLIT = re.compile(r"\s*;\s*|\s+\+\s+|,\s+(?=(?:seed \d{3}|public|interpretation|option)\b)")
_PART = re.compile(r"^(?:(?P<seed>seed) (?P<number>\d{3})|(?P<kind>public|interpretation|option))\b\s*(?P<rest>.*)$",
                   re.DOTALL)
_OPTION = re.compile(r"(?:,\s*)?\boption `(?P<name>[^`]+)`(?:\s*=\s*(?P<value>`[^`]*`|[^\s,;]+))?")


@dataclass(frozen=True)
class SourcePart:
    """One part of a source tag: its kind, the seed number, the option it names (and its default), a note."""

    kind: str
    number: str = ""
    option: str = ""
    default: str = ""
    note: str = ""


def parse_tag(body: str) -> tuple[SourcePart, ...]:
    """The parts of a source tag's text (without the brackets); () when it is not a source tag. An option right
    after an interpretation is that interpretation's option; a clause of no kind ("Ver.4") is a note of the part
    before it."""
    if not _TAG_START.match(body):
        return ()
    parts: list[SourcePart] = []
    for piece in _PART_SPLIT.split(body.strip()):
        match = _PART.match(piece)
        kind = (SEED if match.group("seed") else match.group("kind")) if match else ""
        rest = match.group("rest") if match else piece
        where = piece if kind == OPTION else rest  # "option `x` = 3" alone, or "…, option `x` = 3" in the rest
        option = _OPTION.search(where) if kind in (INTERPRETATION, OPTION) else None
        name = default = ""
        if option:
            name, default = option.group("name"), (option.group("value") or "").strip("`")
            rest = where[:option.start()] + where[option.end():]
        note = rest.strip().lstrip(":,").strip()
        last = parts[-1] if parts else None
        if last and (not kind or (kind == OPTION and not name)):
            parts[-1] = SourcePart(last.kind, last.number, last.option, last.default, _join(last.note, piece))
        elif last and kind == OPTION and last.kind == INTERPRETATION and not last.option:
            parts[-1] = SourcePart(INTERPRETATION, "", name, default, _join(last.note, note))
        elif kind:
            parts.append(SourcePart(kind, (match.group("number") if match else "") or "", name, default, note))
    return tuple(parts)


def _join(first: str, second: str) -> str:
    return f"{first}; {second}" if first and second else first or second


def _value_words(value: str) -> str:
    lowered = value.lower()
    if lowered == "true":
        return pgettext("option value", "on")
    if lowered == "false":
        return pgettext("option value", "off")
    return value


def _option_html(part: SourcePart) -> str:
    """"option <code>max_rounds</code>, default <code>10</code>" (HTML: the pieces escaped; cleaned by nh3 after)."""
    name = f"<code>{escape(part.option)}</code>"
    if part.default:
        words = _value_words(part.default)  # on / off in words, other values as written in the options
        value = escape(words) if words != part.default else f"<code>{escape(part.default)}</code>"
        return pgettext("rules source", "option {name}, default {value}").format(name=name, value=value)
    return pgettext("rules source", "option {name}").format(name=name)


def badge_title(part: SourcePart) -> str:
    """The meaning of a badge, in the UI language (its tooltip, and the legend's words)."""
    if part.kind == SEED:
        from builder.web import presenters  # noqa: PLC0415 (presenters reads the catalog: import it late)
        system = SEED_SYSTEMS.get(part.number)
        if system:
            return pgettext("rules source", "Stated in seed text %(number)s, the Japanese source text of %(game)s.") % {
                "number": part.number, "game": presenters.system_name(system)}
        return pgettext("rules source", "Stated in seed text %(number)s.") % {"number": part.number}
    if part.kind == PUBLIC:
        return pgettext("rules source", "A published fact about the game, found outside the seed texts.")
    if part.kind == INTERPRETATION:
        meaning = pgettext("rules source", "The sources are silent or ambiguous here: this is the project's choice.")
        if part.option:
            meaning += " " + pgettext("rules source", "A simulation or a format can change it with the option "
                                                      "%(name)s.") % {"name": part.option}
        return meaning
    return pgettext("rules source", "A named option: a simulation or a format can change it.")


def badge_text(part: SourcePart) -> str:
    """The badge's visible words (plain text, without the option's name)."""
    if part.kind == SEED:
        return pgettext("rules source", "source: seed text %(number)s") % {"number": part.number}
    if part.kind == PUBLIC:
        return pgettext("rules source", "public")
    if part.kind == INTERPRETATION:
        return pgettext("rules source", "interpretation")
    return pgettext("rules source", "option")


BADGE_CLASS = {SEED: "seed", PUBLIC: "public", INTERPRETATION: "interp", OPTION: "option"}


def badge_html(part: SourcePart, note_html: str = "") -> str:
    """One badge: `<span class="badge src seed" title="meaning">words</span>`, then its note in parentheses.
    An interpretation's option follows its word ("interpretation · option max_rounds, default 10"). A plain
    string of HTML, its own pieces escaped, inside markdown-it's output that nh3 cleans."""
    word = f'<span class="src-word">{escape(badge_text(part))}</span>'  # never broken inside (解 / 釈)
    if part.kind == OPTION and part.option:
        words = _option_html(part)
    elif part.option:
        words = f"{word} · {_option_html(part)}"
    else:
        words = word
    html = f'<span class="badge src {BADGE_CLASS[part.kind]}" title="{escape(badge_title(part))}">{words}</span>'
    return f'{html} <span class="src-note">({note_html})</span>' if note_html else html


def _source_tag_rule(state: StateInline, silent: bool) -> bool:
    """markdown-it inline rule: `[seed 000]`, `[public, …]`, `[interpretation …]` → a source_tag token."""
    if state.src[state.pos] != "[":
        return False
    end = state.src.find("]", state.pos + 1)
    if end < 0:
        return False
    body = state.src[state.pos + 1:end]
    if "[" in body or (end + 1 < state.posMax and state.src[end + 1] == "("):  # nested, or a real link
        return False
    parts = parse_tag(body)
    if not parts:
        return False
    if not silent:
        token = state.push("source_tag", "span", 0)
        token.meta = {"parts": parts}
    state.pos = end + 1
    return True


def _render_source_tag(renderer: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    parts = tokens[idx].meta["parts"]
    badges = [badge_html(part, _md().renderInline(part.note) if part.note else "") for part in parts]
    return f'<span class="src-tag">{" ".join(badges)}</span>'


# --- the renderer and the sanitiser ----------------------------------------------------------------------------

_SCHEME = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9+.-]*):")


def _valid_link(url: str) -> bool:
    """Links only to http(s) or relative to the site (a path, a query or an #anchor); no javascript:, data:, …."""
    scheme = _SCHEME.match(url)
    return scheme is None or scheme.group(1).lower() in ("http", "https")


def _table_open(renderer: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    """A table scrolls in its own focusable box, so a wide one never widens the page."""
    label = escape(pgettext("rules page", "Table (scrolls sideways)"))
    return f'<div class="table-scroll" tabindex="0" role="region" aria-label="{label}"><table>\n'


def _table_close(renderer: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    return "</table></div>\n"


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.validateLink = _valid_link  # type: ignore[method-assign]
    md.inline.ruler.before("link", "source_tag", _source_tag_rule)
    md.add_render_rule("source_tag", _render_source_tag)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    return md


INLINE_TAGS = {"a", "strong", "em", "code", "span", "br", "del", "s"}
BLOCK_TAGS = INLINE_TAGS | {"p", "ul", "ol", "li", "blockquote", "pre", "hr", "h3", "h4", "h5", "h6", "div",
                            "table", "thead", "tbody", "tr", "th", "td"}
_CLEANER_OPTIONS = {
    "attributes": {"a": {"href", "title"}, "span": {"title"}, "ol": {"start"},
                   "div": {"tabindex", "role", "aria-label"}},
    "allowed_classes": {"span": {"badge", "src", "seed", "public", "interp", "option", "src-tag", "src-note", "src-word"},
                        "div": {"table-scroll"}},
    "url_schemes": {"http", "https"},
    "link_rel": "noopener noreferrer",
    "clean_content_tags": {"script", "style"},
}
_INLINE_CLEANER = nh3.Cleaner(tags=INLINE_TAGS, **_CLEANER_OPTIONS)
_BLOCK_CLEANER = nh3.Cleaner(tags=BLOCK_TAGS, **_CLEANER_OPTIONS)


Terms = tuple[tuple[str, str], ...]  # (term, words) pairs: what replace_terms puts in place of each term

_CJK = "\u3040-\u30ff\u3400-\u9fff々"
_PROTECTED = re.compile(r"`[^`]*`|「[^」]*」")  # code and quoted Japanese stay as written


def replace_terms(text: str, terms: Terms) -> str:
    """Each term standing alone (not part of a longer Japanese word, not in code or 「quotes」, not a gloss alone in
    parentheses such as "fuel (燃料)") replaced by its words: "兵器 deck" -> "Weapons deck"."""
    if not terms:
        return text
    words = dict(terms)
    pattern = re.compile(rf"(?<![{_CJK}])(?:{'|'.join(map(re.escape, words))})(?![{_CJK}])")

    def replace(part: str) -> str:
        def one(match: re.Match[str]) -> str:
            gloss = part[match.start() - 1:match.start()] == "(" and part[match.end():match.end() + 1] == ")"
            return match.group(0) if gloss else words[match.group(0)]
        return pattern.sub(one, part)

    pieces, last = [], 0
    for protected in _PROTECTED.finditer(text):
        pieces += [replace(text[last:protected.start()]), protected.group(0)]
        last = protected.end()
    return "".join([*pieces, replace(text[last:])])


@lru_cache(maxsize=4096)
def _render(text: str, block: bool, language: str, terms: Terms = ()) -> str:
    md = _md()
    text = replace_terms(text, terms)
    if block:
        return _BLOCK_CLEANER.clean(md.render(text)).strip()
    return _INLINE_CLEANER.clean(md.renderInline(text))


def _cleaned(html: str) -> SafeString:
    """The one place this module trusts HTML: what nh3 has just cleaned with the allow-list above."""
    return mark_safe(html)  # noqa: S308 (nh3-cleaned; tests/web/test_markdown.py tries scripts and links)


def inline(text: str | None, terms: Terms = ()) -> SafeString:
    """One line of Markdown (a rule's text, a heading, a table cell) as inline HTML: no <p>, tags as badges;
    `terms` replaced first (replace_terms)."""
    return _cleaned(_render(str(text or ""), False, get_language() or "", terms))


def block(text: str | None) -> SafeString:
    """Markdown with paragraphs, lists and tables (each table in its own scrolling box) as HTML."""
    return _cleaned(_render(str(text or ""), True, get_language() or ""))


def legend(system: str) -> list[dict[str, str]]:
    """The badges a rules page explains once, in the UI language: the game's seed text, public, interpretation,
    option, each as {"css", "words", "meaning"} (the template draws the badge; the meaning is also its tooltip)."""
    seed = next((number for number, slug in SEED_SYSTEMS.items() if slug == system), "000")
    examples = (SourcePart(SEED, seed), SourcePart(PUBLIC), SourcePart(INTERPRETATION), SourcePart(OPTION))
    return [{"css": BADGE_CLASS[part.kind], "words": badge_text(part), "meaning": badge_title(part)}
            for part in examples]
