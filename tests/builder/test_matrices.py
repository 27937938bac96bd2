"""Matchup matrices and "what beats my list" (builder.services.matrices): every cell is the plain run of that list
against that opponent with the same seed (reused when stored, played otherwise), another player's private list never
enters a field or "what beats my list", the size is bounded with a 400. No worker process: the cells' chunks are
played by direct calls (tests.support.simulations.play_all)."""
from __future__ import annotations

import json

import pytest

from builder import selectors, services
from builder.errors import ListPermissionDenied, SimulationInvalid
from builder.models import MatrixKind, RunKind, RunStatus, SimulationRun
from builder.services import matrices
from tests.support.simulations import hagmi_catalog, play_all, published  # noqa: F401

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db

SEED = 11
GAMES = 8


def same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def play_cells(matrix) -> None:
    for cell in selectors.matrix_cells(matrix):
        if cell.run.is_active:
            play_all(cell.run)


@pytest.fixture
def mine(owner, hagmi_catalog):
    return services.list_create(owner=owner, document=hagmi_doc(), visibility="private")


@pytest.fixture
def second(owner, hagmi_catalog):
    return services.list_create(owner=owner, document=hagmi_doc(name="Heavy", weapons=24, tactics=16),
                                visibility="private")


@pytest.fixture
def rival(other, hagmi_catalog):
    return services.list_create(owner=other, document=hagmi_doc(name="Rival", weapons=22, tactics=18),
                                visibility="public")


@pytest.fixture
def hidden(other, hagmi_catalog):
    return services.list_create(owner=other, document=hagmi_doc(name="Hidden", weapons=26, tactics=14),
                                visibility="private")


def test_a_matrix_cell_is_the_plain_run_of_that_list_against_that_opponent_with_the_same_seed(
        owner, other, mine, second, rival, published):
    matrix = services.matrices.matrix_start(
        user=owner, lists=[mine.slug, second.slug], games=GAMES, seed=SEED,
        opponents=[{"opponent": "goldfish", "weight": 3}, {"list": rival.slug, "weight": 1}])
    cells = selectors.matrix_cells(matrix)
    assert [(cell.row, cell.column) for cell in cells] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(cell.run.kind == RunKind.SIMULATION and not cell.reused for cell in cells)
    assert selectors.matrix_result(matrix, owner)["status"] == RunStatus.QUEUED
    play_cells(matrix)
    result = selectors.matrix_result(matrix, owner)
    assert result["status"] == RunStatus.DONE and result["progress"] == 100
    # each cell, played by the matrix, equals a plain run of that list and opponent that another player starts
    # from the list's document with the same seed, played on its own (a different owner: nothing is shared)
    for game_list, row in ((mine, 0), (second, 1)):
        plain = services.simulation_start(user=other, document=selectors.list_document(game_list),
                                          opponent_slug="goldfish", games=GAMES, seed=SEED)
        assert plain.reused_from_id is not None  # the stored cell answers it: the very same question
        fresh = SimulationRun.objects.create(
            owner=other, system=plain.system, snapshot=plain.snapshot, snapshot_hash=plain.snapshot_hash,
            opponent=plain.opponent, policy=plain.policy, games=GAMES, seed=SEED, engine_version=plain.engine_version,
            chunks_total=plain.chunks_total, chunk_size=plain.chunk_size)
        play_all(fresh)
        fresh.refresh_from_db()
        assert fresh.status == RunStatus.DONE
        cell = cells[row * 2]
        cell.run.refresh_from_db()
        assert same(cell.run.result, fresh.result)
        assert result["cells"][row][0]["win_rate"] == fresh.result["win_rate"]
        assert result["cells"][row][0]["win_rate_interval"] == fresh.result["win_rate_interval"]
    # the weighted total of a row: goldfish counts 3 to the rival's 1
    first = result["cells"][0]
    expected = 0.75 * first[0]["wins"] / GAMES + 0.25 * first[1]["wins"] / GAMES
    assert result["rows"][0]["total"]["win_rate"] == pytest.approx(expected, abs=1e-6)


