"""`manage.py makemessages`, knowing the project's own translation helpers (rules_engine/core/words.py): `_t(context,
message)` and `_tn(context, singular, plural, count)` are pgettext and npgettext with their values filled in,
`_tl(context, message)` is pgettext_lazy, and `_g(message)` / `_gn(singular, plural, count)` are gettext and ngettext
with their values filled in, so their strings are extracted (with their context) like any other."""
from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_t:1c,2", "--keyword=_tn:1c,2,3",
                       "--keyword=_tl:1c,2", "--keyword=_g", "--keyword=_gn:1,2"]
