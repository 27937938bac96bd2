"""The staff data import page: BattleScribe data or a spreadsheet of cards from
the browser, previewed, then imported on a confirm.

Thin: converting, checking and importing are cards.services (`battlescribe_preview`, `battlescribe_upload_import`,
`sheet_import`), as `import_package` and `import_cards` use them. What the page keeps between the preview and the
confirm is the uploaded bytes, in the staff member's session under a random token with their sha256: the confirm
imports exactly the files previewed (a token that is not the session's pending one, bytes whose digest differ, or a
package that changed since the preview are refused, and nothing is written). One preview is pending per session; a
new preview replaces it.

The request's size is checked before anything reads its body (settings.DATA_UPLOAD_MAX_MEMORY_SIZE, the limit the
API applies): a larger upload gets the page with a message and 413, never Django's 400. So the view is exempt from
the CSRF middleware, which would read the body first, and checks the token itself right after (csrf_protect), as
every other form of the site.
"""
from __future__ import annotations

import base64
import secrets
from functools import wraps
from typing import Any, Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST

from builder.forms import BattleScribeUploadForm, SheetUploadForm
from cards import services
from cards.selectors import package_document, package_sha256
from cards.sheetfiles import SheetError
from cards.systems import SYSTEMS
from rules_engine.formats import game_part

from . import presenters
from .common import forbidden_page
from . import vocabulary
from .sourceforms import import_page_context  # the data sources section

PENDING_KEY = "hangar.data_import"  # the session's pending import: token, kind, sha256, files, system, slug
PASTED_NAME = "pasted.txt"  # a pasted sheet: tabs when its first line has one (as a spreadsheet copies), else CSV