def test_a_plain_run_already_stored_answers_its_cell_and_a_repeated_matrix_plays_nothing(
        owner, mine, rival, published):
    plain = services.simulation_start(user=owner, game_list=mine, opponent_slug="goldfish", games=GAMES, seed=SEED)
    play_all(plain)
    matrix = services.matrices.matrix_start(user=owner, lists=[mine.slug], games=GAMES, seed=SEED,
                                            opponents=[{"opponent": "goldfish"}, {"list": rival.slug}])
    cells = selectors.matrix_cells(matrix)
    assert cells[0].run.pk == plain.pk and cells[0].reused and not cells[1].reused
    play_cells(matrix)
    sent = len(published)
    again = services.matrices.matrix_start(user=owner, lists=[mine.slug], games=GAMES, seed=SEED,
                                           opponents=[{"opponent": "goldfish"}, {"list": rival.slug}])
    result = selectors.matrix_result(again, owner)
    assert result["cells_reused"] == result["cells_total"] == 2 and result["status"] == RunStatus.DONE
    assert len(published) == sent  # not one chunk published


def test_another_players_private_list_never_enters_a_field(owner, mine, hidden, published):
    with pytest.raises(SimulationInvalid) as info:
        services.matrices.matrix_start(user=owner, lists=[mine.slug], games=GAMES, seed=SEED,
                                       opponents=[{"opponent": "goldfish"}, {"list": hidden.slug}])
    assert info.value.details["path"] == "opponents[1].list"
    with pytest.raises(SimulationInvalid) as info:  # nor as a row: the rows are the user's own lists
        services.matrices.matrix_start(user=owner, lists=[mine.slug, hidden.slug], games=GAMES, seed=SEED,
                                       opponents=[{"opponent": "goldfish"}])
    assert info.value.details["path"] == "lists[1]"
    assert not SimulationRun.objects.exists()


def test_what_beats_my_list_plays_the_samples_and_public_lists_never_a_private_one(
        owner, other, mine, rival, hidden, published):
    services.list_create(owner=owner, document=hagmi_doc(name="My public", weapons=24, tactics=16),
                         visibility="public")
    unlisted = services.list_create(owner=other, document=hagmi_doc(name="Unlisted", weapons=22, tactics=18),
                                    visibility="unlisted")
    matrix = services.matrices.beats_start(user=owner, game_list=mine, games=GAMES, seed=SEED)
    assert matrix.kind == MatrixKind.BEATS and len(matrix.rows) == 1
    keys = [column["key"] for column in matrix.columns]
    assert keys[0] == "goldfish" and f"list:{rival.slug}" in keys
    assert f"list:{hidden.slug}" not in keys and f"list:{unlisted.slug}" not in keys
    assert f"list:{mine.slug}" not in keys and len(keys) == 3  # goldfish, the rival, my other public list
    with pytest.raises(ListPermissionDenied):  # only the owner asks what beats a list
        services.matrices.beats_start(user=other, game_list=mine, games=GAMES, seed=SEED)


def test_a_loss_of_a_cell_is_found_for_its_replay(owner, mine, rival, published):
    matrix = services.matrices.matrix_start(user=owner, lists=[mine.slug], games=GAMES, seed=SEED,
                                            opponents=[{"list": rival.slug}])
    play_cells(matrix)
    (cell,) = selectors.matrix_cells(matrix)
    cell.run.refresh_from_db()
    index = selectors.matrix_loss_game(cell.run)
    if cell.run.result["losses"]:
        from rules_engine.replay import replay_events

        assert index is not None
        assert replay_events(cell.run.snapshot, SEED, index)["record"]["outcome"] == "loss"
    else:
        assert index is None


def test_the_size_of_a_matrix_is_bounded_with_a_400_saying_the_product(owner, mine, second, settings, published):
    settings.HANGAR_MAX_GAMES = 100
    with pytest.raises(SimulationInvalid) as info:
        services.matrices.matrix_start(user=owner, lists=[mine.slug, second.slug], games=60, seed=SEED,
                                       opponents=[{"opponent": "goldfish"}])
    assert info.value.status == 400 and info.value.code == "matrix.too_large"
    assert "2 lists × 1 opponents × 60 games is 120 games, more than the 100" in str(info.value)
    assert info.value.details["path"] == "games" and info.value.details["most_per_cell"] == 50
    with pytest.raises(SimulationInvalid) as info:
        services.matrices.matrix_start(user=owner, lists=[mine.slug] * 9, games=1, seed=SEED,
                                       opponents=[{"opponent": "goldfish"}])
    assert info.value.details["path"] == "lists"
    assert not SimulationRun.objects.exists()


@pytest.fixture
def league(owner, hagmi_catalog):
    """The owner's public field holding the owner's own private list: it plays for the owner, never for another."""
    secret = services.list_create(owner=owner, document=hagmi_doc(name="Secret plan", weapons=26, tactics=14),
                                  visibility="private")
    field = services.field_create(owner=owner, system="hagmi", name="Spring league", visibility="public", entries=[
        {"opponent": "goldfish", "weight": 2}, {"list": secret.slug, "weight": 1}])
    return field, secret


