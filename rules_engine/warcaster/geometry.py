"""Table geometry for the Warcaster reference engine: round bases on a flat square table, inches.

Distances between models are measured base edge to base edge (`gap`), so "within 2″" means the bases are at
most 2″ apart. Movement is simple: straight towards a point, stopping short of overlapping another base and
inside the table edges (there is no terrain, so no path finding).
"""
from __future__ import annotations

import math
from collections.abc import Iterable

Point = tuple[float, float]
Disc = tuple[float, float, float]  # x, y, radius

STEP_BACK = 0.25  # inches given up at a time when a move would end overlapping another base


def norm(dx: float, dy: float) -> float:
    """The length of (dx, dy). Every distance of the engine is this one formula (not `math.hypot`, whose Python
    call costs more than the arithmetic once compiled), so the compiled and pure-Python engines agree bit for bit."""
    return math.sqrt(dx * dx + dy * dy)


def dist(ax: float, ay: float, bx: float, by: float) -> float:
    return norm(ax - bx, ay - by)


def gap(a: Disc, b: Disc) -> float:
    """Edge-to-edge distance between two bases (0 when they touch or overlap)."""
    return max(0.0, norm(a[0] - b[0], a[1] - b[1]) - a[2] - b[2])


def overlaps(x: float, y: float, r: float, others: Iterable[Disc]) -> bool:
    for ox, oy, orad in others:  # a plain loop: this runs for every step of every move and placement
        dx, dy = x - ox, y - oy
        if math.sqrt(dx * dx + dy * dy) < r + orad - 1e-9:
            return True
    return False


def clamp(x: float, y: float, r: float, size: float) -> Point:
    return min(max(x, r), size - r), min(max(y, r), size - r)


def move_towards(me: Disc, dest: Point, distance: float, stop_at: float, others: list[Disc], size: float) -> Point:
    """Where a base at `me` ends moving up to `distance` towards `dest`, stopping once its centre is `stop_at`
    from `dest`, never overlapping `others`, never off the table. Returns the final centre (rounded to 0.01″)."""
    x, y, r = me
    dx, dy = dest[0] - x, dest[1] - y
    length = norm(dx, dy)
    travel = min(distance, length - stop_at)
    if travel <= 0 or length == 0:
        return x, y
    ux, uy = dx / length, dy / length
    while travel > 0:
        nx, ny = clamp(x + ux * travel, y + uy * travel, r, size)
        nx, ny = round(nx, 2), round(ny, 2)
        if not overlaps(nx, ny, r, others):
            return nx, ny
        travel -= STEP_BACK
    return x, y


def segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from point P to the segment AB."""
    vx, vy = bx - ax, by - ay
    length2 = vx * vx + vy * vy
    if length2 == 0:
        return norm(px - ax, py - ay)
    t = max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / length2))
    return norm(px - (ax + t * vx), py - (ay + t * vy))


def extend(ax: float, ay: float, bx: float, by: float, length: float) -> Point:
    """The point `length` inches from A in the direction of B (B itself when A == B)."""
    d = norm(bx - ax, by - ay)
    if d == 0:
        return bx, by
    return ax + (bx - ax) / d * length, ay + (by - ay) / d * length


def free_spot(cx: float, cy: float, r: float, within: float, others: list[Disc], size: float,
              facing: Point) -> Point | None:
    """A free centre for a base of radius `r` within `within` of (cx, cy), preferring the side towards `facing`."""
    key = (cx, cy, r, within, size, facing)
    spots = _SPOTS.get(key)
    if spots is None:
        if len(_SPOTS) >= 4096:  # gates and set-up spots are few; a bound all the same
            _SPOTS.clear()
        spots = _SPOTS[key] = _spots(cx, cy, r, within, size, facing)
    for x, y in spots:
        if not overlaps(x, y, r, others):
            return x, y
    return None


_SPOTS: dict[tuple[float, float, float, float, float, Point], tuple[Point, ...]] = {}


def _spots(cx: float, cy: float, r: float, within: float, size: float, facing: Point) -> tuple[Point, ...]:
    """The centres `free_spot` tries, in order: 3 rings of 12, fanning out from the direction of `facing`. Gates
    and set-up spots are few, so these are worked out once each (`_SPOTS`)."""
    base = math.atan2(facing[1] - cy, facing[0] - cx)
    spots = []
    for ring in (within * 0.5, within, within * 0.25):
        for k in range(12):
            angle = base + (k + 1) // 2 * (1 if k % 2 else -1) * math.pi / 6
            x, y = clamp(cx + ring * math.cos(angle), cy + ring * math.sin(angle), r, size)
            spots.append((round(x, 2), round(y, 2)))
    return tuple(spots)
