"""The MechWarrior: Dark Age table: a 36″×36″ square, terrain shapes, round bases, paths and line of fire.

Coordinates are inches, (0, 0) is player 0's left corner; player 0 deploys along y = 0, player 1 along y = 36.
Everything is measured between bases (RULES.md M13, M15): the *edge distance* of two units is the distance of
their centres minus both radii. Bases touch ("base contact") when that distance is at most CONTACT.

Terrain kinds (interpretations, stated in docs/engine-mwda.md):

- `blocking` (buildings): blocks line of fire and movement;
- `hindering` (woods): a line of fire that crosses it, or a target standing in it, gives the target +1 defense
  (option `hindering_defense`); movement through it is normal;
- `impassable` (deep water, chasms): blocks movement, not line of fire.

Movement (M13): the path traced by a base's centre may not cross an impassable/blocking shape grown by the
base's radius, nor any other unit's base; it may pass between two bases that are not in base contact (the gap
may be narrower than the mover: a base only blocks the line its centre draws). A move never ends overlapping a
base, terrain that stops movement, or the table's edge. Paths are a straight line, else a detour
through one or two waypoints offset to either side.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Final, Sequence

TABLE: Final = 36.0
DEPLOY_DEPTH: Final = 8.0  # deployment zones: within 8″ of the player's own edge
BASE_RADIUS = {"standard": 0.625, "large": 1.0}  # standard base 1.25″ across; large (interpretation) 2″
EPS: Final = 1e-6
CONTACT: Final = 0.02  # bases closer than this (edge to edge) are in base contact

BLOCKING, HINDERING, IMPASSABLE = "blocking", "hindering", "impassable"
TERRAIN_KINDS = (BLOCKING, HINDERING, IMPASSABLE)

Point = tuple[float, float]


def seg_point_distance(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Distance from point p to the segment a–b."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 <= 0.0:
        return math.hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / length2
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle of terrain."""

    kind: str
    x0: float
    y0: float
    x1: float
    y1: float

    def distance_to_point(self, px: float, py: float) -> float:
        dx = max(max(self.x0 - px, 0.0), px - self.x1)  # two-argument max: a native float max once compiled
        dy = max(max(self.y0 - py, 0.0), py - self.y1)
        return math.hypot(dx, dy)

    def _clips(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """Liang–Barsky: does the segment a–b meet the rectangle?"""
        t0, t1 = 0.0, 1.0
        dx, dy = bx - ax, by - ay
        for p, q in ((-dx, ax - self.x0), (dx, self.x1 - ax), (-dy, ay - self.y0), (dy, self.y1 - ay)):
            if p == 0.0:
                if q < 0.0:
                    return False
                continue
            r = q / p
            if p < 0.0:
                if r > t1:
                    return False
                t0 = max(t0, r)
            else:
                if r < t0:
                    return False
                t1 = min(t1, r)
        return True

    def distance_to_segment(self, ax: float, ay: float, bx: float, by: float) -> float:
        if self._clips(ax, ay, bx, by):
            return 0.0
        corners = ((self.x0, self.y0), (self.x0, self.y1), (self.x1, self.y0), (self.x1, self.y1))
        return min(
            self.distance_to_point(ax, ay),
            self.distance_to_point(bx, by),
            *(seg_point_distance(ax, ay, bx, by, cx, cy) for cx, cy in corners),
        )

    def near_segment(self, ax: float, ay: float, bx: float, by: float, margin: float) -> bool:
        """Does the segment come closer than `margin` (margin 0: touch or cross)? Bounding boxes first."""
        if (ax < self.x0 - margin and bx < self.x0 - margin) or (ax > self.x1 + margin and bx > self.x1 + margin):
            return False
        if (ay < self.y0 - margin and by < self.y0 - margin) or (ay > self.y1 + margin and by > self.y1 + margin):
            return False
        if margin <= 0.0:
            return self._clips(ax, ay, bx, by)
        return self.distance_to_segment(ax, ay, bx, by) < margin

    def centre(self) -> Point:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def to_dict(self) -> dict:
        return {"shape": "rect", "kind": self.kind, "x0": self.x0, "y0": self.y0, "x1": self.x1, "y1": self.y1}


@dataclass(frozen=True, slots=True)
class Circle:
    """A round patch of terrain."""

    kind: str
    cx: float
    cy: float
    r: float

    def distance_to_point(self, px: float, py: float) -> float:
        return max(0.0, math.hypot(px - self.cx, py - self.cy) - self.r)

    def distance_to_segment(self, ax: float, ay: float, bx: float, by: float) -> float:
        return max(0.0, seg_point_distance(ax, ay, bx, by, self.cx, self.cy) - self.r)

    def near_segment(self, ax: float, ay: float, bx: float, by: float, margin: float) -> bool:
        """Does the segment come closer than `margin` (margin 0: touch or cross)?"""
        reach = self.r + margin
        if (ax < self.cx - reach and bx < self.cx - reach) or (ax > self.cx + reach and bx > self.cx + reach):
            return False
        if (ay < self.cy - reach and by < self.cy - reach) or (ay > self.cy + reach and by > self.cy + reach):
            return False
        gap = seg_point_distance(ax, ay, bx, by, self.cx, self.cy) - self.r
        return gap <= 0.0 if margin <= 0.0 else gap < margin

    def centre(self) -> Point:
        return self.cx, self.cy

    def to_dict(self) -> dict:
        return {"shape": "circle", "kind": self.kind, "cx": self.cx, "cy": self.cy, "r": self.r}


Shape = Rect | Circle


@dataclass(frozen=True, slots=True)
class Layout:
    """A named terrain layout; shapes stay out of both deployment zones."""

    name: str
    shapes: tuple[Shape, ...]
    stops_movement: tuple[Shape, ...] = field(init=False, repr=False, compare=False)
    blocks_fire: tuple[Shape, ...] = field(init=False, repr=False, compare=False)
    hinders: tuple[Shape, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "stops_movement", tuple(s for s in self.shapes if s.kind != HINDERING))
        object.__setattr__(self, "blocks_fire", tuple(s for s in self.shapes if s.kind == BLOCKING))
        object.__setattr__(self, "hinders", tuple(s for s in self.shapes if s.kind == HINDERING))

    def to_dict(self) -> dict:
        return {"name": self.name, "size": TABLE, "deploy_depth": DEPLOY_DEPTH,
                "terrain": [s.to_dict() for s in self.shapes]}


LAYOUTS: tuple[Layout, ...] = (
    Layout("crossroads", (
        Rect(BLOCKING, 5.0, 14.0, 10.0, 19.0),
        Rect(BLOCKING, 26.0, 17.0, 31.0, 22.0),
        Circle(HINDERING, 18.0, 18.0, 3.5),
        Rect(IMPASSABLE, 12.0, 10.0, 16.0, 12.0),
        Rect(IMPASSABLE, 20.0, 24.0, 24.0, 26.0),
    )),
    Layout("river-woods", (
        Rect(IMPASSABLE, 0.0, 17.0, 13.0, 19.0),
        Rect(IMPASSABLE, 19.0, 17.0, 36.0, 19.0),
        Circle(HINDERING, 8.0, 24.0, 3.0),
        Circle(HINDERING, 28.0, 12.0, 3.0),
        Rect(BLOCKING, 15.0, 11.0, 17.5, 13.5),
    )),
    Layout("ruined-town", (
        Rect(BLOCKING, 8.0, 10.0, 12.0, 14.0),
        Rect(BLOCKING, 24.0, 10.0, 28.0, 14.0),
        Rect(BLOCKING, 16.0, 16.0, 20.0, 20.0),
        Rect(BLOCKING, 8.0, 22.0, 12.0, 26.0),
        Rect(BLOCKING, 24.0, 22.0, 28.0, 26.0),
        Circle(HINDERING, 4.0, 18.0, 2.5),
        Circle(HINDERING, 32.0, 18.0, 2.5),
    )),
    Layout("open-plain", (
        Circle(HINDERING, 12.0, 18.0, 3.0),
        Circle(HINDERING, 24.0, 18.0, 3.0),
        Circle(BLOCKING, 18.0, 13.0, 1.5),
        Circle(BLOCKING, 18.0, 23.0, 1.5),
    )),
)


def choose_layout(rng: random.Random) -> Layout:
    """One of the fixed layouts, picked by the game's rng."""
    return LAYOUTS[rng.randrange(len(LAYOUTS))]


# ---- bases --------------------------------------------------------------------------------------------------

def edge_distance(ax: float, ay: float, ar: float, bx: float, by: float, br: float) -> float:
    """Distance between two round bases, edge to edge (0 when touching; negative if they overlap)."""
    return math.hypot(ax - bx, ay - by) - ar - br


def inside_table(x: float, y: float, r: float) -> bool:
    return r - EPS <= x <= TABLE - r + EPS and r - EPS <= y <= TABLE - r + EPS


def in_deployment_zone(y: float, r: float, player: int) -> bool:
    """M-table: a base wholly within 8″ of its player's edge (player 0: y = 0; player 1: y = 36)."""
    if player == 0:
        return y - r >= -EPS and y + r <= DEPLOY_DEPTH + EPS
    return y + r <= TABLE + EPS and y - r >= TABLE - DEPLOY_DEPTH - EPS


def end_position_ok(x: float, y: float, r: float, layout: Layout, others: Sequence[tuple[float, float, float]]) -> bool:
    """M13: a move may end here (on the table, on no base, on no terrain that stops movement)."""
    if not inside_table(x, y, r):
        return False
    for ox, oy, orad in others:
        if (x - ox) ** 2 + (y - oy) ** 2 < (r + orad - EPS) ** 2:
            return False
    for shape in layout.stops_movement:
        if shape.distance_to_point(x, y) < r - EPS:
            return False
    return True


def _base_on_segment(ax: float, ay: float, bx: float, by: float, bases: Sequence[tuple[float, float, float]],
                     slack: float) -> bool:
    """Does the segment come within radius + slack of any base's centre? Bounding boxes first."""
    lox, hix = (ax, bx) if ax < bx else (bx, ax)
    loy, hiy = (ay, by) if ay < by else (by, ay)
    for ox, oy, orad in bases:
        reach = orad + slack
        if ox + reach < lox or ox - reach > hix or oy + reach < loy or oy - reach > hiy:
            continue
        if seg_point_distance(ax, ay, bx, by, ox, oy) < reach:
            return True
    return False


def segment_clear(ax: float, ay: float, bx: float, by: float, r: float, layout: Layout,
                  others: Sequence[tuple[float, float, float]]) -> bool:
    """M13: the centre line a–b crosses no other base and keeps the mover's base off stopping terrain.

    A base blocks only the line its centre draws (distance < its radius, contact point included), so a unit
    passes between two bases not in base contact, and never between two that touch."""
    if _base_on_segment(ax, ay, bx, by, others, EPS):
        return False
    for shape in layout.stops_movement:
        if shape.near_segment(ax, ay, bx, by, r - EPS):
            return False
    return True


def find_path(start: Point, goal: Point, r: float, allowance: float, layout: Layout,
              others: Sequence[tuple[float, float, float]], *, free: bool = False) -> list[Point] | None:
    """A legal path from start to goal of length ≤ allowance: straight, else a simple detour (one or two
    waypoints beside the straight line).

    `free` (jump / flight): the path ignores bases and terrain; only the end position matters. None when the
    goal is not a legal end position or no path is found."""
    gx, gy = goal
    if not end_position_ok(gx, gy, r, layout, others):
        return None
    sx, sy = start
    direct = math.hypot(gx - sx, gy - sy)
    if direct > allowance + EPS:
        return None
    if free or segment_clear(sx, sy, gx, gy, r, layout, others):
        return [start, goal]
    if direct < EPS:
        return [start, goal]
    ux, uy = (gx - sx) / direct, (gy - sy) / direct
    for offset in DETOUR_OFFSETS:
        px, py = -uy * offset, ux * offset
        for waypoints in (
            [(sx + (gx - sx) * 0.5 + px, sy + (gy - sy) * 0.5 + py)],
            [(sx + (gx - sx) * 0.25 + px, sy + (gy - sy) * 0.25 + py),
             (sx + (gx - sx) * 0.75 + px, sy + (gy - sy) * 0.75 + py)],
        ):
            path = [start, *waypoints, goal]
            if path_length(path) <= allowance + EPS and _path_clear(path, r, layout, others):
                return path
    return None


DETOUR_OFFSETS = (1.5, -1.5, 3.0, -3.0, 4.5, -4.5)


def _path_clear(path: Sequence[Point], r: float, layout: Layout, others: Sequence[tuple[float, float, float]]) -> bool:
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        if not inside_table(bx, by, r) or not segment_clear(ax, ay, bx, by, r, layout, others):
            return False
    return True


def path_length(path: Sequence[Point]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:]))


