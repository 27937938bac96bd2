"""The server-rendered web UI: pages in builder.web.pages / lists / simulations, routes in builder.urls."""
