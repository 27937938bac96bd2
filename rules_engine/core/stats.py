"""Mergeable summaries of many games: a summary of chunk A merged with one of chunk B is the summary of A + B.

`Tally` counts outcomes by name, `Mean` keeps the count, the sum and the sum of squares of numbers EXACTLY (integers;
a float is the exact fraction it stands for), `Histogram` counts integer values, and `Summary` is a named bag of
them plus the number of games. `wilson_interval` gives a confidence interval for a rate (a win rate).

Reproducibility. Every stat is exact integer arithmetic, so merging is exactly associative and commutative: the
summary of a run is the same, bit for bit, however its games are cut into chunks and in whatever order the
chunks are merged (a run's chunk size follows the measured cost of its games, so two runs of
the same question may be cut differently and must still give identical bytes). A `Mean` turns its exact sums
into floats only when read (`mean`, `m2`, `variance`, `stddev`), each correctly rounded from the exact value.
`to_dict()` rounds those floats to 6 decimal places (and 10 significant digits) for display.

Store partial (chunk) summaries with `to_dict(exact=True)`: it adds the exact sums (`"exact"`: integers), which
merge back to the same result; a stored mean written before the sums were exact (floats `mean` and `m2` only) is
read as the exact value of those floats.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeVar, Union

__all__ = ["Tally", "Mean", "Histogram", "PerGame", "Summary", "wilson_interval", "ROUND_DIGITS"]

ROUND_DIGITS = 6
SIGNIFICANT_DIGITS = 10
Z_95 = 1.959964


def _round(x: float, exact: bool) -> float:
    """`x` rounded to 6 decimal places and at most 10 significant digits (m2 grows with the number of games,
    so decimal places alone would keep its float noise); unchanged when `exact`."""
    if exact:
        return x
    x = float(f"{round(x, ROUND_DIGITS):.{SIGNIFICANT_DIGITS}g}")
    return x + 0.0  # turns -0.0 into 0.0, so the JSON never says "-0.0"


def _check_count(what: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"{what}: expected a count (integer ≥ 0), got {n!r}")
    return n


def _check_mapping(where: str, raw: Any) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: expected an object, got {type(raw).__name__}")
    return raw


class Tally:
    """Counts per outcome name (Counter-like): `tally.add("win")`, `tally["win"]`, `tally.total`."""

    kind = "tally"
    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[str, int] | None = None) -> None:
        self.counts: dict[str, int] = {}
        for key, n in (counts or {}).items():
            self.add(key, n)

    def add(self, key: str, n: int = 1) -> None:
        if not isinstance(key, str):
            raise TypeError(f"tally keys are strings, got {type(key).__name__} {key!r} (use str(...))")
        self.counts[key] = self.counts.get(key, 0) + _check_count(f"tally[{key!r}] increment", n)

    def __getitem__(self, key: str) -> int:
        return self.counts.get(key, 0)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def rate(self, key: str) -> float:
        """The share of `key` among all counts (0.0 when empty)."""
        total = self.total
        return self[key] / total if total else 0.0

    def wilson(self, key: str, z: float = Z_95) -> tuple[float, float]:
        """Wilson interval of the share of `key` (e.g. a win rate)."""
        return wilson_interval(self[key], self.total, z)

    def merge(self, other: Tally) -> Tally:
        for key, n in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + n
        return self

    def copy(self) -> Tally:
        return Tally(self.counts)

    def to_dict(self, exact: bool = False) -> dict[str, Any]:
        return {"type": self.kind, "total": self.total, "counts": {k: self.counts[k] for k in sorted(self.counts)}}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], where: str = "tally") -> Tally:
        counts = _check_mapping(f"{where}.counts", raw.get("counts"))
        return cls({k: _check_count(f"{where}.counts[{k!r}]", n) for k, n in counts.items()})


class Mean:
    """Count, mean and m2 (sum of squared deviations) of numbers, kept as EXACT sums so that merging is exact.

    The sum of the values is `_sum / 2**_scale` and the sum of their squares `_squares / 2**(2 * _scale)`, all
    integers: an int adds as itself, a float as the exact binary fraction it is (`float.as_integer_ratio`), so no
    rounding ever happens while adding or merging. `_scale` is the largest binary exponent seen, a function of the
    values only (not of the order), so equal multisets of values give equal stats whatever the chunking.
    """

    kind = "mean"
    __slots__ = ("count", "_sum", "_squares", "_scale")

    MAX_SCALE = 1074  # a float is a multiple of 2**-1074, so no exact sum needs a larger scale

    def __init__(self, count: int = 0, mean: float = 0.0, m2: float = 0.0) -> None:
        """A Mean of `count` values with this mean and m2 (taken exactly as given); Mean() is empty."""
        self.count, self._sum, self._squares, self._scale = 0, 0, 0, 0
        if count:
            self._add_moments(count, mean, m2)

    def _add_moments(self, count: int, mean: float, m2: float) -> None:
        # sum = count * mean and squares = m2 + count * mean**2, exactly, as binary fractions
        a, p = _binary_fraction(mean)
        b, q = _binary_fraction(m2)
        scale = max(p, (q + 1) // 2)
        total = (count * a) << (scale - p)
        squares = (b << (2 * scale - q)) + ((count * a * a) << (2 * scale - 2 * p))
        self._add_exact(count, total, squares, scale)

    def _add_exact(self, count: int, total: int, squares: int, scale: int) -> None:
        if scale > self._scale:
            shift = scale - self._scale
            self._sum <<= shift
            self._squares <<= 2 * shift
            self._scale = scale
        elif scale < self._scale:
            shift = self._scale - scale
            total <<= shift
            squares <<= 2 * shift
        self.count += count
        self._sum += total
        self._squares += squares

    def add(self, x: float) -> None:
        if isinstance(x, int):  # the common case (turns, points, damage): already exact
            n = int(x)  # bools count as 0 and 1, as before
            self.count += 1
            self._sum += n << self._scale
            self._squares += (n * n) << (2 * self._scale)
            return
        if not isinstance(x, float) or not math.isfinite(x):
            raise ValueError(f"mean: expected a finite number, got {x!r}")
        n, denominator = x.as_integer_ratio()
        self._add_exact(1, n, n * n, denominator.bit_length() - 1)

    def merge(self, other: Mean) -> Mean:
        """Add `other`'s values into this mean: exact, so the order of merges never matters."""
        if other.count:
            self._add_exact(other.count, other._sum, other._squares, other._scale)
        return self

    def _deviations(self) -> int:
        """count * m2 * 2**(2 * scale): an integer, never negative (Cauchy–Schwarz)."""
        return self.count * self._squares - self._sum * self._sum

    @property
    def mean(self) -> float:
        """The mean, correctly rounded from the exact sum (0.0 when empty)."""
        return self._sum / (self.count << self._scale) if self.count else 0.0

    @property
    def m2(self) -> float:
        """The sum of squared deviations from the mean, correctly rounded (0.0 when empty)."""
        return self._deviations() / (self.count << (2 * self._scale)) if self.count else 0.0

    @property
    def variance(self) -> float:
        """Population variance (m2 / n); 0.0 for fewer than 2 values."""
        return self._deviations() / ((self.count * self.count) << (2 * self._scale)) if self.count > 1 else 0.0

    @property
    def sample_variance(self) -> float:
        """Sample variance (m2 / (n - 1)); 0.0 for fewer than 2 values."""
        if self.count < 2:
            return 0.0
        return self._deviations() / ((self.count * (self.count - 1)) << (2 * self._scale))

    @property
    def stddev(self) -> float:
        """Sample standard deviation."""
        return math.sqrt(self.sample_variance)

    def copy(self) -> Mean:
        twin = Mean()
        twin.count, twin._sum, twin._squares, twin._scale = self.count, self._sum, self._squares, self._scale
        return twin

    def to_dict(self, exact: bool = False) -> dict[str, Any]:
        raw = {
            "type": self.kind,
            "count": self.count,
            "mean": _round(self.mean, exact),
            "m2": _round(self.m2, exact),
            "stddev": _round(self.stddev, exact),
        }
        if exact:
            raw["exact"] = {"sum": self._sum, "squares": self._squares, "scale": self._scale}
        return raw

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], where: str = "mean") -> Mean:
        count = _check_count(f"{where}.count", raw.get("count"))
        values = []
        for field in ("mean", "m2"):
            value = raw.get(field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{where}.{field}: expected a finite number, got {value!r}")
            values.append(value)
        if values[1] < 0:
            raise ValueError(f"{where}.m2: a sum of squares cannot be negative, got {values[1]!r}")
        exact = raw.get("exact")
        if exact is None:  # written before the sums were exact: the exact value of the stored floats
            return cls(count, *values)
        exact = _check_mapping(f"{where}.exact", exact)
        parts = []
        for field in ("sum", "squares", "scale"):
            value = exact.get(field)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{where}.exact.{field}: expected an integer, got {value!r}")
            parts.append(value)
        total, squares, scale = parts
        if not 0 <= scale <= cls.MAX_SCALE:
            raise ValueError(f"{where}.exact.scale: expected an integer from 0 to {cls.MAX_SCALE}, got {scale!r}")
        mean = cls()
        mean.count, mean._sum, mean._squares, mean._scale = count, total, squares, scale
        if mean._deviations() < 0 or (count == 0 and (total or squares)):
            raise ValueError(f"{where}.exact: the sums do not belong to {count} values "
                             f"(sum {total}, squares {squares})")
        return mean


def _binary_fraction(x: float) -> tuple[int, int]:
    """(n, k) with x == n / 2**k exactly (x a finite float or an int)."""
    n, denominator = float(x).as_integer_ratio() if not isinstance(x, int) else (x, 1)
    return n, denominator.bit_length() - 1


class Histogram:
    """Counts per integer value (turns played, damage dealt, ...)."""

    kind = "histogram"
    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[int, int] | None = None) -> None:
        self.counts: dict[int, int] = {}
        for value, n in (counts or {}).items():
            self.add(value, n)

    def add(self, value: int, n: int = 1) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"histogram values are integers, got {type(value).__name__} {value!r}")
        self.counts[value] = self.counts.get(value, 0) + _check_count(f"histogram[{value}] increment", n)

    def __getitem__(self, value: int) -> int:
        return self.counts.get(value, 0)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def merge(self, other: Histogram) -> Histogram:
        for value, n in other.counts.items():
            self.counts[value] = self.counts.get(value, 0) + n
        return self

    def copy(self) -> Histogram:
        return Histogram(self.counts)

    def to_dict(self, exact: bool = False) -> dict[str, Any]:
        return {
            "type": self.kind,
            "total": self.total,
            "counts": {str(v): self.counts[v] for v in sorted(self.counts)},
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], where: str = "histogram") -> Histogram:
        counts: dict[int, int] = {}
        for key, n in _check_mapping(f"{where}.counts", raw.get("counts")).items():
            try:
                value = int(key)
            except (TypeError, ValueError):
                raise ValueError(f"{where}.counts: key {key!r} is not an integer") from None
            counts[value] = _check_count(f"{where}.counts[{key!r}]", n)
        return cls(counts)


