"""The web views live in builder.web (pages, lists, simulations); this module keeps the old import path."""
from builder.web.pages import home  # noqa: F401
