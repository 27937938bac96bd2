"""The card editor: data editors edit the cards of a package's draft in forms drawn from the
system's schema (builder/web/cardform.py), with live checks and a preview of the card as the catalog draws it, and
publish the draft as the package's next version; signed-in users propose corrections, which editors accept or reject.

Thin: every write and every check is cards.drafts. The form posts to its own page: `action=save` keeps the card,
`action=check` (what the page's script sends as the user types, htmx) answers the checks and the preview only,
`action=add:PATH` / `remove:PATH` / `redraw` draw the form again with a row more or less or another kind's fields,
and keep nothing. Without JavaScript every button still works.
"""
from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from cards import drafts
from cards.selectors import fields_changed, package_document, package_versions, packages_list
from cards.services import PackageError

from . import cardform, cardtext, vocabulary
from . import presenters
from .common import forbidden_page, is_htmx, system_or_404

MAX_FORM_FIELDS = 2000  # inputs one card's form may send (settings.DATA_UPLOAD_MAX_NUMBER_FIELDS is larger)


def editor_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Data editors only (cards.drafts.is_data_editor): sign in first; anyone else gets the 403 page."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not drafts.is_data_editor(request.user):
            return forbidden_page(request, _("Only data editors can edit the catalogue. You can propose a "
                                             "correction from a card's page."))
        return view(request, *args, **kwargs)

    return wrapped


def _package_or_404(system: str, slug: str) -> dict:
    document = drafts.working_document(system, slug)
    if document is None:
        raise Http404(f"No package {slug!r} in {system}.")
    return document


def _card_row(system: str, card: dict, status: str = "") -> dict[str, Any]:
    return {"code": card.get("code", ""), "names": presenters.names(card, card.get("code", "")),
            "kind": vocabulary.label(system, "category", card.get("category") or card.get("kind")),
            "cost": presenters.card_cost(system, card), "status": status}


# --- the editor's home and a package's draft -------------------------------------------------------------------


@editor_page
@require_http_methods(["GET", "HEAD"])
def data_home(request: HttpRequest) -> HttpResponse:
    """Every package, by game, with its draft's changes, and the corrections users proposed."""
    rows = []
    for package in packages_list().order_by("system__slug", "slug"):
        draft = drafts.draft_get(package.system.slug, package.slug)
        published = package_document(package.system.slug, package.slug) if draft is not None else None
        changes = drafts.draft_changes(draft, published)
        rows.append({"system": package.system.slug, "system_name": presenters.system_name(package.system.slug),
                     "slug": package.slug, "title": package.title, "version": package.version,
                     "cards": package.card_count, "latest": package.latest,
                     "draft": draft is not None,
                     "added": len(changes["added"]), "changed": len(changes["changed"]),
                     "removed": len(changes["removed"])})
    return render(request, "data/home.html", {"packages": rows, "proposals": list(drafts.proposals_open()[:50])})


@editor_page
@require_http_methods(["GET", "HEAD"])
def draft_detail(request: HttpRequest, system: str, slug: str) -> HttpResponse:
    game = system_or_404(system)
    draft = drafts.draft_get(system, slug)
    published = package_document(system, slug)
    document = draft.data if draft is not None else published
    if document is None:
        raise Http404(f"No package {slug!r} in {system}.")
    changes = drafts.draft_changes(draft, published)
    query = (request.GET.get("q") or "").strip()[:100]
    rows = []
    for card in document.get("cards", []):
        code = card.get("code", "")
        status = "added" if code in changes["added"] else "changed" if code in changes["changed"] else ""
        row = _card_row(system, card, status)
        if query and query.lower() not in " ".join([code, row["names"]["main"], row["names"].get("other", "")]).lower():
            continue
        rows.append(row)
    removed = [_card_row(system, card, "removed") for card in (published or {}).get("cards", [])
               if card.get("code") in changes["removed"]]
    versions = list(package_versions(system, slug)[:1])
    next_number = (versions[0].number + 1) if versions else 1
    return render(request, "data/draft.html", {
        "game": game, "system": system, "system_name": presenters.system_name(system), "slug": slug,
        "title": document.get("title", slug), "draft": draft, "rows": rows, "removed": removed, "query": query,
        "changes": {key: len(value) for key, value in changes.items()}, "next_number": next_number,
        "kinds": _kinds(system), "kind_key": presenters.presentation(system).category_field,
        "kind_word": presenters.category_word(system),
        "version_label": timezone.localdate().strftime("%Y.%m.%d"),
        "history": [_history_row(change) for change in drafts.history(system, slug)],
        "proposals": list(drafts.proposals_open(system, slug)),
    })


