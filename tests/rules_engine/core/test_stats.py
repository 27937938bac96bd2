"""Mergeable statistics: chunks add up to the summary of one big run."""
import json
import math
import random
import statistics

import pytest

from rules_engine.core.stats import Histogram, Mean, Summary, Tally, wilson_interval


def _values(n=2000, seed=1):
    rng = random.Random(seed)
    return [rng.gauss(1e6, 3.5) if i % 3 else rng.uniform(-10, 10) for i in range(n)]


def _mean_of(values):
    m = Mean()
    for x in values:
        m.add(x)
    return m


def test_welford_matches_one_pass_exact_statistics():
    values = _values()
    m = _mean_of(values)
    assert m.count == len(values)
    assert m.mean == pytest.approx(statistics.fmean(values), rel=1e-12)
    assert m.variance == pytest.approx(statistics.pvariance(values), rel=1e-12)
    assert m.stddev == pytest.approx(statistics.stdev(values), rel=1e-12)


@pytest.mark.parametrize("chunk", [1, 7, 100, 999])
def test_merged_chunks_equal_one_pass_within_1e_12_and_as_rounded_json(chunk):
    values = _values()
    whole = _mean_of(values)
    merged = Mean()
    for lo in range(0, len(values), chunk):
        merged.merge(_mean_of(values[lo:lo + chunk]))
    assert merged.count == whole.count
    assert merged.mean == pytest.approx(whole.mean, rel=1e-12)
    assert merged.m2 == pytest.approx(whole.m2, rel=1e-12)
    assert json.dumps(merged.to_dict()) == json.dumps(whole.to_dict())


def test_merging_the_same_chunks_in_the_same_order_is_bit_identical():
    values = _values()
    parts = [_mean_of(values[lo:lo + 300]) for lo in range(0, len(values), 300)]
    a, b = Mean(), Mean()
    for p in parts:
        a.merge(p)
    for p in [Mean.from_dict(p.to_dict(exact=True)) for p in parts]:  # as stored in chunk rows
        b.merge(p)
    assert (a.count, a.mean, a.m2) == (b.count, b.mean, b.m2)


def test_mean_edge_cases_and_bad_values():
    m = Mean()
    assert (m.variance, m.stddev) == (0.0, 0.0)
    m.merge(Mean())
    assert m.count == 0
    m.add(3)
    assert (m.mean, m.variance) == (3.0, 0.0)
    for bad in (math.nan, math.inf, "3", None):
        with pytest.raises(ValueError, match="mean: expected a finite number"):
            m.add(bad)


def test_tally_counts_and_merges_exactly():
    a, b = Tally(), Tally()
    a.add("win", 3)
    a.add("loss")
    b.add("win")
    b.add("draw", 2)
    a.merge(b)
    assert a.counts == {"win": 4, "loss": 1, "draw": 2} and a.total == 7 and a["nothing"] == 0
    assert a.rate("win") == 4 / 7
    assert a.to_dict() == {"type": "tally", "total": 7, "counts": {"draw": 2, "loss": 1, "win": 4}}
    with pytest.raises(TypeError, match="tally keys are strings, got int 0"):
        a.add(0)
    with pytest.raises(ValueError, match=r"tally\['win'\] increment"):
        a.add("win", -1)


def test_histogram_keeps_integer_buckets_in_numeric_order():
    h = Histogram()
    for turns in (10, 9, 10, 2, 11):
        h.add(turns)
    assert list(h.to_dict()["counts"]) == ["2", "9", "10", "11"]
    assert Histogram.from_dict(json.loads(json.dumps(h.to_dict()))).counts == h.counts
    with pytest.raises(TypeError, match="histogram values are integers"):
        h.add(2.5)


@pytest.mark.parametrize(
    "successes, n, lo, hi",
    # Published Wilson 95% intervals (e.g. Newcombe 1998, Table I; Brown, Cai & DasGupta 2001).
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662),
     (1, 29, 0.0061, 0.1718)],
)
def test_wilson_interval_known_values(successes, n, lo, hi):
    got = wilson_interval(successes, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_interval_edges_and_errors():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0
    with pytest.raises(ValueError, match="successes 6 exceed trials 5"):
        wilson_interval(6, 5)
    t = Tally({"win": 5, "loss": 5})
    assert t.wilson("win") == wilson_interval(5, 10)


def _summary(records):
    s = Summary()
    for winner, turns in records:
        s.games += 1
        s.tally("winner").add(winner)
        s.mean("turns_third").add(turns / 3)
        s.histogram("turns").add(turns)
    return s


def test_summary_merge_equals_one_summary_and_json_is_stable():
    rng = random.Random(4)
    records = [(rng.choice("ab"), rng.randint(3, 30)) for _ in range(500)]
    whole = _summary(records)
    merged = Summary()
    for lo in range(0, 500, 64):
        merged.merge(_summary(records[lo:lo + 64]))
    assert merged.games == 500
    assert json.dumps(merged.to_dict()) == json.dumps(whole.to_dict())
    assert list(whole.to_dict()["stats"]) == ["turns", "turns_third", "winner"]  # sorted, not creation order
    reread = Summary.from_dict(json.loads(json.dumps(whole.to_dict())))
    assert json.dumps(reread.to_dict()) == json.dumps(whole.to_dict())


def test_summary_round_trip_exact_keeps_every_bit():
    whole = _summary([("a", 7), ("b", 11), ("a", 13)])
    again = Summary.from_dict(json.loads(json.dumps(whole.to_dict(exact=True))))
    assert again == whole and again.mean("turns_third").mean == whole.mean("turns_third").mean


def test_summary_merge_copies_stats_it_did_not_have():
    a, b = Summary(), _summary([("a", 3)])
    a.merge(b)
    a.tally("winner").add("a")
    assert b.tally("winner")["a"] == 1


def test_summary_refuses_a_name_used_for_another_kind():
    s = Summary()
    s.tally("turns")
    with pytest.raises(TypeError, match="stat 'turns' is a tally, not a mean"):
        s.mean("turns")
    other = Summary()
    other.mean("turns").add(1)
    with pytest.raises(TypeError, match="cannot merge stat 'turns': tally here, mean in the other"):
        s.merge(other)


@pytest.mark.parametrize(
    "raw, message",
    [([], "summary: expected an object"),
     ({"games": -1, "stats": {}}, "summary.games"),
     ({"games": 1, "stats": {"x": {"type": "median"}}}, r"summary.stats\['x'\].type: expected one of"),
     ({"games": 1, "stats": {"x": {"type": "mean", "count": 1, "mean": "2", "m2": 0}}},
      r"summary.stats\['x'\].mean"),
     ({"games": 1, "stats": {"x": {"type": "tally", "counts": {"a": 1.5}}}},
      r"summary.stats\['x'\].counts\['a'\]"),
     ({"games": 1, "stats": {"x": {"type": "histogram", "counts": {"two": 1}}}}, "key 'two' is not an integer")],
)
def test_summary_from_dict_names_the_bad_field(raw, message):
    with pytest.raises(ValueError, match=message):
        Summary.from_dict(raw)
