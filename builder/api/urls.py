"""Lists API routes (mounted under /api/ by hangar/urls.py). See docs/api.md."""
from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("lists", views.ListViewSet, basename="lists")

urlpatterns = [
    path("validate/", views.ValidateView.as_view(), name="api-validate"),
    path("auth/signup/", views.SignupView.as_view(), name="api-signup"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("auth/login/", views.LoginView.as_view(), name="api-login"),
    path("auth/logout/", views.LogoutView.as_view(), name="api-logout"),
    path("auth/me/", views.MeView.as_view(), name="api-me"),
    *router.urls,
]
