"""Tournament events, the players' side (docs/events.md): the index of events, "my events", making and editing an
event, its page, joining, withdrawing and submitting a list, the locked list of a submission, the event's lists."""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse


def _todo(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    raise Http404("not yet")


event_list = event_mine = event_new = event_detail = event_edit = event_delete = _todo
event_join = event_withdraw = event_submit = event_submission = event_lists = _todo
