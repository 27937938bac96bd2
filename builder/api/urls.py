"""Lists API routes (mounted under /api/ by hangar/urls.py). See docs/api.md."""
from django.urls import path
from rest_framework.routers import SimpleRouter

from . import events, fields, health, matrices, odds, positions, simulations, views

router = SimpleRouter()
router.register("lists", views.ListViewSet, basename="lists")
router.register("simulations", simulations.SimulationViewSet, basename="simulations")
router.register("fields", fields.FieldViewSet, basename="fields")
router.register("matrices", matrices.MatrixViewSet, basename="matrices")
router.register("events", events.EventViewSet, basename="events")

urlpatterns = [
    path("validate/", views.ValidateView.as_view(), name="api-validate"),
    path("auth/signup/", views.SignupView.as_view(), name="api-signup"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("auth/login/", views.LoginView.as_view(), name="api-login"),
    path("auth/logout/", views.LogoutView.as_view(), name="api-logout"),
    path("auth/me/", views.MeView.as_view(), name="api-me"),
    path("health/", health.HealthView.as_view(), name="api-health"),
    path("odds/", odds.OddsView.as_view(), name="api-odds"),
    path("positions/", positions.PositionView.as_view(), name="api-positions"),
    path("gauntlets/", simulations.GauntletView.as_view(), name="api-gauntlets"),
    path("doctor/", simulations.DoctorView.as_view(), name="api-doctor"),
    path("impact/", simulations.ImpactView.as_view(), name="api-impact"),
    path("beats/", matrices.BeatsView.as_view(), name="api-beats"),
    *router.urls,
]
