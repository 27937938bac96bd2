"""Forms of the players' side of tournament events (builder/web/events.py): they check the shape of what a browser
sends, in the reader's language; builder.services.events decides everything else (its refusals are put next to
the field they name)."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from builder.models import ListsShown, Registration
from builder.services.events import MAX_DISPLAY_NAME, MAX_NAME, MAX_PLACE, MAX_PLAYERS

DATETIME_LOCAL = "%Y-%m-%dT%H:%M"
DEFAULT_FORMAT = ""  # the format choice "the game's default format"

REGISTRATION_CHOICES = [
    (Registration.OPEN, _("Open: anyone signed in may join; the event is listed on the events page")),
    (Registration.CODE, _("Join code: only players with the code (or its link) may see and join it")),
]
LISTS_SHOWN_CHOICES = [
    (ListsShown.OPEN, _("At once: every list is shown to the players as soon as it is submitted")),
    (ListsShown.AT_PUBLISH, _("At the publish time (or when you publish them), once the lists are locked")),
    (ListsShown.ORGANISER, _("Never: only you (the organiser) see the lists")),
]


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format=DATETIME_LOCAL)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format="%Y-%m-%d")


def time_zone_note() -> str:
    return str(_("Times are in the site's time zone, %(zone)s.") % {"zone": settings.TIME_ZONE})


class EventForm(forms.Form):
    """An event's fields: the game (only when it is made), its format, name, date, place, player cap,
    registration, list deadline, and when the lists are shown."""

    system = forms.ChoiceField(label=_("Game"), choices=[])
    format = forms.ChoiceField(label=_("Format"), choices=[], required=False)
    name = forms.CharField(label=_("Event name"), max_length=MAX_NAME)
    date = forms.DateField(label=_("Date"), widget=DateInput(), input_formats=["%Y-%m-%d"])
    place = forms.CharField(label=_("Place (optional)"), max_length=MAX_PLACE, required=False)
    player_cap = forms.IntegerField(label=_("Player cap (empty: no cap)"), min_value=2, max_value=MAX_PLAYERS,
                                    required=False)
    registration = forms.ChoiceField(label=_("Registration"), choices=REGISTRATION_CHOICES,
                                     initial=Registration.OPEN, widget=forms.RadioSelect)
    deadline = forms.DateTimeField(label=_("List deadline"), widget=DateTimeLocalInput(),
                                   input_formats=[DATETIME_LOCAL, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"])
    lists_shown = forms.ChoiceField(label=_("When the players see each other's lists"), choices=LISTS_SHOWN_CHOICES,
                                    initial=ListsShown.AT_PUBLISH, widget=forms.RadioSelect)
    publish_at = forms.DateTimeField(label=_("Publish time (at the publish time only; empty: when you publish)"),
                                     widget=DateTimeLocalInput(), required=False,
                                     input_formats=[DATETIME_LOCAL, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"])

    def __init__(self, *args, systems=(), formats=(), editing: bool = False, **kwargs):
        """`systems`: [(slug, name)]; `formats`: [(game name, [(slug, label)])] (one group per game)."""
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = list(systems)
        self.fields["format"].choices = [(DEFAULT_FORMAT, _("The game's default format"))] + [
            (group, list(options)) for group, options in formats]
        zone = time_zone_note()
        self.fields["deadline"].help_text = zone
        self.fields["publish_at"].help_text = zone
        if editing:  # an event's game cannot change
            self.fields["system"].disabled = True
            self.fields["system"].required = False


class JoinForm(forms.Form):
    display_name = forms.CharField(label=_("Your name as the event shows it (empty: your username)"),
                                   max_length=MAX_DISPLAY_NAME, required=False)
    code = forms.CharField(label=_("Join code"), max_length=32, required=False)


SUBMIT_WAYS = ("list", "text", "file")


class SubmitForm(forms.Form):
    """One of three ways (`way`): one of my lists of the event's game, a pasted text list, or a file."""

    way = forms.ChoiceField(choices=[(way, way) for way in SUBMIT_WAYS], widget=forms.HiddenInput)
    list = forms.ChoiceField(label=_("One of your lists of this game"), choices=[], required=False)
    text = forms.CharField(label=_("Paste a list (text format)"), required=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))
    file = forms.FileField(label=_("A .ros, .rosz, .txt or .json file"), required=False)

    def __init__(self, *args, lists=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["list"].choices = list(lists)

    def clean(self):
        data = super().clean()
        way = data.get("way")
        if way is None:
            raise forms.ValidationError(_("Choose how to submit: one of your lists, a text list or a file."))
        if way == "list" and not data.get("list"):
            self.add_error("list", _("Choose one of your lists."))
        elif way == "text" and not (data.get("text") or "").strip():
            self.add_error("text", _("Paste a list first."))
        elif way == "file" and not data.get("file"):
            self.add_error("file", _("Choose a file first."))
        return data

