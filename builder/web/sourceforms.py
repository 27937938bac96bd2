"""The data sources' part of the staff data import page (builder/web/datasources.py has their views): the form that
registers a source, the sentences of a source's status and of a failed check, and the sources section the import
page (builder/web/dataimport.py) shows."""
from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _, gettext_lazy

from cards import datasources
from cards.models import DataSource


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
