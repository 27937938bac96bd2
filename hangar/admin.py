"""The Django admin site (the operators' tool, docs/deployment.md), with its sign-in inside the budget of failed
sign-ins per client address that the site and the API share (scope `login`, docs/security.md)."""
from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig


class HangarAdminSite(admin.AdminSite):
    site_header = "Hangar administration"
    site_title = "Hangar admin"

    def login(self, request, extra_context=None):
        if request.method != "POST":
            return super().login(request, extra_context)
        from builder.web.pages import login_with_budget  # the web views import models: not at app loading

        return login_with_budget(request, lambda req: super(HangarAdminSite, self).login(req, extra_context))


class HangarAdminConfig(AdminConfig):
    """INSTALLED_APPS uses this instead of "django.contrib.admin": `admin.site` is then a HangarAdminSite."""

    default_site = "hangar.admin.HangarAdminSite"
