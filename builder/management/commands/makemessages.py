"""`manage.py makemessages`, knowing the project's own translation helpers: the replay report's `_t(context,
message)` and `_tn(context, singular, plural, count)` (builder/web/gamereport.py, rules_engine/core/words.py) are
pgettext and npgettext with their values filled in, and `_tl(context, message)` (rules_engine/core/words.py) is
pgettext_lazy, so their strings are extracted with their context like any other."""
from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_t:1c,2", "--keyword=_tn:1c,2,3",
                       "--keyword=_tl:1c,2"]