def _history_row(change) -> dict[str, Any]:
    words = {
        "card_added": _("added the card"), "card_changed": _("changed the card"),
        "card_removed": _("removed the card"), "published": _("published version %(n)s")
        % {"n": change.version_number}, "discarded": _("discarded the draft"),
        "proposed": _("proposed a correction to"), "accepted": _("accepted a correction to"),
        "rejected": _("rejected a correction to"),
    }
    fields = []
    if change.action == "card_changed" and isinstance(change.before, dict) and isinstance(change.after, dict):
        fields = [vocabulary.card_field(key) for key in fields_changed(change.before, change.after)]
    card = change.after if isinstance(change.after, dict) and change.after.get("code") else change.before
    return {"at": change.at, "user": change.user.username if change.user else _("a removed account"),
            "what": words.get(change.action, change.action), "code": change.code,
            "names": presenters.names(card, change.code) if isinstance(card, dict) and change.code else None,
            "fields": fields}


# --- one card's form -------------------------------------------------------------------------------------------


def _preview(system: str, card: dict) -> dict[str, Any]:
    """What the catalog's card page shows of this card (the game's card body template, `body_template`)."""
    if not (card.get("category") or card.get("kind")):
        return {"ok": False}  # a new card before its kind is chosen
    body_template = presenters.presentation(system).card_body_template
    cat = presenters.catalog(system)
    name_of = lambda code: presenters.names(cat.cards.get(code), code)["main"]  # noqa: E731
    try:
        text = cardtext.describe(system, card, name_of, page=True)
        return {"data": card, "names": presenters.names(card, card.get("code") or "?"), "text": text,
                "weapons": cardtext.weapon_rows(system, card), "stats": cardtext.stat_rows(system, card),
                "rules_text": cardtext.rules_text(card), "not_modelled": cardtext.not_modelled(card), "ok": True,
                "body_template": body_template}
    except Exception:  # noqa: BLE001 - a half-typed card the words cannot describe yet: no preview, the checks say why
        return {"ok": False}


def _card_form(request: HttpRequest, *, system: str, document: dict, original: dict, replacing: str | None,
               template: str, context: dict[str, Any], save: Callable[[dict], HttpResponse]) -> HttpResponse:
    """Draw, check, redraw or save one card's form (the editor's and a proposal's)."""
    problems: dict[str, list[str]] = {}
    raw: dict[str, str] = {}
    card = original
    checked = False
    status = 200
    if request.method == "POST":
        if len(request.POST) > MAX_FORM_FIELDS:
            return forbidden_page(request, _("The form sent too many fields."))
        parsed = cardform.parse(system, request.POST, original)
        card, problems, raw = parsed.card, parsed.errors, parsed.raw
        action = request.POST.get("action", "save")
        if action.startswith(("add:", "remove:")):
            card = cardform.apply_action(card, action)
            problems = {}
        elif action in ("check", "save"):
            checked = True
            for path, message in drafts.card_problems(document, card, replacing=replacing):
                problems.setdefault(path, []).append(message)
            if action == "save" and not problems:
                try:
                    return save(card)
                except drafts.CardInvalid as error:
                    for path, message in error.problems:
                        problems.setdefault(path, []).append(message)
                except drafts.DraftRefused as error:
                    problems.setdefault("", []).append(str(error))
            if action == "save":
                status = 422
        else:  # redraw: another kind was chosen
            problems = {}
    tree = cardform.build(system, card, errors=problems, raw=raw)
    values = {
        **context, "system": system, "system_name": presenters.system_name(system), "tree": tree, "card": card,
        "preview": _preview(system, card), "checked": checked, "problem_count": _count(tree),
        "problems": _problem_list(tree), "nodes": _nodes(tree),
    }
    if request.method == "POST" and request.POST.get("action") == "check" and is_htmx(request):
        return render(request, "data/_card_check.html", values)
    return render(request, template, values, status=status)