class PerGame:
    """One character per game, by game index (a game's outcome for paired comparisons: the list doctor
    compares each game of a changed list with the same game, same seed, of the list as it is).

    Kept as runs of consecutive indices {start: "wld..."}; merging two disjoint sets of games is a union, so it is
    exact, associative and commutative like every stat here. A game index given twice is an error (a chunk merged
    twice would count its games twice anywhere else too)."""

    kind = "per_game"
    __slots__ = ("runs",)

    def __init__(self, runs: Mapping[int, str] | None = None) -> None:
        self.runs: dict[int, str] = {}
        for start, text in (runs or {}).items():
            self._put(start, text)

    def _put(self, start: int, text: str) -> None:
        if isinstance(start, bool) or not isinstance(start, int) or start < 0:
            raise ValueError(f"per_game: a game index is an integer ≥ 0, got {start!r}")
        if not isinstance(text, str):
            raise ValueError(f"per_game[{start}]: expected a string, got {type(text).__name__}")
        if not text:
            return
        end = start + len(text)
        for other, other_text in self.runs.items():
            if other < end and start < other + len(other_text):
                raise ValueError(f"per_game: games {start}..{end - 1} overlap games {other}..{other + len(other_text) - 1}")
        before = next((o for o, t in self.runs.items() if o + len(t) == start), None)
        if before is not None:  # keep one run where games are consecutive
            start, text = before, self.runs.pop(before) + text
        after = self.runs.pop(start + len(text), None)
        self.runs[start] = text + (after or "")

    def add(self, index: int, value: str) -> None:
        if not isinstance(value, str) or len(value) != 1:
            raise ValueError(f"per_game[{index}]: expected one character, got {value!r}")
        self._put(index, value)

    @property
    def total(self) -> int:
        return sum(len(text) for text in self.runs.values())

    def text(self, start: int = 0, games: int | None = None) -> str:
        """The characters of games start .. start+games-1 in index order; ValueError when one is missing."""
        games = self.total if games is None else games
        run = self.runs.get(start, "")
        if len(run) < games:
            raise ValueError(f"per_game: games {start}..{start + games - 1} are not all here")
        return run[:games]

    def merge(self, other: PerGame) -> PerGame:
        for start, text in other.runs.items():
            self._put(start, text)
        return self

    def copy(self) -> PerGame:
        return PerGame(self.runs)

    def to_dict(self, exact: bool = False) -> dict[str, Any]:
        return {"type": self.kind, "total": self.total, "runs": {str(k): self.runs[k] for k in sorted(self.runs)}}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], where: str = "per_game") -> PerGame:
        runs: dict[int, str] = {}
        for key, text in _check_mapping(f"{where}.runs", raw.get("runs")).items():
            try:
                runs[int(key)] = text
            except (TypeError, ValueError):
                raise ValueError(f"{where}.runs: key {key!r} is not an integer") from None
        return cls(runs)


