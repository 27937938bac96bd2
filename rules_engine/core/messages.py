"""Player-facing construction messages in English and Japanese.

A violation carries a message *key* and its parameters; the text is rendered only when the result is built,
in the language asked for. Parameters are plain values (numbers, card labels) or `Label`s, which hold one
text per language (section names, frames, suits, descriptions of malformed values).
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple

LANGS = ("en", "ja")


class Label(NamedTuple):
    """A short text in both languages."""

    en: str
    ja: str

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


def plain(text: str) -> Label:
    """The same text in both languages (card names, codes, numbers)."""
    return Label(text, text)


MAX_SHOWN_CHARS = 40
MAX_SHOWN_INT = 10**12


def short(text: str) -> str:
    """Truncate an untrusted string for display inside a message."""
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS] + "…"


def describe(value: Any) -> Label:
    """Describe an untrusted JSON value for a message: '"two"', '-1', 'null', 'a list', ..."""
    if value is None:
        return plain("null")
    if isinstance(value, bool):
        return plain("true" if value else "false")
    if isinstance(value, int):
        if abs(value) >= MAX_SHOWN_INT:
            return Label("a very large number", "非常に大きな数")
        return plain(str(value))
    if isinstance(value, float):
        return plain(short(repr(value)))
    if isinstance(value, str):
        return Label(f'"{short(value)}"', f"「{short(value)}」")
    if isinstance(value, Mapping):
        return Label("an object", "オブジェクト")
    if isinstance(value, (list, tuple)):
        return Label("a list", "リスト")
    return plain(type(value).__name__)


TEMPLATES: Mapping[str, Label] = {
    # --- any system (list.*) ---------------------------------------------------------------------
    "list.not_object": Label(
        "The list must be a JSON object, not {value}.",
        "リストはJSONオブジェクトでなければなりません（{value}が渡されました）。",
    ),
    "list.wrong_system": Label(
        "This list is for system {found}, but it is checked against the {expected} rules.",
        "このリストのシステムは{found}ですが、{expected}のルールで検査しています。",
    ),
    "list.wrong_system.card": Label(
        "Entry {index} of the {place}: {card} is a card of another game.",
        "{place}の{index}番目：{card}は別のゲームのカードです。",
    ),
    "list.unknown_format": Label(
        "Unknown format {found}; the list was checked with the {used} format instead.",
        "フォーマット{found}は存在しません。代わりに{used}フォーマットで検査しました。",
    ),
    "list.unknown_format.defaults": Label(
        "Unknown format {found}; the list was checked with the default options instead.",
        "フォーマット{found}は存在しません。代わりに標準の設定で検査しました。",
    ),
    "list.sections_not_object": Label(
        "sections must be an object of section lists, not {value}.",
        "sectionsはセクションごとのリストを持つオブジェクトでなければなりません（{value}が渡されました）。",
    ),
    "list.unknown_section": Label(
        "Unknown section {found}: {system} lists have {known}.",
        "不明なセクション{found}です。{system}のリストのセクションは{known}です。",
    ),
    "list.more_sections": Label(
        "… and {count} more unknown sections: {system} lists have {known}.",
        "…ほかに不明なセクションが{count}個あります。{system}のリストのセクションは{known}です。",
    ),
    "list.section_not_list": Label(
        "The {place} must be a list of entries, not {value}.",
        "{place}はエントリーのリストでなければなりません（{value}が渡されました）。",
    ),
    "list.no_code": Label(
        "Entry {index} of the {place} has no card code.",
        "{place}の{index}番目のエントリーにカードコードがありません。",
    ),
    "list.unknown_card": Label(
        "Entry {index} of the {place}: this game has no card with code {card}.",
        "{place}の{index}番目：コード{card}のカードはこのゲームにありません。",
    ),
    "list.bad_quantity": Label(
        "Entry {index} of the {place} ({card}): quantity {value} is not a whole number from 1 to {max}.",
        "{place}の{index}番目（{card}）：数量{value}は1から{max}までの整数ではありません。",
    ),
    "list.more": Label(
        "… and {count} more entries in the {place} with the same problem.",
        "…ほかに{place}に同じ問題のエントリーが{count}件あります。",
    ),
    # --- HAGMI! ------------------------------------------------------------------------------------
    "H1": Label(
        "{place} has {count} cards; the format needs at least {min}.",
        "{place}が{count}枚です。このフォーマットでは{min}枚以上必要です。",
    ),
    "H2": Label(
        "{place} has {count} cards; the format needs at least {min}.",
        "{place}が{count}枚です。このフォーマットでは{min}枚以上必要です。",
    ),
    "H2.main": Label(
        "The Weapons and Tactics decks have {count} cards together; the format needs at least {min}.",
        "兵器デッキと作戦デッキが合計{count}枚です。このフォーマットでは合計{min}枚以上必要です。",
    ),
    "H3": Label(
        "{card} has a {frame} frame: it belongs in the {home}, not in the {place}.",
        "{card}は{frame}枠のカードです。{place}ではなく{home}に入れてください。",
    ),
    "H3.opponent": Label(
        "{card} is a {category} card of the co-op opponent; it cannot be in a player's list.",
        "{card}は協力戦の敵の{category}カードなので、プレイヤーのリストには入れられません。",
    ),
    "H4": Label(
        "{names}: {count} copies in the Weapons and Tactics decks; the limit is {max} per name.",
        "{names}が兵器デッキと作戦デッキに合計{count}枚あります。同名カードは{max}枚までです。",
    ),
    "H5": Label(
        "Secret has {count} cards; {main} main-deck cards allow {allowed}.",
        "秘策が{count}枚です。メインデッキ{main}枚では{allowed}枚までです。",
    ),
    "H6": Label(
        "{names}: {count} copies in Secret; the limit there is {max} per name.",
        "{names}が秘策に{count}枚あります。秘策に入れられる同名カードは{max}枚までです。",
    ),
    "H7": Label(
        "{card} has a {frame} frame, so it can only be in Secret, not in the {place}.",
        "{card}は{frame}枠のカードなので、{place}ではなく秘策にしか入れられません。",
    ),
    "H7.design": Label(
        "{card} is a design unit, so it can only be in Secret, not in the {place}.",
        "{card}は設計兵装なので、{place}ではなく秘策にしか入れられません。",
    ),
    "H8": Label(
        "The damage deck is empty: the first damage you take loses the game.",
        "ダメージデッキが空です。最初にダメージを受けた時点で敗北します。",
    ),
    # --- MechWarrior: Dark Age ---------------------------------------------------------------------
    "M1": Label(
        "The army has {points} points; the format allows at most {limit}.",
        "アーミーが{points}ポイントです。このフォーマットの上限は{limit}ポイントです。",
    ),
    "M3": Label(
        "{names} is unique (★) but appears {count} times; a unique unit may appear only once.",
        "{names}はユニーク（★）ですが{count}体います。ユニークユニットは1体までです。",
    ),
    "M4": Label(
        "The army has no units; it needs at least one.",
        "アーミーにユニットがいません。1体以上必要です。",
    ),
    # --- Warcaster: Neo-Mechanika ------------------------------------------------------------------
    "warcaster.wrong_section": Label(
        "{card} is a {kind} card: it belongs in {home}, not in the {place}.",
        "{card}は{kind}のカードです。{place}ではなく{home}に入れてください。",
    ),
    "W1": Label(
        "The force has {count} heroes; the format allows at most {max}.",
        "フォースにヒーローが{count}体います。このフォーマットでは{max}体までです。",
    ),
    "W1.twice": Label(
        "{names} is taken {count} times; each hero may be taken only once.",
        "{names}が{count}体います。同じヒーローは1体までです。",
    ),
    "W2": Label(
        "The force has {count} units besides heroes; the format allows at most {max}.",
        "フォースにヒーロー以外のユニットが{count}体います。このフォーマットでは{max}体までです。",
    ),
    "W2.mantlets": Label(
        "The force has {count} mantlets; the format allows at most {max}.",
        "フォースにマントレットが{count}体います。このフォーマットでは{max}体までです。",
    ),
    "W3.size": Label(
        "The cypher rack has {count} cyphers; it needs {min} to {max}.",
        "サイファーラックが{count}枚です。{min}〜{max}枚にしてください。",
    ),
    "W3.copies": Label(
        "{names} is in the cypher rack {count} times; each cypher may be taken only once.",
        "{names}がサイファーラックに{count}枚あります。同じサイファーは1枚までです。",
    ),
    "W3.suits": Label(
        "The cypher rack has {count} {suit} cyphers; it needs at least {min} of each suit.",
        "サイファーラックの{suit}が{count}枚です。各スートを{min}枚以上入れてください。",
    ),
    "W4": Label(
        "{names} is taken {count} times; the limit is {max} per unit.",
        "{names}が{count}体います。同じユニットは{max}体までです。",
    ),
    "W4.attachment": Label(
        "{names} is taken {count} times; a squad attachment joins one of its squads, and the force has {max} "
        "squads it may join.",
        "{names}が{count}体います。スクワッドアタッチメントは合流先のスクワッド1つにつき1体までで、フォースには合流できる"
        "スクワッドが{max}つあります。",
    ),
    "W5.no_choice": Label(
        "{names} has no weapon choices: remove the weapons in its options.",
        "{names}には選べる武器がありません。オプションの武器を外してください。",
    ),
    "W5": Label(
        "{names}: its weapons cost {cost} weapon points; the chassis has {max}.",
        "{names}の武器は合計{cost}ウェポンポイントです。シャーシのウェポンポイントは{max}です。",
    ),
    "W5.no_cortex": Label(
        "{names} has no cortex: choose one in its loadout.",
        "{names}のコルテックスが選ばれていません。装備で選んでください。",
    ),
    "W5.bad_weapons": Label(
        "{names}: its weapons option must be a list of weapon codes, not {value}.",
        "{names}：武器のオプションは武器コードのリストでなければなりません（{value}が渡されました）。",
    ),
    "W5.unknown_part": Label(
        "{names}: its {field} {value} is not a known {kind} card.",
        "{names}：{field}の{value}は既知の{kind}カードではありません。",
    ),
    "W5.wrong_kind": Label(
        "{names}: its {field} {part} is a {actual} card, not a {kind}.",
        "{names}：{field}の{part}は{actual}のカードで、{kind}ではありません。",
    ),
    "W5.hardpoints": Label(
        "{names}: its weapons do not fit its hardpoints ({value}): each weapon takes one hardpoint it fits.",
        "{names}：武器がハードポイント（{value}）に収まりません。武器は1つずつ、合うハードポイントに付けます。",
    ),
    "W6": Label(
        "The force mixes factions: {names} are not {faction} (only mercenaries may join any force).",
        "フォースの勢力が混在しています：{names}は{faction}ではありません（傭兵のみ勢力を問いません）。",
    ),
}


def render(key: str | Label, params: Mapping[str, Any], lang: str) -> str:
    """The message text for `key` in `lang` ("en" or "ja"; anything else gives English). `key` is a key of
    TEMPLATES, or a game's own template in both languages (a `Label`: a game outside rules_engine/ brings its
    messages with its rules)."""
    values = {name: value.get(lang) if isinstance(value, Label) else value for name, value in params.items()}
    template = key if isinstance(key, Label) else TEMPLATES[key]
    return template.get(lang).format(**values)
