"""Mergeable summaries of many games: a summary of chunk A merged with one of chunk B is the summary of A + B.

`Tally` counts outcomes by name, `Mean` keeps a running mean and variance (Welford; merged with the pairwise
formula of Chan, Golub & LeVeque), `Histogram` counts integer values, and `Summary` is a named bag of them
plus the number of games. `wilson_interval` gives a confidence interval for a rate (a win rate).

Reproducibility. Counts are integers, so tallies and histograms merge exactly in any order. A `Mean` holds
floats: IEEE-754 arithmetic is deterministic, so the same values added and merged in the same order give the
same bits on any machine; the runner therefore merges chunk summaries in chunk-index order, which makes a run
byte-identical whatever the number of workers. Different chunk sizes merge in a different order and may
differ in the last bits of a float; `to_dict()` rounds floats to 6 decimal places (and 10 significant
digits), which hides that, so the JSON of a run is the same whatever its chunking (a value lying within float
noise of a rounding boundary could still flip its last digit: the chance is the float error over the last kept
digit, about 1e-8 for the mean of a game statistic, 1e-5 for the m2 of a long run).

Store partial (chunk) summaries with `to_dict(exact=True)`: full-precision floats survive a JSON round trip
exactly, rounded ones would not merge back to the same result.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeVar, Union

__all__ = ["Tally", "Mean", "Histogram", "Summary", "wilson_interval", "ROUND_DIGITS"]

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
    """Running count, mean and m2 (sum of squared deviations) of numbers: Welford's one-pass algorithm."""

    kind = "mean"
    __slots__ = ("count", "mean", "m2")

    def __init__(self, count: int = 0, mean: float = 0.0, m2: float = 0.0) -> None:
        self.count, self.mean, self.m2 = count, float(mean), float(m2)

    def add(self, x: float) -> None:
        if not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ValueError(f"mean: expected a finite number, got {x!r}")
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)

    def merge(self, other: Mean) -> Mean:
        """Chan et al.'s pairwise update: exact in real arithmetic, deterministic in floats for a fixed order."""
        if other.count == 0:
            return self
        if self.count == 0:
            self.count, self.mean, self.m2 = other.count, other.mean, other.m2
            return self
        n = self.count + other.count
        delta = other.mean - self.mean
        self.mean += delta * other.count / n
        self.m2 += other.m2 + delta * delta * self.count * other.count / n
        self.count = n
        return self

    @property
    def variance(self) -> float:
        """Population variance (m2 / n); 0.0 for fewer than 2 values."""
        return self.m2 / self.count if self.count > 1 else 0.0

    @property
    def sample_variance(self) -> float:
        """Sample variance (m2 / (n - 1)); 0.0 for fewer than 2 values."""
        return self.m2 / (self.count - 1) if self.count > 1 else 0.0

    @property
    def stddev(self) -> float:
        """Sample standard deviation."""
        return math.sqrt(self.sample_variance)

    def copy(self) -> Mean:
        return Mean(self.count, self.mean, self.m2)

    def to_dict(self, exact: bool = False) -> dict[str, Any]:
        return {
            "type": self.kind,
            "count": self.count,
            "mean": _round(self.mean, exact),
            "m2": _round(self.m2, exact),
            "stddev": _round(self.stddev, exact),
        }

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
        return cls(count, *values)


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


Stat = Union[Tally, Mean, Histogram]
STAT_TYPES: dict[str, type[Stat]] = {cls.kind: cls for cls in (Tally, Mean, Histogram)}
S = TypeVar("S", Tally, Mean, Histogram)


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

