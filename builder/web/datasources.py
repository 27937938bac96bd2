"""Data sources that update, on the staff data import page (docs/data-packages.md "Data sources"): register a
BattleScribe data index or release archive, "check for updates" (queued as a Celery task: the page says "checking…"
and reloads itself until the result is there), see what changed, import it as the package's next version.

Thin: fetching, comparing, converting and importing are cards.datasources. No view here fetches anything: a check
is queued, and its result read from the database. Staff only, as the rest of the data import page (its
`staff_page`: sign in first, else 403, CSRF checked).
"""
from __future__ import annotations

from typing import Any

from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards import datasources
from cards.models import DataPackage, DataSource
from cards.tasks import source_check_request

from . import dataimport
from .sourceforms import DataSourceForm, error_text, status_text

CHECK_REFRESH_SECONDS = 2
STALE_CHECK = timedelta(minutes=5)  # "checking" longer than this: the page says the workers may not be running


def _source(pk: int) -> DataSource:
    source = DataSource.objects.defer("pending").filter(pk=pk).first()  # the fetched files: read by the import only
    if source is None:
        raise Http404("no such data source")
    return source


@dataimport.staff_page
@require_POST
def source_register(request: HttpRequest) -> HttpResponse:
    form = DataSourceForm(request.POST, prefix="source")
    if not form.is_valid():
        return dataimport.form_page(request, source_form=form, status=400)
    source = datasources.source_register(name=form.cleaned_data["name"], url=form.cleaned_data["url"],
                                         kind=form.cleaned_data["kind"], user=request.user)
    messages.success(request, _("The data source %(name)s is registered. Check it for updates to see what it "
                                "holds.") % {"name": source.name})
    return redirect("data_source", pk=source.pk)


@dataimport.staff_page
@require_GET
def source_detail(request: HttpRequest, pk: int) -> HttpResponse:
    source = _source(pk)
    context: dict[str, Any] = {
        "source": source, "status": status_text(source), "checking": source.status == DataSource.Status.CHECKING,
        "refresh": CHECK_REFRESH_SECONDS, "found": [_found_row(item) for item in source.found or []],
        "error_text": error_text(source.error_code, source.error or {}) if source.error_code else "",
        "error": source.error or {},
        "kind_text": {DataSource.Kind.INDEX: _("a data index"), DataSource.Kind.ARCHIVE: _("a release archive")}
        .get(source.kind, ""),
        "package_linked": bool(source.package_slug) and DataPackage.objects.filter(
            system__slug=source.system, slug=source.package_slug).exists(),
        "stale": source.status == DataSource.Status.CHECKING and source.check_requested_at is not None
        and timezone.now() - source.check_requested_at > STALE_CHECK,
    }
    preview = datasources.source_preview(source)
    if preview is not None:
        context.update(dataimport.battlescribe_summary(preview))
        context["pending_sha256"] = source.pending_sha256
    return render(request, "data/source.html", context)


def _found_row(item: dict[str, Any]) -> dict[str, Any]:
    changes = {"new": _("new"), "revised": _("new revision"), "same": _("unchanged"),
               "removed": _("no longer in the source")}
    kinds = {"gamesystem": _("game system"), "catalogue": _("catalogue")}
    return {**item, "change_text": changes.get(item.get("change"), ""), "type_text": kinds.get(item.get("type"), "")}


@dataimport.staff_page
@require_POST
def source_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue a check (never fetched in this request) and show the source, "checking…"."""
    source_check_request(_source(pk))
    return redirect("data_source", pk=pk)


@dataimport.staff_page
@require_POST
def source_import(request: HttpRequest, pk: int) -> HttpResponse:
    source = _source(pk)
    try:
        imported = datasources.source_import(source, sha256=request.POST.get("sha256", ""), user=request.user)
    except datasources.ImportRefused as refused:
        messages.error(request, {
            "stale": _("This update is no longer waiting to be imported (it was imported already, or a newer check "
                       "replaced it). Nothing was imported."),
            "package_changed": _("The package changed since this check (another import). Nothing was imported: "
                                 "check for updates again to see what would change now."),
        }.get(refused.reason, _("The import refused the data. Nothing was imported: %(problem)s")
              % {"problem": "; ".join(problem["message"] for problem in refused.problems)}))
        return redirect("data_source", pk=pk)
    words = {"slug": imported.slug, "version": imported.version, "cards": imported.cards}
    if imported.status == "unchanged":
        messages.success(request, _("The package %(slug)s already had this content: nothing changed.") % words)
    elif imported.status == "replaced":
        messages.success(request, _("Imported: the package %(slug)s is now version %(version)s (%(cards)d cards). "
                                    "Lists that use changed or removed cards say which.") % words)
    else:
        messages.success(request, _("Imported: the new package %(slug)s, version %(version)s (%(cards)d cards).")
                         % words)
    return redirect("package_detail", system="warcaster", slug=imported.slug)
