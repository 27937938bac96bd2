from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from .api_docs import ApiDocsView
from .ping import PingView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/ping/", PingView.as_view(), name="api-ping"),
    path("api/", include("cards.api.urls")),
    path("api/", include("builder.api.urls")),
    path("", include("builder.urls")),
]

handler404 = "builder.api.errors.not_found"  # JSON under /api/, the site's 404 page elsewhere
