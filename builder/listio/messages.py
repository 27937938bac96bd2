"""The importer's messages in English and Japanese, by message code.

A `ListIssue` keeps its English `message` (what the API answers, unchanged) and also its `code` and `params`, so a
page can show the same problem in the page's language, once: `render(code, params, lang)` gives the sentence
without the "line N:" prefix and without the "did you mean" names (the page shows the line number and the
suggestions itself). Parameters are plain values or `Label`s (one text per language: quoted user text, system
names, section names). Pure Python: no Django here.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from rules_engine.core.messages import Label

TEMPLATES: Mapping[str, Label] = {
    # --- the text format: card words ------------------------------------------------------------------------
    "text.missing_card": Label("missing card name after the quantity", "数量の後にカード名がありません"),
    "text.no_card": Label("no card named {name} in {system}{empty}", "{system}に{name}という名前のカードはありません{empty}"),
    "text.not_a_code": Label(
        "{written} is not a card code: a code has 1 to 64 characters and no spaces, parentheses or braces",
        "{written}はカードコードではありません。コードは1〜64文字で、空白・括弧・波括弧を含みません"),
    "text.no_code": Label(
        "no card with code {written} in {system}{empty}; write just \"({bare})\" to keep an unknown code",
        "{system}にコード{written}のカードはありません{empty}。未知のコードのまま残すには「({bare})」とだけ書いてください"),
    "text.ambiguous": Label(
        "{count} cards are named {name} in {system} ({codes}); add the code, e.g. \"{example}\"",
        "{system}には{name}という名前のカードが{count}枚あります（{codes}）。「{example}」のようにコードを添えてください"),
    "text.empty_catalog": Label(" (no cards of this system are loaded)", "（このゲームのカードが読み込まれていません）"),
    # --- the text format: entry lines -------------------------------------------------------------------------
    "text.entry_shape": Label(
        "an entry starts with a quantity from 1 to {max}, e.g. \"{example}\"; got {text}",
        "カードの行は1〜{max}の数量で始めます（例：「{example}」）。{text}と書かれています"),
    "text.quantity": Label("quantity must be from 1 to {max}, got {shown}",
                           "数量は1〜{max}にしてください（{shown}と書かれています）"),
    "text.options": Label("the options at the end of the line {problem}", "行末のオプションが正しくありません：{problem}"),
    "text.options_not_object": Label(
        "the options at the end of the line are not a JSON object, e.g. "
        "{{\"cortex\": \"WC-030\", \"weapons\": [\"WC-040\"]}}",
        "行末のオプションがJSONオブジェクトではありません（例：{{\"cortex\": \"WC-030\", \"weapons\": [\"WC-040\"]}}）"),
    "text.line_storable": Label("the line {problem}", "この行には保存できない文字があります（{problem}）"),
    "text.line_too_long": Label("line is longer than {max} characters", "行が{max}文字を超えています"),
    "text.too_many_entries": Label("more than {max} entries; a list holds at most {max}",
                                   "カードの行が{max}を超えています。1つのリストに入るのは{max}行までです"),
    # --- the text format: loadout lines (Warcaster) -----------------------------------------------------------
    "text.cortex_missing": Label("missing the cortex after \"Cortex:\", e.g. \"Cortex: Tactical Cortex\"",
                                 "「コルテックス:」の後にコルテックスがありません（例：「コルテックス: 戦術コルテックス」）"),
    "text.weapon_missing": Label(
        "a weapon is missing between two commas after \"Weapons:\", e.g. \"Weapons: Arc Rifle, Shock Lance\"",
        "「武器:」のカンマの間に武器がありません（例：「武器: アークライフル, 衝撃ランス」）"),
    "text.loadout_no_entry": Label(
        "a \"{word}:\" line gives the loadout of the entry just above it, and there is none: write it under the "
        "warjack, e.g. \"1 Hayate Light Warjack\" then \"  Cortex: Tactical Cortex\"",
        "「{word}:」の行はすぐ上のカードの装備を書く行ですが、上にカードがありません。ウォージャックの行の下に書いてください"
        "（例：「1 軽ウォージャック ハヤテ」の次に「  コルテックス: 戦術コルテックス」）"),
    "text.loadout_twice": Label("a second \"{word}:\" line for the same entry", "同じカードに「{word}:」の行が2つあります"),
    "text.loadout_with_json": Label(
        "the entry above already has its options as JSON at the end of its line: write \"{word}:\" there, or the "
        "loadout as \"Cortex:\" and \"Weapons:\" lines without the JSON",
        "上のカードは行末にJSONでオプションを持っています。「{word}:」はそのJSONに書くか、JSONを消して"
        "「コルテックス:」「武器:」の行で書いてください"),
    "text.loadout_outside": Label(
        "a loadout line (Cortex:, Weapons:) belongs under a warjack's entry, inside a section",
        "装備の行（コルテックス:、武器:）は、セクションの中のウォージャックの行の下に書きます"),
    # --- the text format: headers and sections ----------------------------------------------------------------
    "text.header_after_section": Label("headers (Name:, System:, Format:) must come before the first section",
                                       "見出し（名前:、ゲーム:、フォーマット:）は最初のセクションより前に書きます"),
    "text.header_twice": Label("a second {key}: header (the first is on line {line})",
                               "「{key}:」の見出しが2つあります（1つ目は{line}行目）"),
    "text.unknown_system": Label("unknown system {name}; known systems: {known}",
                                 "{name}というゲームはありません。使えるゲーム：{known}"),
    "text.no_system": Label(
        "no system given: start the text with a line such as \"System: hagmi\" (known systems: {known})",
        "ゲームが指定されていません。「ゲーム: HAGMI!」のような行で始めるか、ゲームを選んでください（使えるゲーム：{known}）"),
    "text.bad_name": Label(
        "the list name must be one line of text without control characters, at most {max} characters; got {length} "
        "characters{control}",
        "リスト名は制御文字を含まない1行の文字列で、{max}文字までです（{length}文字{control}）"),
    "text.bad_name.control": Label(" with a control character", "、制御文字あり"),
    "text.unknown_section": Label("unknown section [{label}] for {system}; sections: {sections}",
                                  "{system}に[{label}]というセクションはありません。セクション：{sections}"),
    "text.unknown_header": Label(
        "unknown header {key}; headers are Name:, System: and Format:, then come the sections",
        "{key}という見出しはありません。見出しは「名前:」「ゲーム:」「フォーマット:」で、その後にセクションが続きます"),
    "text.entry_before_section": Label(
        "entry before any section header: add a section header such as {example} above it",
        "セクションの見出しより前にカードの行があります。上に{example}のような見出しを加えてください"),
    "text.expected_header": Label(
        "expected a header (Name:, System:, Format:) or a section header such as {example}, got {text}",
        "見出し（名前:、ゲーム:、フォーマット:）か{example}のようなセクションの見出しが必要ですが、{text}と書かれています"),
    "text.not_format": Label("{name} is not a format of {system} (formats: {known})",
                             "{name}は{system}のフォーマットではありません（フォーマット：{known}）"),
    "text.none_loaded": Label("none loaded", "読み込まれていません"),
    # --- both formats -------------------------------------------------------------------------------------------
    "file.not_utf8": Label("the file is not UTF-8 text (invalid byte at offset {offset})",
                           "ファイルがUTF-8のテキストではありません（{offset}バイト目が不正です）"),
    "json.invalid": Label("line {line}, column {column}: invalid JSON: {detail}",
                          "{line}行目{column}文字目：JSONとして読めません（{detail}）"),
    "json.invalid_value": Label("invalid JSON: {detail}", "JSONとして読めません（{detail}）"),
    "json.too_deep": Label("invalid JSON: nested too deeply", "JSONとして読めません（入れ子が深すぎます）"),
    "json.not_object": Label("a list must be a JSON object, got {value}",
                             "リストはJSONオブジェクトでなければなりません（{value}が渡されました）"),
    "json.not_text": Label("a list must be JSON text or an object, got {value}",
                           "リストはJSONのテキストかオブジェクトでなければなりません（{value}が渡されました）"),
    "json.too_many_entries": Label("{total} entries; a list holds at most {max}",
                                   "カードが{total}行あります。1つのリストに入るのは{max}行までです"),
    "json.required": Label("missing required {keys_word} {keys}", "必須のキー{keys}がありません"),
    "json.unknown_keys": Label("unknown {keys_word} {keys}; allowed keys: {allowed}",
                               "不明なキー{keys}があります。使えるキー：{allowed}"),
    "json.type": Label("must be {wanted}, got {value}", "{wanted}でなければなりません（{value}が渡されました）"),
    "json.range": Label("must be from {min} to {max}, got {value}", "{min}〜{max}でなければなりません（{value}が渡されました）"),
    "json.const": Label("must be {expected}, got {value}", "{expected}でなければなりません（{value}が渡されました）"),
    "json.enum": Label("unknown value {value}; expected one of: {expected}",
                       "{value}は使えない値です。使える値：{expected}"),
    "json.unknown_section": Label("unknown section {key} for {system}; valid sections: {valid}",
                                  "{system}に{key}というセクションはありません。使えるセクション：{valid}"),
    "json.whole_number": Label("must be a whole number written without a decimal point, got {value}",
                               "小数点なしの整数で書いてください（{value}が渡されました）"),
    "json.problem": Label("{detail}", "{detail}"),
    # --- BattleScribe rosters (builder/listio/roster.py) --------------------------------------------------------
    "roster.not_zip": Label("{file} is not a readable zip file (a .rosz is a zipped .ros)",
                            "{file}は読めるzipファイルではありません（.roszは.rosをzipにしたものです）"),
    "roster.zip_members": Label("{file} holds {count} files; a zipped roster holds exactly one .ros",
                                "{file}には{count}個のファイルがあります。zipのロスターには.rosが1つだけ入ります"),
    "roster.too_large": Label("{file}: the roster is larger than {max} bytes", "{file}：ロスターが{max}バイトを超えています"),
    "roster.zip_ratio": Label("{file}: compressed more than {ratio} to 1 (the limit: a zip bomb?)",
                              "{file}：圧縮率が{ratio}対1を超えています（上限です。zip爆弾では？）"),
    "roster.too_deep": Label("{file}: elements nested more than {max} deep (the limit)",
                             "{file}：要素の入れ子が{max}段を超えています（上限です）"),
    "roster.not_xml": Label("{file} is not well-formed XML (line {line}, column {column})",
                            "{file}は正しいXMLではありません（{line}行目{column}文字目）"),
    "roster.dtd": Label("{file} uses a DTD or entities, which a roster never needs",
                        "{file}はDTDか実体参照を使っています（ロスターには不要なので読みません）"),
    "roster.not_roster": Label("{file} is not a BattleScribe roster (its root element is {root})",
                               "{file}はBattleScribeのロスターではありません（ルート要素が{root}です）"),
    "roster.invalid": Label("not valid against the published BattleScribe roster schema: {reason}",
                            "公開されているBattleScribeのロスタースキーマに合いません：{reason}"),
    "roster.unknown_game_system": Label(
        "no BattleScribe data of the game system \"{name}\" (id {id}) is loaded: import it first",
        "ゲームシステム「{name}」（id {id}）のBattleScribeデータが読み込まれていません。先にデータを取り込んでください"),
    "roster.forces": Label("the roster has {count} forces; a Hangar list holds exactly one",
                           "ロスターにフォースが{count}個あります。Hangarのリストに入るのは1つだけです"),
    "roster.nested_force": Label("a force inside a force is not read into a Hangar list",
                                 "フォースの中のフォースはHangarのリストに読み込めません"),
    "roster.unknown_force": Label("the force \"{name}\" (id {id}) is not a force of the loaded data (forces: {known})",
                                  "フォース「{name}」（id {id}）は読み込まれたデータにありません（フォース：{known}）"),
    "roster.unknown_entry": Label(
        "the entry \"{name}\" (id {id}) is not in the loaded BattleScribe data; import the data this roster was made with",
        "「{name}」（id {id}）は読み込まれたBattleScribeデータにありません。このロスターを作ったときのデータを取り込んでください"),
    "roster.part_outside": Label("\"{name}\" ({code}) belongs inside a warjack's selection, not in the force",
                                 "「{name}」（{code}）はウォージャックの中に選ぶもので、フォースに直接は入りません"),
    "roster.part_misplaced": Label("\"{name}\" ({code}) is inside \"{model}\", which cannot carry it",
                                   "「{name}」（{code}）が「{model}」の中にありますが、そのモデルには付けられません"),
    "roster.part_number": Label("\"{name}\" is selected {count} times inside {models} warjacks: each must carry the same parts",
                                "「{name}」が{models}体のウォージャックの中に{count}個あります。どのウォージャックも同じ装備にしてください"),
    "roster.two_cortexes": Label("a warjack carries one cortex", "ウォージャックに付けられるコルテックスは1つです"),
    "roster.not_warcaster": Label("only Warcaster lists can be written as BattleScribe rosters",
                                  "BattleScribeのロスターにできるのはWarcasterのリストだけです"),
    "roster.unknown_card": Label("card {code} is not in the catalog", "カード{code}はカタログにありません"),
    "roster.no_bs_id": Label(
        "card {code} ({name}) has no BattleScribe id: only lists built from cards imported from BattleScribe data can "
        "be written as rosters",
        "カード{code}（{name}）にはBattleScribeのidがありません。ロスターにできるのはBattleScribeデータから取り込んだカードのリストだけです"),
    "roster.two_systems": Label("the list mixes cards of two BattleScribe game systems ({systems})",
                                "リストに2つのBattleScribeゲームシステムのカードが混ざっています（{systems}）"),
    "roster.empty": Label("an empty list has no BattleScribe data to name: add a model first",
                          "空のリストはロスターにできません。先にモデルを加えてください"),
    "roster.no_force": Label("the loaded BattleScribe data has no force for this list",
                             "読み込まれたBattleScribeデータに、このリストのフォースがありません"),  # a sentence only the English side has (options, surrogates)
}

# The words of a JSON type in a message ("must be a whole number, got a string").
TYPE_WORDS = {
    "string": Label("a string", "文字列"), "integer": Label("a whole number", "整数"),
    "number": Label("a number", "数値"), "object": Label("an object", "オブジェクト"),
    "array": Label("a list", "リスト"), "boolean": Label("true or false", "true か false"),
    "null": Label("null", "null"),
}


class Worded(NamedTuple):
    """A parameter the API says one way and a page another: slugs in the API's English message (`api`), words on
    an English (`en`) or Japanese (`ja`) page ("tactics-v4" / "Tactics (regulation Ver.4)" / "タクティクス (Ver.4)")."""

    api: str
    en: str
    ja: str

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en if lang == "en" else self.api


class Said(str):
    """An English sentence that also knows its Japanese (`ja`): for helpers whose answer is used as a plain string
    (options_problem) and also shown on pages."""

    ja: str

    def __new__(cls, en: str, ja: str) -> "Said":
        said = super().__new__(cls, en)
        said.ja = ja
        return said


def both(text: Any) -> Label | str:
    """A Said as a Label (both languages); any other text as it is."""
    return Label(str(text), text.ja) if isinstance(text, Said) else text


def quoted(text: str) -> Label:
    """User text inside a message: "…" (JSON quoting) in English, 「…」 in Japanese."""
    return Label(json.dumps(text, ensure_ascii=False), f"「{text}」")


def joined(values: list[Any], lang_sep: Label = Label(", ", "、")) -> Worded:
    """Values (plain, Labels or Worded) joined in each language."""
    return Worded(*(lang_sep.get(lang).join(v.get(lang) if hasattr(v, "get") else str(v) for v in values)
                    for lang in ("api", "en", "ja")))


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The sentence of message `code` in `lang`: "ja" or "en" for a page, "api" for the API's English message."""
    values = {name: value.get(lang) if isinstance(value, (Label, Worded)) else value for name, value in params.items()}
    return TEMPLATES[code].get(lang).format(**values)
