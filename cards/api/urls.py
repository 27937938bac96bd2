from django.urls import path

from . import views

urlpatterns = [
    path("systems/", views.SystemListView.as_view(), name="api-systems"),
    path("systems/<slug:slug>/", views.SystemDetailView.as_view(), name="api-system"),
    path("systems/<slug:slug>/formats/", views.SystemFormatsView.as_view(), name="api-system-formats"),
    path("systems/<slug:slug>/opponents/", views.SystemOpponentsView.as_view(), name="api-system-opponents"),
    path("packages/", views.PackageListView.as_view(), name="api-packages"),
    path("packages/<slug:system>/<slug:slug>/versions/", views.PackageVersionListView.as_view(),
         name="api-package-versions"),
    path("packages/<slug:system>/<slug:slug>/versions/<int:number>/", views.PackageVersionDetailView.as_view(),
         name="api-package-version"),
    path("packages/<slug:system>/<slug:slug>/diff/", views.PackageDiffView.as_view(), name="api-package-diff"),
    path("cards/", views.CardListView.as_view(), name="api-cards"),
    path("cards/<slug:system>/<str:code>/", views.CardDetailView.as_view(), name="api-card"),
]