def _nodes(node: cardform.Node) -> list[cardform.Node]:
    """Every node: the live check replaces each one's problems in place (htmx out-of-band swaps)."""
    found = [node]
    for child in node.children:
        found += _nodes(child)
    return found


def _count(node: cardform.Node) -> int:
    return len(node.errors) + sum(_count(child) for child in node.children)


def _problem_list(node: cardform.Node) -> list[dict[str, Any]]:
    """Every problem, with the input it is on (the summary above the form links to each one)."""
    found = [{"id": node.id, "label": cardform.path_words(node.path) if node.path else _("Card"), "message": message}
             for message in node.errors]
    for child in node.children:
        found += _problem_list(child)
    return found


def _new_card(system: str, request: HttpRequest) -> dict[str, Any]:
    kind_key = presenters.presentation(system).category_field
    kind = (request.GET.get(kind_key) or "").strip()
    return {kind_key: kind} if kind else {}


@editor_page
@require_http_methods(["GET", "HEAD", "POST"])
def draft_card(request: HttpRequest, system: str, slug: str, code: str | None = None) -> HttpResponse:
    """A card of the draft: new (no code) or an existing one."""
    system_or_404(system)
    document = _package_or_404(system, slug)
    if code is None:
        original = _new_card(system, request)
    else:
        original = next((card for card in document.get("cards", []) if card.get("code") == code), None)
        if original is None:
            raise Http404(f"No card {code!r} in the draft of {slug}.")

    def save(card: dict) -> HttpResponse:
        drafts.draft_card_save(system, slug, card, user=request.user, replacing=code)
        messages.success(request, _("%(card)s is in the draft. Publish the draft to put it in the catalogue.")
                         % {"card": presenters.names(card, card["code"])["main"]})
        return redirect("draft_detail", system, slug)

    return _card_form(request, system=system, document=document, original=original, replacing=code,
                      template="data/card_form.html", save=save, context={
                          "mode": "edit" if code else "new", "slug": slug, "code": code,
                          "title": document.get("title", slug),
                          "kinds": _kinds(system), "kind_key": presenters.presentation(system).category_field})


def _kinds(system: str) -> list[tuple[str, str]]:
    spec = cardform.schema(system)["$defs"]["card"]["properties"][presenters.presentation(system).category_field]
    return [(value, vocabulary.label(system, "category", value)) for value in spec.get("enum", [])]


@editor_page
@require_POST
def draft_card_remove(request: HttpRequest, system: str, slug: str, code: str) -> HttpResponse:
    system_or_404(system)
    _package_or_404(system, slug)
    try:
        drafts.draft_card_remove(system, slug, code, user=request.user)
    except drafts.DraftRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(code)s is out of the draft.") % {"code": code})
    return redirect("draft_detail", system, slug)


@editor_page
@require_POST
def draft_publish(request: HttpRequest, system: str, slug: str) -> HttpResponse:
    system_or_404(system)
    _package_or_404(system, slug)
    try:
        published = drafts.draft_publish(system, slug, user=request.user, version=request.POST.get("version", ""))
    except drafts.DraftRefused as error:
        messages.error(request, str(error))
        return redirect("draft_detail", system, slug)
    except PackageError as error:
        messages.error(request, _("The draft was not published: %(problems)s") % {"problems": "; ".join(error.errors)})
        return redirect("draft_detail", system, slug)
    messages.success(request, _("Version %(n)s (%(label)s) is published: %(added)s added, %(changed)s changed, "
                                "%(removed)s removed. Lists that use a changed card say so.")
                     % {"n": published.number, "label": published.version, "added": published.added,
                        "changed": published.changed, "removed": published.removed})
    return redirect("package_detail", system, slug)


