"""The table geometry: paths around bases and terrain (M13), line of fire (M15), range bands, deployment."""
import random

import pytest

from rules_engine.mwda import geometry as geo
from rules_engine.mwda.game import deployment
from rules_engine.mwda.units import Weapon

R = geo.BASE_RADIUS["standard"]
WALL = geo.Layout("wall", (geo.Rect(geo.BLOCKING, 10.0, 10.0, 12.0, 14.0),))
POND = geo.Layout("pond", (geo.Circle(geo.IMPASSABLE, 18.0, 18.0, 2.0),))
WOOD = geo.Layout("wood", (geo.Circle(geo.HINDERING, 18.0, 18.0, 2.0),))


def test_straight_path_when_nothing_is_in_the_way():
    path = geo.find_path((5.0, 5.0), (5.0, 12.0), R, 10, geo.Layout("open", ()), [])
    assert path == [(5.0, 5.0), (5.0, 12.0)]


def test_path_detours_around_a_base_and_stays_within_the_allowance():
    """M13: a path may not cross another unit's base; a detour around it is found when the move allows."""
    blocker = [(5.0, 8.5, R)]
    path = geo.find_path((5.0, 5.0), (5.0, 12.0), R, 10, geo.Layout("open", ()), blocker)
    assert path is not None and len(path) == 3
    assert geo.path_length(path) <= 10
    for a, b in zip(path, path[1:]):
        assert geo.segment_clear(*a, *b, R, geo.Layout("open", ()), blocker)
    # with only the straight-line distance to spend, the detour does not fit
    assert geo.find_path((5.0, 5.0), (5.0, 12.0), R, 7.0, geo.Layout("open", ()), blocker) is None


def test_a_unit_passes_between_two_bases_not_in_contact_but_not_between_touching_ones():
    """M13: 台座接触していなければ、２つのユニットの間をすり抜けていくことはできます."""
    apart = [(4.3, 8.0, R), (5.7, 8.0, R)]  # 1.4″ apart: a 0.15″ gap, narrower than the mover
    touching = [(4.375, 8.0, R), (5.625, 8.0, R)]  # exactly in base contact
    open_table = geo.Layout("open", ())
    assert geo.segment_clear(5.0, 5.0, 5.0, 11.0, R, open_table, apart)
    assert not geo.segment_clear(5.0, 5.0, 5.0, 11.0, R, open_table, touching)


def test_a_move_never_ends_overlapping_a_base_or_blocking_terrain_or_off_the_table():
    assert not geo.end_position_ok(5.0, 5.0, R, geo.Layout("open", ()), [(5.5, 5.5, R)])
    assert geo.end_position_ok(5.0, 5.0, R, geo.Layout("open", ()), [(6.25, 5.0, R)])  # touching is fine
    assert not geo.end_position_ok(11.0, 12.0, R, WALL, [])
    assert not geo.end_position_ok(0.3, 12.0, R, WALL, [])


def test_paths_do_not_cross_impassable_terrain_but_jumpers_fly_over_it():
    straight = geo.segment_clear(18.0, 14.0, 18.0, 22.0, R, POND, [])
    assert not straight
    path = geo.find_path((18.0, 14.0), (18.0, 22.0), R, 8.5, POND, [])
    assert path is None  # the detour around a 4″ pond does not fit 8.5″
    assert geo.find_path((18.0, 14.0), (18.0, 22.0), R, 12, POND, []) is not None
    assert geo.find_path((18.0, 14.0), (18.0, 22.0), R, 8.5, POND, [], free=True) == [(18.0, 14.0), (18.0, 22.0)]


def test_line_of_fire_is_blocked_by_blocking_terrain_and_bases_not_by_impassable_or_hindering():
    """M15: blocking terrain blocks; hindering only hinders; impassable (water) does not block fire."""
    assert not geo.line_of_fire(8.0, 12.0, 14.0, 12.0, WALL)
    assert geo.line_of_fire(8.0, 16.0, 14.0, 16.0, WALL)
    assert geo.line_of_fire(14.0, 18.0, 22.0, 18.0, POND)
    assert geo.line_of_fire(14.0, 18.0, 22.0, 18.0, WOOD)
    assert geo.hindered(14.0, 18.0, 22.0, 18.0, WOOD)
    assert not geo.hindered(14.0, 25.0, 22.0, 25.0, WOOD)
    assert not geo.line_of_fire(0.0, 0.0, 10.0, 0.0, geo.Layout("open", ()), [(5.0, 0.2, R)])


def test_range_bands_are_measured_between_bases():
    """M15: [min, max] inches edge to edge; a non-zero min range excludes targets that close."""
    # centres 11.25″ apart → 10″ between two standard bases
    distance = geo.edge_distance(0.0, 0.0, R, 11.25, 0.0, R)
    assert distance == pytest.approx(10.0)
    assert Weapon(0, 10, False).in_range(distance)
    assert not Weapon(0, 9, False).in_range(distance)
    artillery = Weapon(4, 14, False)
    assert not artillery.in_range(3.0) and not artillery.in_range(4.0)
    assert artillery.in_range(4.5) and artillery.in_range(14.0) and not artillery.in_range(14.5)
    assert Weapon(0, 6, False).in_range(0.0)  # base contact is range 0


def test_deployment_zones_are_within_8_inches_of_each_edge_without_overlap():
    for count in (1, 5, 12, 20):
        for player in (0, 1):
            points = deployment(count, player, random.Random(count))
            assert len(points) == count
            for i, (x, y) in enumerate(points):
                assert geo.in_deployment_zone(y, 1.0, player) and geo.inside_table(x, y, 1.0)
                for ox, oy in points[i + 1:]:
                    assert geo.edge_distance(x, y, 1.0, ox, oy, 1.0) > 0


def test_every_layout_keeps_terrain_out_of_the_deployment_zones():
    for layout in geo.LAYOUTS:
        for shape in layout.shapes:
            for y in (geo.DEPLOY_DEPTH, geo.TABLE - geo.DEPLOY_DEPTH):
                assert shape.distance_to_segment(0.0, y, geo.TABLE, y) > 0, (layout.name, shape)
