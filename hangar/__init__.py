from django.utils.translation import get_language, gettext, ngettext, npgettext, pgettext, pgettext_lazy

from rules_engine.core import words

from .celery import app as celery_app

# The games' own words (rules_engine/<game>/, which never imports Django) come from the project's message
# catalogue in the request's language: installed here, before any app imports a game (rules_engine/core/words.py).
words.install(pgettext=pgettext, npgettext=npgettext, pgettext_lazy=pgettext_lazy, gettext=gettext, ngettext=ngettext,
              get_language=get_language)

__all__ = ("celery_app",)
