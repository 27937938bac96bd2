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

# JSON under /api/ (every error of the API is JSON, DisallowedHost and crashes included), the site's pages elsewhere
handler400 = "builder.api.errors.bad_request"
handler403 = "builder.api.errors.forbidden"
handler404 = "builder.api.errors.not_found"
handler500 = "builder.api.errors.server_error"
