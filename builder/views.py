from django.shortcuts import render

from cards.models import GameSystem


def home(request):
    return render(request, "home.html", {"systems": GameSystem.objects.all()})
