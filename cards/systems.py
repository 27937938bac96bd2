"""The three game systems Hangar knows, as declared constants (names and list sections, DESIGN.md §2.2)."""

SYSTEMS = {
    "hagmi": {
        "name": "HAGMI!",
        "name_ja": "HAGMI!",
        # 兵器 / 作戦 / ダメージ / 秘策
        "sections": ["weapons", "tactics", "damage", "secret"],
    },
    "mwda": {
        "name": "MechWarrior: Dark Age",
        "name_ja": "メックウォリアー：ダークエイジ",
        "sections": ["army"],
    },
    "warcaster": {
        "name": "Warcaster: Neo-Mechanika",
        "name_ja": "ウォーキャスター：ネオメカニカ",
        "sections": ["force", "rack"],
    },
}

SECTION_LABELS = {
    "weapons": {"ja": "兵器", "en": "Weapons"},
    "tactics": {"ja": "作戦", "en": "Tactics"},
    "damage": {"ja": "ダメージ", "en": "Damage"},
    "secret": {"ja": "秘策", "en": "Secret"},
    "army": {"ja": "軍団", "en": "Army"},
    "force": {"ja": "フォース", "en": "Force"},
    "rack": {"ja": "サイファーラック", "en": "Cypher rack"},
}