def test_a_named_field_gives_the_matrix_its_columns_with_their_weights(owner, mine, second, league, published):
    field, secret = league
    matrix = services.matrices.matrix_start(user=owner, lists=[mine.slug, second.slug], games=GAMES, seed=SEED,
                                            opponents=[{"field": field.slug}])
    assert [(column["key"], column["weight"]) for column in matrix.columns] == [
        ("goldfish", 2.0), (f"list:{secret.slug}", 1.0)]
    assert len(selectors.matrix_cells(matrix)) == 4


def test_a_private_list_never_enters_another_players_matrix_through_a_field(other, league, published):
    field, secret = league
    theirs = services.list_create(owner=other, document=hagmi_doc(name="Theirs"), visibility="private")
    matrix = services.matrices.matrix_start(user=other, lists=[theirs.slug], games=GAMES, seed=SEED,
                                            opponents=[{"field": field.slug}])
    assert [column["key"] for column in matrix.columns] == ["goldfish"]
    beats = services.matrices.beats_start(user=other, game_list=theirs, games=GAMES, seed=SEED, field=field.slug)
    assert [column["key"] for column in beats.columns] == ["goldfish"]
    assert not SimulationRun.objects.filter(opponent__contains=secret.slug).exists()


def test_what_beats_my_list_can_be_asked_against_a_named_field(owner, mine, rival, league, published):
    field, secret = league
    matrix = services.matrices.beats_start(user=owner, game_list=mine, games=GAMES, seed=SEED, field=field.slug)
    assert matrix.kind == MatrixKind.BEATS and matrix.left_out == 0
    keys = [column["key"] for column in matrix.columns]
    assert keys == ["goldfish", f"list:{secret.slug}"]  # the field's entries, not every public list (the rival)
    with pytest.raises(SimulationInvalid) as info:
        services.matrices.beats_start(user=owner, game_list=mine, games=GAMES, seed=SEED, field="nosuchfield")
    assert info.value.code == "simulation.field" and info.value.details["path"] == "opponents[0].field"


def test_a_field_past_the_matrix_size_is_refused_whole(owner, mine, league, settings, published):
    field, _secret = league
    settings.HANGAR_MAX_GAMES = 10
    with pytest.raises(SimulationInvalid) as info:
        services.matrices.beats_start(user=owner, game_list=mine, games=6, seed=SEED, field=field.slug)
    assert info.value.code == "matrix.too_large" and info.value.details["most_per_cell"] == 5
    assert not SimulationRun.objects.exists()


def test_cancelling_a_matrix_cancels_only_the_cells_no_other_question_waits_for(owner, mine, second, rival, settings,
                                                                              published):
    """Two matrices of the player share a cell (the same question: one run); another cell answers a simulation the
    player started on its own. Cancelling the first matrix cancels its own cells, keeps the shared one playing for
    the second matrix and the simulation's run for the simulation; cancelling the second then cancels the shared
    cell, the last matrix waiting for it. Nothing another question waits for is lost."""
    settings.HANGAR_MAX_CONCURRENT_RUNS = 10  # three questions at once: a simulation and two matrices
    alone = services.simulation_start(user=owner, game_list=mine, opponent_slug="goldfish", games=GAMES, seed=SEED)
    first = services.matrices.matrix_start(user=owner, lists=[mine.slug, second.slug], games=GAMES, seed=SEED,
                                           opponents=[{"opponent": "goldfish"}, {"list": rival.slug}])
    later = services.matrices.matrix_start(user=owner, lists=[mine.slug], games=GAMES, seed=SEED,
                                           opponents=[{"list": rival.slug}])
    reused, shared, own_goldfish, own_rival = (cell.run for cell in selectors.matrix_cells(first))
    assert reused.pk == alone.pk and selectors.matrix_cells(later)[0].run.pk == shared.pk

    cancelled = matrices.matrix_cancel(matrix=first, user=owner)
    assert cancelled.kept_playing == 2 and cancelled.cancelled_at is not None
    statuses = [SimulationRun.objects.get(pk=run.pk).status for run in (reused, shared, own_goldfish, own_rival)]
    assert statuses == [RunStatus.QUEUED, RunStatus.QUEUED, RunStatus.CANCELLED, RunStatus.CANCELLED]

    assert matrices.matrix_cancel(matrix=later, user=owner).kept_playing == 0
    assert SimulationRun.objects.get(pk=shared.pk).status == RunStatus.CANCELLED
    assert SimulationRun.objects.get(pk=alone.pk).status == RunStatus.QUEUED
