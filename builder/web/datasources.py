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

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from cards import datasources
from cards.models import DataPackage, DataSource

from . import dataimport

CHECK_REFRESH_SECONDS = 2
STALE_CHECK = timedelta(minutes=5)  # "checking" longer than this: the page says the workers may not be running


class DataSourceForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    url = forms.CharField(label=gettext_lazy("URL (https)"), max_length=1000,
                          widget=forms.URLInput(attrs={"placeholder": "https://…/index.bsi", "spellcheck": "false"}))
    kind = forms.ChoiceField(label=gettext_lazy("What the URL is"), widget=forms.RadioSelect, choices=[
        (DataSource.Kind.INDEX, gettext_lazy("A data index (.bsi or index.xml), as BattleScribe publishes a "
                                             "repository")),
        (DataSource.Kind.ARCHIVE, gettext_lazy("A release archive (.zip of .gst and .cat files)")),
    ], initial=DataSource.Kind.INDEX)

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if DataSource.objects.filter(name=name).exists():
            raise forms.ValidationError(_("A data source of this name is registered already."))
        return name

    def clean_url(self):
        url = self.cleaned_data["url"].strip()
        problem = datasources.url_problem(url)
        if problem is not None:
            raise forms.ValidationError(error_text(problem.code, {"url": url, **problem.params}))
        return url


def import_page_context(form: DataSourceForm | None = None) -> dict[str, Any]:
    """What the data import page shows of the sources: each registered one, and the form to register one."""
    return {"sources": [_row(source) for source in DataSource.objects.defer("pending", "preview", "found")],
            "source_form": form or DataSourceForm(prefix="source"),
            "source_file_mb": datasources.MAX_FILE_BYTES // (1024 * 1024),
            "source_total_mb": datasources.MAX_TOTAL_BYTES // (1024 * 1024),
            "source_seconds": f"{settings.HANGAR_DATA_SOURCE_TIMEOUT:g}"}


def _row(source: DataSource) -> dict[str, Any]:
    return {"source": source, "status": status_text(source)}


def status_text(source: DataSource) -> str:
    return {
        DataSource.Status.NEW: _("never checked"),
        DataSource.Status.CHECKING: _("checking…"),
        DataSource.Status.CURRENT: _("no update"),
        DataSource.Status.UPDATE: _("update found"),
        DataSource.Status.FAILED: _("check failed"),
    }.get(source.status, source.status)


def error_text(code: str, error: dict[str, Any]) -> str:
    """A failed check in the reader's language, naming the URL (and the file) it is about."""
    words = {"url": error.get("url", ""), "file": error.get("file", ""), "host": error.get("host", ""),
             "status": error.get("status", ""), "size": filesizeformat(error.get("limit") or 0),
             "limit": error.get("limit", ""), "seconds": error.get("seconds", ""),
             "package": error.get("package", ""), "before": error.get("before", ""),
             "scheme": error.get("scheme", "")}
    texts = {
        "scheme": _("Only https URLs are fetched (this one is %(scheme)s): %(url)s"),
        "url": _("This is not a URL Hangar can fetch: %(url)s"),
        "dns": _("The host name %(host)s cannot be found (DNS): %(url)s"),
        "address": _("%(host)s is a local or private address, which Hangar does not fetch: %(url)s"),
        "refused": _("%(host)s refused the connection: %(url)s"),
        "timeout": _("No complete answer within %(seconds)s seconds: %(url)s"),
        "tls": _("The secure (TLS) connection to %(host)s failed: %(url)s"),
        "connection": _("The connection to %(host)s failed: %(url)s"),
        "status": _("The server answered HTTP %(status)s: %(url)s"),
        "redirects": _("More than %(limit)s redirects: %(url)s"),
        "too_big": _("The file is larger than %(size)s, the limit of one download: %(url)s"),
        "total_too_big": _("The files are larger than %(size)s together, the limit of one check (at %(file)s)."),
        "not_zip": _("This is not a zip archive: %(url)s"),
        "not_index": _("This is not a BattleScribe data index (.bsi or index.xml): %(url)s"),
        "index_entries": _("The index names more than %(limit)s files, the limit: %(url)s"),
        "missing_file": _("The index names the file %(file)s, but it is not there (HTTP 404): %(url)s"),
        "file_name": _("The index names %(file)s, which is not a .gst, .gstz, .cat or .catz file: %(url)s"),
        "data": _("The data fetched is not BattleScribe data Hangar can import."),
        "other_package": _("The data now makes the package %(package)s, not %(before)s, which this source fed. "
                           "Register it as a new data source."),
        "queue": _("The check could not be queued: the task queue cannot be reached. Try again later."),
        "stopped": _("The check took longer than its time limit and was stopped."),
        "failed": _("The check failed unexpectedly. The server's log has the details."),
    }
    return texts.get(code, texts["failed"]) % words


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
    datasources.source_check_request(_source(pk))
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