def staff_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Staff only (user.is_staff): sign in first (the login redirect every page uses), a signed-in user who is not
    staff gets the site's 403 page. Then the body's size, then the CSRF token (see the module's docstring)."""
    protected = csrf_protect(view)

    @csrf_exempt
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            return forbidden_page(request, _("Only staff can import catalogue data."))
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request.method == "POST" and limit is not None and _content_length(request) > limit:
            return _form_page(request, problems=[_problem(_(
                "The upload is %(size)s KiB; this site accepts at most %(limit)s KiB at a time (nothing was read "
                "or saved). Upload fewer or smaller files.") % {"size": _content_length(request) // 1024,
                                                               "limit": limit // 1024})], status=413)
        return protected(request, *args, **kwargs)

    return wrapped


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _problem(message: str, **where: Any) -> dict[str, Any]:
    return {"file": "", "path": "", "id": "", "row": None, "column": "", "header": "", "value": None,
            "message": message, **where}


def _systems() -> list[tuple[str, str]]:
    """Every game (a sheet may start a game's first package)."""
    return [(slug, presenters.system_name(slug)) for slug in SYSTEMS]


def _form_page(request: HttpRequest, *, bs_form: BattleScribeUploadForm | None = None,
               sheet_form: SheetUploadForm | None = None, problems: list[dict] | None = None, kind: str = "",
               status: int = 200, source_form=None) -> HttpResponse:
    return render(request, "data/import.html", {
        **import_page_context(source_form),
        "bs_form": bs_form or BattleScribeUploadForm(prefix="bs"),
        "sheet_form": sheet_form or SheetUploadForm(prefix="sheet", systems=_systems()),
        "problems": problems or [], "kind": kind, "limit_kib": (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0) // 1024,
    }, status=status)


form_page = _form_page  # the data sources' views render the page with their form's errors


@staff_page
@require_http_methods(["GET", "POST"])
def data_import(request: HttpRequest) -> HttpResponse:
    """GET: the two forms. POST `kind=battlescribe` or `kind=sheet`: the preview (nothing written), or the form
    again with every problem found."""
    if request.method == "GET":
        return _form_page(request)
    if request.POST.get("kind") == "sheet":
        return _sheet_preview(request)
    return _battlescribe_preview(request)


# --- BattleScribe ---------------------------------------------------------------------------------------------


def _battlescribe_preview(request: HttpRequest) -> HttpResponse:
    form = BattleScribeUploadForm(request.POST, request.FILES, prefix="bs")
    if not form.is_valid():
        return _form_page(request, bs_form=form, kind="battlescribe", status=400)
    uploads = [services.Upload(upload.name, upload.read()) for upload in form.cleaned_data["files"]]
    try:
        preview = services.battlescribe_preview(uploads)
    except services.UploadRefused as error:
        return _form_page(request, bs_form=form, problems=_refusal_problems(error), kind="battlescribe", status=400)
    pending = _pending_keep(request, "battlescribe", uploads, system=preview.package["system"],  # any game's export
                            slug=preview.package["slug"])
    return render(request, "data/preview.html", {
        "kind": "battlescribe", "pending": pending, "files": [upload.name for upload in uploads],
        **_battlescribe_summary(preview),
    })


def _refusal_problems(error: services.UploadRefused) -> list[dict]:
    return [_problem(problem["message"], file=problem["file"], path=problem["path"], id=problem["id"])
            for problem in error.problems]


def _battlescribe_summary(preview: services.BattleScribePreview) -> dict[str, Any]:
    """The preview's words: the import report (models by kind, weapons, cyphers, formats, cards played in part),
    the warnings about odd data (each entry read by a documented rule or left out) and the cards added, changed and removed against the package loaded now."""
    package, cards = preview.package, preview.package["cards"]
    system = package["system"]  # the community's data read by its game, or any game's package that Hangar exported
    # the kinds of model the game's reading of the community's data makes (its BattleScribe part), counted by kind
    model_kinds = tuple(getattr(game_part("battlescribe", system), "MODEL_KINDS_COUNTED", ()))
    kinds = [(vocabulary.label(system, "kind", kind), sum(card.get("kind") == kind for card in cards))
             for kind in model_kinds]
    kinds = [(label, count) for label, count in kinds if count]
    suits = sorted({card.get("suit") for card in cards if card.get("kind") == "cypher" and card.get("suit")})
    new_cards = {card["code"]: card for card in cards}
    old_cards = {card["code"]: card for card in (preview.current or {}).get("cards", [])}
    shown = presenters.catalog(system).cards
    return {
        "system": system, "system_name": presenters.system_name(system), "package": package,
        "current": preview.current, "new_package": preview.current is None, "unchanged": preview.unchanged,
        "report_lines": preview.report, "warnings": preview.warnings,
        "factions": [presenters.names(faction, faction["slug"]) for faction in package.get("factions", [])],
        "kinds": kinds,
        "fixed_weapons": sum(len(card.get("weapons") or []) for card in cards if card.get("kind") in model_kinds),
        "warjack_weapons": sum(card.get("kind") == "weapon" for card in cards),
        "cortexes": sum(card.get("kind") == "cortex" for card in cards),
        "cyphers": sum(card.get("kind") == "cypher" for card in cards),
        "suits": [(vocabulary.label(system, "suit", suit), sum(card.get("suit") == suit for card in cards))
                  for suit in suits],
        "formats": [presenters.names(fmt, fmt["slug"]) for fmt in package.get("formats", [])],
        "partial": [{"code": card["code"], "names": presenters.names(card, card["code"]),
                     "not_modelled": card["not_modelled"]}
                    for card in cards if card.get("not_modelled")],
        **_diff_rows(preview.diff, old_cards, new_cards, shown),
    }


battlescribe_summary = _battlescribe_summary  # a data source's update is previewed as an upload is


def _diff_rows(diff: dict, old_cards: dict, new_cards: dict, shown) -> dict[str, list[dict]]:
    def row(code: str, card: dict | None, fields: list[str] | None = None) -> dict:
        return {"code": code, "names": presenters.names(card, code), "linked": code in shown,
                "fields": [vocabulary.card_field(field) for field in fields or []]}

    return {"added": [row(code, new_cards.get(code)) for code in diff["added"]],
            "removed": [row(code, old_cards.get(code)) for code in diff["removed"]],
            "changed": [row(code, new_cards.get(code), fields) for code, fields in diff["changed"].items()]}


# --- spreadsheets -------------------------------------------------------------------------------------------------


def _sheet_upload(form: SheetUploadForm) -> services.Upload:
    data = form.cleaned_data
    if data.get("file"):
        return services.Upload(data["file"].name, data["file"].read())
    return services.Upload(PASTED_NAME, data["text"].encode("utf-8"))


def _sheet_problems(error: SheetError) -> list[dict]:
    return [_problem(problem.problem, row=problem.row, column=problem.column or "", header=problem.header or "",
                     value=problem.value) for problem in error.problems]


def _sheet_preview(request: HttpRequest) -> HttpResponse:
    form = SheetUploadForm(request.POST, request.FILES, prefix="sheet", systems=_systems())
    if not form.is_valid():
        return _form_page(request, sheet_form=form, kind="sheet", status=400)
    upload = _sheet_upload(form)
    system, slug = form.cleaned_data["system"], form.cleaned_data["package"]
    try:
        report = services.sheet_import(upload.raw, filename=upload.name, system=system, slug=slug, dry_run=True)
    except SheetError as error:
        return _form_page(request, sheet_form=form, problems=_sheet_problems(error), kind="sheet", status=400)
    pending = _pending_keep(request, "sheet", [upload], system=system, slug=slug)
    return render(request, "data/preview.html", {
        "kind": "sheet", "pending": pending, "system": system,
        "files": [_("the rows pasted") if upload.name == PASTED_NAME and not form.cleaned_data.get("file")
                  else upload.name],
        "system_name": presenters.system_name(system), "slug": slug, "report": report,
        "new_package": not package_sha256(system, slug),
        **_sheet_rows(report, system, slug),
    })


def _sheet_rows(report: services.SheetReport, system: str, slug: str) -> dict[str, list[dict]]:
    old_cards = {card["code"]: card for card in (package_document(system, slug) or {}).get("cards", [])}
    diff = {"added": report.added, "removed": report.removed, "changed": report.changed}
    return _diff_rows(diff, old_cards, {}, presenters.catalog(system).cards)


# --- the pending import and the confirm ---------------------------------------------------------------------------


def _pending_keep(request: HttpRequest, kind: str, uploads: list[services.Upload], *, system: str,
                  slug: str) -> dict[str, str]:
    """Keep the previewed bytes in the session (replacing an earlier pending import) and return what the confirm
    form carries: the token and the sha256."""
    pending = {
        "token": secrets.token_urlsafe(24), "kind": kind, "sha256": services.uploads_sha256(uploads),
        "system": system, "slug": slug, "package_sha256": package_sha256(system, slug),
        "files": [[upload.name, base64.b64encode(upload.raw).decode("ascii")] for upload in uploads],
    }
    request.session[PENDING_KEY] = pending
    return {"token": pending["token"], "sha256": pending["sha256"]}


def _pending_take(request: HttpRequest) -> tuple[dict | None, list[services.Upload], str]:
    """The session's pending import if the form names it (token and sha256), its files, and else why not."""
    pending = request.session.get(PENDING_KEY)
    token, sha256 = request.POST.get("token", ""), request.POST.get("sha256", "")
    if not isinstance(pending, dict) or not token or not secrets.compare_digest(str(pending.get("token", "")), token):
        return None, [], _("This preview is no longer waiting to be imported (it was imported already, a newer "
                           "preview replaced it, or the session ended). Nothing was imported: upload the data again.")
    uploads = [services.Upload(name, base64.b64decode(raw)) for name, raw in pending.get("files", [])]
    if sha256 != pending.get("sha256") or services.uploads_sha256(uploads) != sha256:
        request.session.pop(PENDING_KEY, None)
        return None, [], _("The files to import are not the ones previewed. Nothing was imported: upload the data "
                           "again.")
    if package_sha256(pending["system"], pending["slug"]) != pending.get("package_sha256"):
        request.session.pop(PENDING_KEY, None)
        return None, [], _("The package changed since this preview (another import). Nothing was imported: upload "
                           "the data again to see what would change now.")
    return pending, uploads, ""


@staff_page
@require_POST
def data_import_confirm(request: HttpRequest) -> HttpResponse:
    """Import exactly the previewed files, then the package's page with what the import did."""
    pending, uploads, refusal = _pending_take(request)
    if pending is None:
        return _form_page(request, problems=[_problem(refusal)], status=409)
    system, slug = pending["system"], pending["slug"]
    try:
        if pending["kind"] == "sheet":
            report = services.sheet_import(uploads[0].raw, filename=uploads[0].name, system=system, slug=slug)
            status, version, cards = report.status, report.version, report.kept + len(report.added) + len(report.changed)
        else:
            imported = services.battlescribe_upload_import(uploads).imported
            status, version, cards = imported.status, imported.version, imported.cards
    except SheetError as error:
        return _form_page(request, problems=_sheet_problems(error), kind="sheet", status=400)
    except services.UploadRefused as error:
        return _form_page(request, problems=_refusal_problems(error), kind="battlescribe", status=400)
    request.session.pop(PENDING_KEY, None)
    words = {"slug": slug, "version": version, "cards": cards}
    if status == "unchanged":
        messages.success(request, _("The package %(slug)s already had this content: nothing changed.") % words)
    elif status == "replaced":
        messages.success(request, _("Imported: the package %(slug)s is now version %(version)s (%(cards)d cards). "
                                    "Lists that use changed or removed cards say which.") % words)
    else:
        messages.success(request, _("Imported: the new package %(slug)s, version %(version)s (%(cards)d cards).")
                         % words)
    return redirect("package_detail", system=system, slug=slug)
