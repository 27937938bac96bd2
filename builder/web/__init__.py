"""The server-rendered web UI (issue 5): pages in builder.web.pages / lists / simulations, routes in builder.urls."""