def move_towards(start: Point, direction: Point, travel: float, r: float, allowance: float, layout: Layout,
                 others: Sequence[tuple[float, float, float]], *, free: bool = False) -> list[Point] | None:
    """The longest legal path that goes `travel` inches along `direction` (a unit vector), trying the full
    distance, then ¾, ½ and ¼ of it; None if even the shortest try fails."""
    sx, sy = start
    dx, dy = direction
    for share in (1.0, 0.75, 0.5, 0.25):
        step = travel * share
        goal = (sx + dx * step, sy + dy * step)
        path = find_path(start, goal, r, allowance, layout, others, free=free)
        if path is not None:
            return path
    return None


# ---- line of fire -------------------------------------------------------------------------------------------

def line_of_fire(ax: float, ay: float, bx: float, by: float, layout: Layout,
                 others: Sequence[tuple[float, float, float]] = ()) -> bool:
    """M15: the line between the two centres crosses no blocking terrain and (option `bases_block_fire`) no
    third unit's base."""
    for shape in layout.blocks_fire:
        if shape.near_segment(ax, ay, bx, by, 0.0):
            return False
    return not _base_on_segment(ax, ay, bx, by, others, -EPS)


def hindered(ax: float, ay: float, bx: float, by: float, layout: Layout) -> bool:
    """The line of fire crosses hindering terrain, or the target stands in it (one modifier, not cumulative)."""
    for shape in layout.hinders:
        if shape.near_segment(ax, ay, bx, by, 0.0):
            return True
    return False


def contact_points(target: Point, target_r: float, mover: Point, mover_r: float) -> list[Point]:
    """Centres where the mover's base touches the target's: facing the mover first, then ±40°, ±80°."""
    tx, ty = target
    mx, my = mover
    base = math.atan2(my - ty, mx - tx)
    reach = target_r + mover_r + CONTACT / 2
    points = []
    for degrees in (0, 40, -40, 80, -80):
        angle = base + math.radians(degrees)
        points.append((tx + math.cos(angle) * reach, ty + math.sin(angle) * reach))
    return points
