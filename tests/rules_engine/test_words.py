"""A game's words (rules_engine/core/words.py): the games write them without Django, the site shows them in the
reader's language from the project's catalogue."""
from __future__ import annotations

import subprocess
import sys

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
