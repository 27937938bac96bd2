"""The list import page: a list pasted as text or uploaded as a file (hangar.list/1 JSON, the text format, a
BattleScribe roster; builder.listio) becomes a new list of the user's; a failed import shows every problem and saves
nothing.
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from builder import services
from builder.forms import ImportForm
from builder.listio import ListFormatError
from builder.services import ListServiceError
from cards.selectors import systems_list

from . import presenters
from .common import error_lines


@login_required
@require_http_methods(["GET", "POST"])
def list_import(request: HttpRequest) -> HttpResponse:
    systems = [(s.slug, presenters.system_name(s.slug)) for s in systems_list()]
    form = ImportForm(request.POST or None, request.FILES or None, systems=systems)
    issues: list[dict[str, Any]] = []
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            common = {"owner": request.user, "name": data["name"] or None, "visibility": data["visibility"]}
            try:
                if data.get("file"):
                    upload = data["file"]
                    game_list = services.list_import_file(filename=upload.name, content=upload.read(),
                                                          system=data["system"] or None, **common)
                else:
                    game_list = services.list_import_text(text=data["text"], system=data["system"] or None,
                                                          **common)
            except (ListServiceError, ListFormatError) as error:
                issues, status = error_lines(error), getattr(error, "status", 400)
            else:
                return redirect("list_edit", slug=game_list.slug)
        else:
            status = 400
    return render(request, "lists/import.html",
                  {"form": form, "issues": issues, "examples": presenters.text_examples()},
                  status=status)
