"""Web UI routes (mounted at / by hangar/urls.py). `list_detail` (kwarg `slug`) is the API's share_url."""
from django.contrib.auth import views as auth_views
from django.urls import include, path

from builder.web import (
    analysis, batches, cardeditor, dataimport, datasources, listeditor, listimport, lists, listsheet, matrices, pages,
    replays, simulations,
)

urlpatterns = [
    path("", pages.home, name="home"),
    path("favicon.ico", pages.favicon, name="favicon"),  # what browsers ask for first; pages link the SVG too
    path("i18n/", include("django.conf.urls.i18n")),  # set_language (POST) for the language switcher
    path("accounts/signup/", pages.signup, name="signup"),
    path("accounts/login/", pages.LoginPage.as_view(), name="login"),  # failed sign-ins throttled
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("catalog/<slug:system>/", pages.catalog, name="catalog"),
    path("catalog/<slug:system>/packages/<slug:slug>/", pages.package_detail, name="package_detail"),
    path("catalog/<slug:system>/packages/<slug:slug>/battlescribe.zip", pages.package_battlescribe,
         name="package_battlescribe"),
    path("catalog/<slug:system>/<str:code>/", pages.card_detail, name="card_detail"),
    path("catalog/<slug:system>/<str:code>/odds/", pages.card_odds, name="card_odds"),
    path("catalog/<slug:system>/<str:code>/propose/", cardeditor.card_propose, name="card_propose"),
    path("rules/<slug:system>/", pages.rules, name="rules"),
    path("data/import/", dataimport.data_import, name="data_import"),  # staff: BattleScribe data, spreadsheets
    path("data/import/confirm/", dataimport.data_import_confirm, name="data_import_confirm"),
    # data sources that update (builder/web/datasources.py): staff only, checked in a Celery task
    path("data/sources/", datasources.source_register, name="data_source_register"),
    path("data/sources/<int:pk>/", datasources.source_detail, name="data_source"),
    path("data/sources/<int:pk>/check/", datasources.source_check, name="data_source_check"),
    path("data/sources/<int:pk>/import/", datasources.source_import, name="data_source_import"),
    # the card editor: data editors only
    path("data/", cardeditor.data_home, name="data_home"),
    path("data/proposals/", cardeditor.proposal_list, name="proposal_list"),
    path("data/proposals/<int:pk>/", cardeditor.proposal_detail, name="proposal_detail"),
    path("data/<slug:system>/<slug:slug>/", cardeditor.draft_detail, name="draft_detail"),
    path("data/<slug:system>/<slug:slug>/cards/new/", cardeditor.draft_card, name="draft_card_new"),
    path("data/<slug:system>/<slug:slug>/cards/<str:code>/", cardeditor.draft_card, name="draft_card"),
    path("data/<slug:system>/<slug:slug>/cards/<str:code>/remove/", cardeditor.draft_card_remove,
         name="draft_card_remove"),
    path("data/<slug:system>/<slug:slug>/publish/", cardeditor.draft_publish, name="draft_publish"),
    path("data/<slug:system>/<slug:slug>/discard/", cardeditor.draft_discard, name="draft_discard"),
    path("verify/", listsheet.verify, name="verify"),
    path("analysis/", analysis.analysis, name="analysis"),
    path("lists/", lists.my_lists, name="my_lists"),
    path("lists/gallery/", lists.gallery, name="gallery"),
    path("lists/new/", lists.new_list, name="list_new"),
    path("lists/import/", listimport.list_import, name="list_import"),
    path("lists/samples/<slug:system>/<slug:key>/copy/", lists.sample_fork, name="sample_fork"),
    path("lists/<str:slug>/", lists.list_detail, name="list_detail"),
    path("lists/<str:slug>/edit/", listeditor.list_edit, name="list_edit"),
    path("lists/<str:slug>/edit/cards/", listeditor.list_picker, name="list_picker"),
    path("lists/<str:slug>/fork/", lists.list_fork, name="list_fork"),
    path("lists/<str:slug>/delete/", lists.list_delete, name="list_delete"),
    path("lists/<str:slug>/restore/", lists.list_restore, name="list_restore"),
    path("lists/<str:slug>/unlist/", lists.list_unlist, name="list_unlist"),
    path("lists/<str:slug>/history/", lists.list_history, name="list_history"),
    path("lists/<str:slug>/sheet/", listsheet.list_sheet, name="list_sheet"),
    path("lists/<str:slug>/simulate/", simulations.simulation_new, name="simulation_new"),
    path("lists/<str:slug>/gauntlet/", batches.gauntlet_new, name="gauntlet_new"),
    path("lists/<str:slug>/doctor/", batches.doctor_new, name="doctor_new"),
    path("lists/<str:slug>/beats/", matrices.beats_new, name="beats_new"),
    path("matrices/", matrices.matrix_new, name="matrix_new"),
    path("matrices/<str:public_id>/", matrices.matrix_detail, name="matrix_detail"),
    path("matrices/<str:public_id>/progress/", matrices.matrix_progress, name="matrix_progress"),
    path("matrices/<str:public_id>/cancel/", matrices.matrix_cancel, name="matrix_cancel"),
    path("simulations/", simulations.simulation_list, name="simulation_list"),
    path("simulations/compare/", simulations.simulation_compare, name="simulation_compare"),
    path("simulations/<str:public_id>/", simulations.simulation_detail, name="simulation_detail"),
    path("simulations/<str:public_id>/progress/", simulations.simulation_progress, name="simulation_progress"),
    path("simulations/<str:public_id>/apply/", batches.doctor_apply, name="doctor_apply"),
    path("simulations/<str:public_id>/games/<int:index>/", replays.replay, name="replay"),
    path("simulations/<str:public_id>/games/<int:index>/position/", analysis.replay_position, name="replay_position"),
    path("simulations/<str:public_id>/games/<int:index>/from-here/", analysis.replay_from_here,
         name="replay_from_here"),
]