Stat = Union[Tally, Mean, Histogram, PerGame]
STAT_TYPES: dict[str, type[Stat]] = {cls.kind: cls for cls in (Tally, Mean, Histogram, PerGame)}
S = TypeVar("S", Tally, Mean, Histogram, PerGame)


class Summary:
    """A named bag of stats plus the number of games: `summary.tally("winner").add("0")`.

    `tally(name)`, `mean(name)` and `histogram(name)` return the stat of that name, creating it on first use.
    `merge(other)` adds `other` into this summary (in place) and returns it.
    """

    __slots__ = ("games", "stats")

    def __init__(self) -> None:
        self.games = 0
        self.stats: dict[str, Stat] = {}

    def _get(self, name: str, cls: type[S]) -> S:
        stat = self.stats.get(name)
        if stat is None:
            if not isinstance(name, str) or not name:
                raise ValueError(f"stat names are non-empty strings, got {name!r}")
            stat = self.stats[name] = cls()
        elif not isinstance(stat, cls):
            raise TypeError(f"stat {name!r} is a {stat.kind}, not a {cls.kind}")
        return stat

    def tally(self, name: str) -> Tally:
        return self._get(name, Tally)

    def mean(self, name: str) -> Mean:
        return self._get(name, Mean)

    def histogram(self, name: str) -> Histogram:
        return self._get(name, Histogram)

    def per_game(self, name: str) -> PerGame:
        return self._get(name, PerGame)

    def __getitem__(self, name: str) -> Stat:
        return self.stats[name]

    def __contains__(self, name: object) -> bool:
        return name in self.stats

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Summary) and self.to_dict(exact=True) == other.to_dict(exact=True)

    def __repr__(self) -> str:
        return f"Summary(games={self.games}, stats={sorted(self.stats)})"

    def merge(self, other: Summary) -> Summary:
        for name, stat in other.stats.items():
            mine = self.stats.get(name)
            if mine is None:
                self.stats[name] = stat.copy()
            elif type(mine) is not type(stat):
                raise TypeError(f"cannot merge stat {name!r}: {mine.kind} here, {stat.kind} in the other summary")
            else:
                mine.merge(stat)  # type: ignore[arg-type]
        self.games += other.games
        return self

    def to_dict(self, exact: bool = False) -> dict[str, Any]:
        """JSON-ready, keys in a stable order; floats rounded to 6 places unless `exact` (for chunk storage)."""
        return {"games": self.games, "stats": {name: self.stats[name].to_dict(exact) for name in sorted(self.stats)}}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Summary:
        """Read a summary written by `to_dict`; a malformed one raises ValueError naming the stat and field."""
        raw = _check_mapping("summary", raw)
        summary = cls()
        summary.games = _check_count("summary.games", raw.get("games"))
        for name, stat_raw in _check_mapping("summary.stats", raw.get("stats")).items():
            where = f"summary.stats[{name!r}]"
            stat_raw = _check_mapping(where, stat_raw)
            stat_cls = STAT_TYPES.get(stat_raw.get("type"))  # type: ignore[arg-type]
            if stat_cls is None:
                raise ValueError(f"{where}.type: expected one of {sorted(STAT_TYPES)}, got {stat_raw.get('type')!r}")
            summary.stats[name] = stat_cls.from_dict(stat_raw, where)
        return summary


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% for the default z); (0.0, 1.0) when n is 0."""
    _check_count("wilson n", n)
    _check_count("wilson successes", successes)
    if successes > n:
        raise ValueError(f"wilson: successes {successes} exceed trials {n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    lo = 0.0 if successes == 0 else max(0.0, center - half)
    hi = 1.0 if successes == n else min(1.0, center + half)
    return (lo, hi)

