"""A game's words (rules_engine/core/words.py): the games write them without Django, the site shows them in the
reader's language from the project's catalogue."""
from __future__ import annotations

import subprocess
import sys

import pytest
from django.utils import translation

from rules_engine.core import words


def test_the_site_installs_the_catalogue_so_a_games_words_are_in_the_readers_language():
    assert words.installed()
    with translation.override("ja"):
        assert words._t("replay", "you") == "あなた"
        assert str(words._tl("replay", "you")) == "あなた"
    with translation.override("en"):
        assert words._t("replay", "you") == "you"


def test_counts_take_the_plural_unless_one():
    with translation.override("en"):
        assert words._tn("test words", "%(count)s card", "%(count)s cards", 1) == "1 card"
        assert words._tn("test words", "%(count)s card", "%(count)s cards", 3) == "3 cards"
        assert words._tn("test words", "%(count)s card", "%(count)s cards", "2–3") == "2–3 cards"


def test_without_the_site_the_english_text_is_used_as_written_and_no_django_is_imported():
    code = ("import sys; from rules_engine.core.words import _t, _tl, _tn;"
            "assert _t('replay', '%(who)s won.', who='you') == 'you won.';"
            "assert str(_tl('replay', 'you')) == 'you' and _tl('replay', 'you') == 'you';"
            "assert _tn('x', 'a card', 'cards', 1) == 'a card';"
            "assert 'django' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_words_without_a_context_and_the_readers_language_come_from_the_site_too():
    with translation.override("ja"):
        assert words.language() == "ja"
        assert words._g("Cost") == "コスト"
        assert words._gn("Draw %(count)s cypher.", "Draw %(count)s cyphers.", 2) != "Draw 2 cyphers."
    with translation.override("en"):
        assert words.language() == "en"
        assert words._gn("Draw %(count)s cypher.", "Draw %(count)s cyphers.", 2) == "Draw 2 cyphers."


def test_a_value_no_table_has_a_word_for_is_humanised_never_a_slug():
    assert words.word({"fury": "Fury"}, "fury") == "Fury"
    assert words.word({}, "steel-wolves") == "steel wolves"
    assert words.humanise("arc_node") == "arc node"


@pytest.mark.parametrize("game", ["hagmi", "mwda", "warcaster"])
def test_each_games_sentences_position_words_and_card_text_import_without_django(game):
    """What a game says lives in its package and never needs the site: its replay's sentences, its position's words
    and its card text import alone, and write English as written."""
    code = (f"import sys; import rules_engine.{game}.report, rules_engine.{game}.positionwords, "
            f"rules_engine.{game}.cardtext as c;"
            "from rules_engine.core.gamewords import CardNames;"
            "assert c.CARD_WORDS.describe({'name': 'X'}, CardNames(), False)['facts'];"
            "assert 'django' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
