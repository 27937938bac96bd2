"""Forms of the web pages: they check the shape of what a browser sends; the services decide everything else."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from builder.models import Visibility
from builder.web import vocabulary
from cards.selectors import CARD_ORDERINGS, CardQuery
from rules_engine.simulation import MAX_GAMES

VISIBILITY_CHOICES = [
    (Visibility.PRIVATE, _("Private: only you")),
    (Visibility.UNLISTED, _("Unlisted: anyone with the link")),
    (Visibility.PUBLIC, _("Public: listed in the gallery")),
]
FIELD_VISIBILITY_CHOICES = VISIBILITY_CHOICES[:2] + [
    (Visibility.PUBLIC, _("Public: listed with the public fields")),
]
# How your side plays, per game (rules_engine/<game>/simulation.py policy_aliases, and "random"); the view names
# them with builder.web.vocabulary's "policy" words of that game.
POLICY_CHOICES = {
    "hagmi": ("greedy", "search", "random"),
    "mwda": ("greedy", "defensive", "search", "random"),
    "warcaster": ("greedy", "search", "random"),
}
# The catalog's and the picker's orders, in the words of builder/web/vocabulary.py ("sort").
ORDERING_CHOICES = [(key, vocabulary.LABELS[("*", "sort")].get(key) or vocabulary.humanise(key))
                    for key in [*CARD_ORDERINGS, *(f"-{key}" for key in CARD_ORDERINGS)]]


class SignupForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("Email (optional)"), required=False)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(label=_("Password again"),
                                     widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password_again") and data["password"] != data["password_again"]:
            self.add_error("password_again", _("The two passwords differ."))
        return data


class NewListForm(forms.Form):
    name = forms.CharField(label=_("List name"), max_length=200, required=False)
    format = forms.ChoiceField(label=_("Format"), choices=[])
    visibility = forms.ChoiceField(label=_("Who can see it"), choices=VISIBILITY_CHOICES, initial=Visibility.PRIVATE)

    def __init__(self, *args, formats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = [(fmt.slug, fmt.label) for fmt in formats]


class EditorForm(forms.Form):
    """The editor: the draft document (hidden), the version it was loaded at, and the list's own fields."""

    document = forms.CharField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    name = forms.CharField(label=_("List name"), max_length=200, required=False)
    format = forms.ChoiceField(label=_("Format"), choices=[], required=False)
    visibility = forms.ChoiceField(label=_("Who can see it"), choices=VISIBILITY_CHOICES)
    notes = forms.CharField(label=_("Notes"), required=False, max_length=20_000,
                            widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, formats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = [("", _("(none)"))] + [(fmt.slug, fmt.label) for fmt in formats]


class ImportForm(forms.Form):
    text = forms.CharField(label=_("Paste a list (text format)"), required=False,
                           widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}))
    file = forms.FileField(label=_("…or upload a .txt, .json, .ros or .rosz file"), required=False)
    system = forms.ChoiceField(label=_("Game (for a text list without a 'System:' line)"), required=False, choices=[])
    name = forms.CharField(label=_("List name (optional)"), max_length=200, required=False)
    visibility = forms.ChoiceField(label=_("Who can see it"), choices=VISIBILITY_CHOICES, initial=Visibility.PRIVATE)

    def __init__(self, *args, systems=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = [("", _("(from the list)"))] + [(slug, name) for slug, name in systems]

    def clean(self):
        data = super().clean()
        if bool(data.get("text", "").strip()) == bool(data.get("file")):
            raise forms.ValidationError(_("Paste a list or choose a file (one of the two)."))
        return data


SAME_POLICY = ""  # the opponent_policy choice "as your side plays"
# What choosing the search policy costs (docs/benchmarks.md "Search policy": 80-330 decisions a second against
# greedy's 37 000-82 000), said under both sides' policy fields.
SEARCH_COST = _("Search plays much better than greedy, but each game takes about a hundred times as long "
                "(a co-op game against the beasts, seconds): start with fewer games.")


def seat_choices() -> list[tuple[str, str]]:
    """Who goes first (rules_engine.core.seats), in words."""
    return [("both", _("Both seats (fair)")),
            ("list-first", _("You always go first")),
            ("random", _("A coin toss each game"))]


SEATS_HELP = _("Going first is worth a lot; with both seats the list plays every deal once going first and once "
               "going second, so its win rate is not the seat's luck. The result shows both. Against the beasts "
               "(co-op) or a target that takes no turns the order is fixed.")


def seats_field() -> forms.ChoiceField:
    return forms.ChoiceField(label=_("Who goes first"), choices=seat_choices(), initial="both", required=False,
                             help_text=SEATS_HELP)


class SimulationForm(forms.Form):
    opponent = forms.ChoiceField(label=_("Opponent"), choices=[])
    policy = forms.ChoiceField(label=_("How your side plays"), choices=[], initial="greedy", help_text=SEARCH_COST)
    opponent_policy = forms.ChoiceField(label=_("How the opponent plays (a deck, army or force)"), choices=[],
                                        required=False, initial=SAME_POLICY)
    seats = seats_field()
    games = forms.IntegerField(label=_("Games"), min_value=1, initial=500)
    seed = forms.IntegerField(label=_("Seed (same seed, same result)"), min_value=0, max_value=2**63 - 1, initial=1)

    def __init__(self, *args, opponents=(), policies=(), **kwargs):
        """`opponents` and `policies`: (value, words) pairs, the default first (a real sample opponent, not the
        target practice)."""
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = choices = list(opponents)
        self.fields["opponent"].initial = choices[0][0] if choices else None
        self.fields["policy"].choices = list(policies) or [("greedy", "greedy")]
        self.fields["opponent_policy"].choices = [(SAME_POLICY, _("The same way as your side"))] + list(policies)
        limit = min(settings.HANGAR_MAX_GAMES, MAX_GAMES)
        self.fields["games"].max_value = limit
        self.fields["games"].validators.append(MaxValueValidator(limit))
        self.fields["games"].widget.attrs["max"] = limit


def event_field(events) -> forms.ChoiceField:
    """The choice of an event's field: the events whose lists the reader may play (web/eventfield.py)."""
    return forms.ChoiceField(
        label=_("An event's field (the lists its players brought)"), required=False,
        choices=[("", _("No event"))] + list(events),
        error_messages={"invalid_choice": _("This event is not offered: its lists are not shown to you yet, or no "
                                            "list was submitted to it.")},
        help_text=_("Each list the event's players submitted, weighted by how many players brought it, together "
                    "with the field and the opponents chosen here."))


class AnotherListForm(forms.Form):
    """A form of weighted opponents with one more list given by its link or id (`another_list`, `another_weight`):
    the gauntlet's and the doctor's (BatchForm) and a field's (FieldForm)."""

    def clean_another_list(self) -> str:
        return list_id_from_link(self.cleaned_data.get("another_list") or "")

    def clean(self):
        data = super().clean()
        another = data.get("another_list")
        if another and data.get("another_weight") is None:
            data["another_weight"] = 1  # a list given without a weight counts once
        offered = f"list-{another}"
        if another and offered in self.fields:  # pasted although it is offered above: one opponent, one weight
            if (data.get(offered) or 0) > 0:
                self.add_error("another_list", _("That list is already above with a weight: give it one weight."))
            else:
                data[offered], data["another_list"] = data["another_weight"], ""
        return data

    def weighted(self) -> list[dict]:
        """Every sample opponent and list given a weight above 0, as the services take them: {"opponent": slug,
        "weight": w} or {"list": id, "weight": w}, the list given by its link last."""
        chosen = []
        for name in self.opponent_fields:
            weight = self.cleaned_data.get(name) or 0
            if weight > 0:
                field = self.fields[name]
                chosen.append({"opponent": field.slug, "weight": weight} if hasattr(field, "slug")
                              else {"list": field.list_id, "weight": weight})
        another, weight = self.cleaned_data.get("another_list"), self.cleaned_data.get("another_weight") or 0
        if another and weight > 0:
            chosen.append({"list": another, "weight": weight})
        return chosen


class BatchForm(AnotherListForm):
    """A gauntlet or a list doctor: a weight for every sample opponent, every other list of yours and the
    newest gallery lists (0: left out), any other gallery list by its link or ID with its weight, the games, the seed
    and both sides' policies; the doctor also takes how many changes to try."""

    MAX_WEIGHT = 100

    def __init__(self, *args, opponents=(), lists=(), gallery=(), policies=(), doctor: bool = False, fields=(),
                 impact: bool = False, events=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.opponent_fields: list[str] = []
        self.opponent_groups: list[tuple[str, list[str]]] = []
        self.fields["field"] = forms.ChoiceField(
            label=_("A field (a named set of opponents)"), required=False,
            choices=[("", _("No field: only the opponents below"))] + list(fields),
            help_text=_("Its opponents are played with their weights, together with any opponent below that has a "
                        "weight above 0."))
        if events or self.data.get("event"):  # an event's field (docs/events.md): when the reader may play one
            self.fields["event"] = event_field(events)
        has_field = bool(self.initial.get("field") or self.initial.get("event"))
        groups = ((_("Sample opponents"), [(f"opponent-{slug}", words, {"slug": slug}) for slug, words in opponents]),
                  (_("Your other lists"), [(f"list-{slug}", words, {"list_id": slug}) for slug, words in lists]),
                  (_("Gallery lists"), [(f"list-{slug}", words, {"list_id": slug}) for slug, words in gallery]))
        for legend, rows in groups:
            names = []
            for name, words, about in rows:  # the first sample opponent weighs 1, every other one 0
                self.fields[name] = forms.IntegerField(label=words, min_value=0, max_value=self.MAX_WEIGHT,
                                                       initial=1 if not self.opponent_fields and not has_field
                                                       else 0, required=False)  # left out of the POST: weight 0
                for key, value in about.items():
                    setattr(self.fields[name], key, value)
                self.fields[name].widget.attrs.update({"class": "weight", "inputmode": "numeric"})
                self.opponent_fields.append(name)
                names.append(name)
            if names:
                self.opponent_groups.append((legend, names))
        self.fields["another_list"] = forms.CharField(
            label=_("Another gallery list: its link or ID"), required=False, max_length=300,
            widget=forms.TextInput(attrs={"placeholder": "https://…/lists/…/", "autocomplete": "off"}))
        self.fields["another_weight"] = forms.IntegerField(
            label=_("Its weight"), min_value=0, max_value=self.MAX_WEIGHT, required=False,
            widget=forms.NumberInput(attrs={"class": "weight", "inputmode": "numeric"}))
        self.pick_fields = ["another_list", "another_weight"]
        self.fields["policy"] = forms.ChoiceField(label=_("How your side plays"), choices=list(policies),
                                                  initial="greedy", help_text=SEARCH_COST)
        self.fields["opponent_policy"] = forms.ChoiceField(
            label=_("How the opponent plays (a deck, army or force)"), required=False, initial=SAME_POLICY,
            choices=[(SAME_POLICY, _("The same way as your side"))] + list(policies))
        self.fields["seats"] = seats_field()
        limit = min(settings.HANGAR_MAX_GAMES, MAX_GAMES)
        self.fields["games"] = forms.IntegerField(
            label=_("Games in all (every change, opponent and stage)") if doctor else _("Games per opponent"),
            min_value=1, max_value=limit, initial=6000 if doctor else 500,
            help_text=_("At least (changes + 1) × 100 + 600 games per opponent: 100 games per list to screen, 300 "
                        "per list to confirm.") if doctor else "")
        if impact:  # "test every card": a budget like the doctor's, its changes are the list's cards
            self.fields["games"] = forms.IntegerField(
                label=_("Games in all (every card, opponent and stage)"), min_value=1, max_value=limit,
                initial=min(limit, 10_000),
                help_text=_("At least (distinct cards + 1) × 100 + 600 games per opponent: 100 games per list to "
                            "screen, 300 per list to confirm. More games find smaller effects."))
        if doctor:
            self.fields["changes"] = forms.IntegerField(label=_("Changes to try"), min_value=1, max_value=60,
                                                        initial=30)
        self.fields["seed"] = forms.IntegerField(label=_("Seed (same seed, same result)"), min_value=0,
                                                 max_value=2**63 - 1, initial=1)

    def clean(self):
        data = super().clean()
        another = data.get("another_list")
        if not any((data.get(name) or 0) > 0 for name in self.opponent_fields) \
                and not (another and (data.get("another_weight") or 0) > 0) and not data.get("field") \
                and not data.get("event"):
            raise forms.ValidationError(_("Give at least one opponent a weight above 0."))
        return data

    def chosen_opponents(self) -> list[dict]:
        """The opponents with a weight above 0, as the services take them (the list given by link, then the field
        chosen, last)."""
        chosen = self.weighted()
        if self.cleaned_data.get("field"):
            chosen.append({"field": self.cleaned_data["field"]})
        if self.cleaned_data.get("event"):
            chosen.append({"event": self.cleaned_data["event"]})
        return chosen


class FieldForm(AnotherListForm):
    """A field: its name, description and who can see it, and a weight for every sample opponent, every list of
    yours, the newest gallery lists and the lists already in it (0 or empty: not in the field), with one more list
    by its link or ID."""

    MAX_WEIGHT = 1_000_000

    def __init__(self, *args, opponents=(), lists=(), gallery=(), current=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"] = forms.CharField(label=_("Field name"), max_length=100)
        self.fields["description"] = forms.CharField(
            label=_("Description"), required=False, max_length=2_000, widget=forms.Textarea(attrs={"rows": 3}))
        self.fields["visibility"] = forms.ChoiceField(label=_("Who can see it"), choices=FIELD_VISIBILITY_CHOICES,
                                                      initial=Visibility.PRIVATE)
        self.opponent_fields: list[str] = []
        self.opponent_groups: list[tuple[str, list[str]]] = []
        groups = ((_("Sample opponents"), [(f"opponent-{slug}", words, {"slug": slug}) for slug, words in opponents]),
                  (_("Lists already in this field"), [(f"list-{slug}", words, {"list_id": slug})
                                                      for slug, words in current]),
                  (_("Your lists"), [(f"list-{slug}", words, {"list_id": slug}) for slug, words in lists]),
                  (_("Gallery lists"), [(f"list-{slug}", words, {"list_id": slug}) for slug, words in gallery]))
        for legend, rows in groups:
            names = []
            for name, words, about in rows:
                if name in self.fields:  # a list already in the field is offered once, in its first group
                    continue
                self.fields[name] = forms.FloatField(label=words, min_value=0, max_value=self.MAX_WEIGHT,
                                                     required=False)
                for key, value in about.items():
                    setattr(self.fields[name], key, value)
                self.fields[name].widget.attrs.update({"class": "weight", "inputmode": "decimal", "step": "any"})
                self.opponent_fields.append(name)
                names.append(name)
            if names:
                self.opponent_groups.append((legend, names))
        self.fields["another_list"] = forms.CharField(
            label=_("Another list: its link or ID"), required=False, max_length=300,
            widget=forms.TextInput(attrs={"placeholder": "https://…/lists/…/", "autocomplete": "off"}))
        self.fields["another_weight"] = forms.FloatField(
            label=_("Its weight"), min_value=0, max_value=self.MAX_WEIGHT, required=False,
            widget=forms.NumberInput(attrs={"class": "weight", "inputmode": "decimal", "step": "any"}))
        self.pick_fields = ["another_list", "another_weight"]


    def entries(self) -> list[dict]:
        """The entries with a weight above 0, as builder.services.fields takes them (the list given by link last)."""
        return self.weighted()


def list_id_from_link(value: str) -> str:
    """A list's ID from its ID or its whole link (…/lists/<id>/…), as a player pastes it."""
    value = value.strip().rstrip("/")
    if "/lists/" in value:
        value = value.split("/lists/", 1)[1].split("/", 1)[0]
    return value.split("?", 1)[0].split("#", 1)[0]


def submission_id_from_link(value: str) -> str:
    """An event submission's ID from its ID or its sheet's link (…/submissions/<id>/…)."""
    value = value.strip().rstrip("/")
    if "/submissions/" in value:
        value = value.split("/submissions/", 1)[1].split("/", 1)[0]
    return value.split("?", 1)[0].split("#", 1)[0]


class VerifyForm(forms.Form):
    """A list's sheet (its list ID and a `-r<revision>` code) or an event's sheet (its submission ID and a
    `-e<number>` code): the code says which."""

    list = forms.CharField(label=_("List or submission link or ID (from the sheet)"), max_length=300)
    code = forms.CharField(label=_("Verification code"), max_length=40)

    def clean_list(self) -> str:
        """Accept the ID or the whole link (…/lists/<id>/… or …/submissions/<id>/…)."""
        value = self.cleaned_data["list"]
        if "/submissions/" in value:
            return submission_id_from_link(value)
        return list_id_from_link(value)


class SheetForm(forms.Form):
    """The tournament sheet's player and event: printed on the sheet, never part of the list (docs/web.md)."""

    player = forms.CharField(label=_("Player name"), max_length=100, required=False,
                             widget=forms.TextInput(attrs={"autocomplete": "name"}))
    event = forms.CharField(label=_("Event"), max_length=150, required=False)

    def clean(self):
        data = super().clean()
        for key in ("player", "event"):  # one printed line each: no line breaks or other control characters
            data[key] = " ".join("".join(ch if ch.isprintable() else " " for ch in data.get(key) or "").split())
        return data


class CatalogFilterForm(forms.Form):
    q = forms.CharField(label=_("Search name or code"), required=False, max_length=100)
    category = forms.ChoiceField(label=_("Category"), required=False, choices=[])
    faction = forms.ChoiceField(label=_("Faction"), required=False, choices=[])
    frame = forms.ChoiceField(label=_("Frame"), required=False, choices=[])
    cost_min = forms.IntegerField(label=_("Cost from"), required=False, min_value=0)
    cost_max = forms.IntegerField(label=_("Cost to"), required=False, min_value=0)
    ordering = forms.ChoiceField(label=_("Order by"), required=False, choices=ORDERING_CHOICES, initial="code")

    def __init__(self, *args, categories=(), factions=(), frames=(), **kwargs):
        """Each choice list is [(value, label)] (or bare values, shown as they are); a filter with no values in this
        system's cards (frames outside HAGMI, factions in HAGMI) is left out rather than offering only "(any)"."""
        super().__init__(*args, **kwargs)
        anything = [("", _("(any)"))]
        for name, values in (("category", categories), ("faction", factions), ("frame", frames)):
            choices = [value if isinstance(value, tuple) else (value, value) for value in values]
            if choices:
                self.fields[name].choices = anything + choices
            else:
                del self.fields[name]

    def canonical_query(self) -> dict[str, str]:
        """The filters that apply, as the address bar shows them: the valid, non-empty fields in form order."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {name: str(data[name]) for name in self.fields
                if data.get(name) not in (None, "", self.fields[name].initial)}

    def query(self, system: str) -> CardQuery:
        """The search the fields ask for. A field with a bad value (a negative cost) is left out, the others
        still apply (its error is shown beside it)."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return CardQuery(
            system=system,
            q=data.get("q") or "",
            category=data.get("category") or None,
            faction=data.get("faction") or None,
            frame=data.get("frame") or None,
            cost_min=data.get("cost_min"),
            cost_max=data.get("cost_max"),
            ordering=data.get("ordering") or "code",
        )


# --- the staff data import page (builder/web/dataimport.py) ------------------------------------------------------


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented recipe): the cleaned value is a list of uploaded files."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".gst,.gstz,.cat,.catz,.zip"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)) and data:
            return [single(item, initial) for item in data]
        return [single(data, initial)] if data else single(None, initial)


MAX_UPLOAD_FILES = 50


class BattleScribeUploadForm(forms.Form):
    files = MultipleFileField(label=_("BattleScribe files (.gst, .gstz, .cat, .catz or one .zip)"))

    def clean_files(self):
        files = self.cleaned_data["files"]
        if len(files) > MAX_UPLOAD_FILES:
            raise forms.ValidationError(_("Upload at most %(count)d files at a time.") % {"count": MAX_UPLOAD_FILES})
        return files


class SheetUploadForm(forms.Form):
    system = forms.ChoiceField(label=_("Game"), choices=[])
    package = forms.SlugField(label=_("Package slug (a new slug makes a new package)"), max_length=100)
    file = forms.FileField(label=_("A spreadsheet file (.csv, .tsv or .xlsx)"), required=False,
                           widget=forms.ClearableFileInput(attrs={"accept": ".csv,.tsv,.txt,.xlsx"}))
    text = forms.CharField(label=_("…or paste the rows from a spreadsheet (the header row first)"), required=False,
                           strip=False, widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))

    def __init__(self, *args, systems=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = list(systems)

    def clean(self):
        data = super().clean()
        if bool((data.get("text") or "").strip()) == bool(data.get("file")):
            raise forms.ValidationError(_("Choose a file or paste the rows (one of the two)."))
        return data
