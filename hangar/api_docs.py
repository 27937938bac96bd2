"""The API documentation page (/api/docs/): drf-spectacular's Swagger UI, served from drf-spectacular-sidecar's
static files, under the site's Content-Security-Policy (docs/security.md).

Swagger UI is started by an inline script (drf-spectacular's swagger_ui.js, which carries the settings, the schema
URL and the CSRF token). That script gets this response's nonce, and only this page's policy allows it:
`script-src 'self' 'nonce-...'`. Swagger UI's stylesheet draws its icons as `data:` SVG images, so this page also
allows `img-src data:`. Its few page styles are a static file, so `style-src` stays `'self'`.
"""
from csp.constants import NONCE
from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerView

# The exception this page adds to the site's policy (settings.CONTENT_SECURITY_POLICY), and nothing more.
API_DOCS_CSP_UPDATE = {"script-src": [NONCE], "img-src": ["data:"]}


class ApiDocsView(SpectacularSwaggerView):
    template_name = "api_docs.html"  # drf-spectacular's swagger_ui.html, with the nonce and no inline <style>

    @extend_schema(exclude=True)
    @method_decorator(csp_update(API_DOCS_CSP_UPDATE))
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