@editor_page
@require_POST
def draft_discard(request: HttpRequest, system: str, slug: str) -> HttpResponse:
    system_or_404(system)
    try:
        drafts.draft_discard(system, slug, user=request.user)
    except drafts.DraftRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The draft is discarded; the package is as published."))
    return redirect("draft_detail", system, slug)


# --- proposed corrections --------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def card_propose(request: HttpRequest, system: str, code: str) -> HttpResponse:
    """A signed-in user proposes a correction to a published card: the same form, checked the same way, with a
    note for the editors."""
    system_or_404(system)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    slug = drafts.card_package(system, code)
    document = package_document(system, slug) if slug else None
    original = next((card for card in (document or {}).get("cards", []) if card.get("code") == code), None)
    if original is None:
        raise Http404(f"No card {code!r} in {system}.")
    note = (request.POST.get("note") or "")[:drafts.MAX_NOTE] if request.method == "POST" else ""

    def save(card: dict) -> HttpResponse:
        drafts.proposal_create(system, code, card, user=request.user, note=note)
        messages.success(request, _("Thank you: your correction is with the data editors."))
        return redirect("card_detail", system, code)

    return _card_form(request, system=system, document=document, original=original, replacing=code,
                      template="data/propose.html", save=save, context={
                          "mode": "propose", "slug": slug, "code": code, "note": note,
                          "names": presenters.names(original, code)})


@editor_page
@require_http_methods(["GET", "HEAD"])
def proposal_list(request: HttpRequest) -> HttpResponse:
    return render(request, "data/proposals.html", {
        "open": [_proposal_row(proposal) for proposal in drafts.proposals_open()[:100]],
        "decided": [_proposal_row(proposal) for proposal in drafts.proposals_decided()],
    })


def _proposal_row(proposal) -> dict[str, Any]:
    fields = [vocabulary.card_field(key) for key in fields_changed(proposal.before, proposal.data)]
    return {"proposal": proposal, "system_name": presenters.system_name(proposal.system.slug),
            "names": presenters.names(proposal.data, proposal.code), "fields": fields,
            "by": proposal.proposed_by.username if proposal.proposed_by else _("a removed account")}


@editor_page
@require_http_methods(["GET", "HEAD", "POST"])
def proposal_detail(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = drafts.proposal_get(pk)
    if proposal is None:
        raise Http404(f"No proposal {pk}.")
    system = proposal.system.slug
    if request.method == "POST":
        decision = request.POST.get("decision")
        reply = request.POST.get("reply", "")
        try:
            if decision == "accept":
                drafts.proposal_accept(proposal, user=request.user, reply=reply)
                messages.success(request, _("Accepted: the card is in the draft of %(package)s. Publish the draft "
                                            "to put it in the catalogue.") % {"package": proposal.slug})
                return redirect("draft_detail", system, proposal.slug)
            if decision == "reject":
                drafts.proposal_reject(proposal, user=request.user, reply=reply)
                messages.success(request, _("Rejected; the proposer sees your reply."))
                return redirect("proposal_list")
            messages.error(request, _("Choose accept or reject."))
        except drafts.DraftRefused as error:
            messages.error(request, str(error))
        except drafts.CardInvalid as error:
            messages.error(request, _("The card does not fit the draft any more: %(problems)s")
                           % {"problems": "; ".join(f"{cardform.path_words(path)}: {message}" if path else message
                                                   for path, message in error.problems)})
    row = _proposal_row(proposal)
    return render(request, "data/proposal.html", {
        **row, "system": system, "before": _preview(system, proposal.before), "after": _preview(system, proposal.data),
        "field_rows": [{"label": vocabulary.card_field(key), "before": _shown(proposal.before.get(key)),
                        "after": _shown(proposal.data.get(key))}
                       for key in fields_changed(proposal.before, proposal.data)],
    })


def _shown(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value).replace("x", "×") if isinstance(value, str) and value[:1].isdigit() else str(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return _("changed: the cards below show it")
