"""Tournament events, the organiser's side (docs/events.md): the organiser's page (every player, submission time,
legality and violations, who has not submitted), the lock, publication, moving the pinned data, removing a player;
each player's sheet bound to the event, the printable pack and the exports (CSV, JSON, PDF pack)."""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse


def _todo(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    raise Http404("not yet")


event_manage = event_lock = event_publish = event_repin = event_remove_player = _todo
event_sheet = event_pack = event_export = _todo
