"""Pieces every game system's simulation report shares: outcome counts, Wilson interval, means, histograms and
per-card tallies, read from a merged `Summary` (stats.py) in one consistent JSON shape."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.stats import Summary, wilson_interval

PLAYER, OPPONENT = 0, 1


def outcome_of(winner: Any) -> str:
    """"win", "loss" or "draw" for the list's player (player 0)."""
    return "win" if winner == PLAYER else "loss" if winner == OPPONENT else "draw"


CARD_GAMES, CARD_WINS = "card_games", "card_wins"  # per card: the games it was used in, and the wins among them
CARD_SEEN, CARD_SEEN_WINS = "card_seen_games", "card_seen_wins"  # ... the games it was drawn in (a game with draws)
RARELY_PLAYED = 0.02  # a card used in fewer than this share of the games is "never or almost never played"


def add_card_games(summary: Summary, record: Mapping[str, Any], name: str, seen: str | None = None) -> None:
    """Count, for each card the game's per-card record `name` (HAGMI cards_played, ...) shows used at least once,
    one game played and, when the list won it, one win: exact counts, so chunks merge to the same figures. `seen`:
    the record's cards drawn (in the opening hand or later) in the game, counted the same way (HAGMI)."""
    won = record["outcome"] == "win"
    for tally_name, wins_name, field in ((CARD_GAMES, CARD_WINS, name), (CARD_SEEN, CARD_SEEN_WINS, seen)):
        if field is None:
            continue
        games, wins = summary.tally(tally_name), summary.tally(wins_name)
        for code, count in (record.get(field) or {}).items():
            if count:
                games.add(code)
                if won:
                    wins.add(code)


def card_impact(summary: Summary, snapshot: Mapping[str, Any], games: int,
                sections: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per distinct card of the list's `sections`: the games it was used in (played, or dealt damage), the list's
    win rate in those games and in the others, each with its 95 % Wilson interval; where the game counts draws
    (HAGMI), the games it was drawn in (opening hand included) and the win rate there; and `rarely` ("never",
    "almost_never": used in under RARELY_PLAYED of the games, or ""). A correlation, not an effect: a card played
    more in games already won (drawn with a good hand, played once ahead) shows a higher win rate without causing
    it; the list doctor's "test every card" measures the effect. Largest share of games first, then list order."""
    played = summary.tally(CARD_GAMES) if CARD_GAMES in summary else None
    won = summary.tally(CARD_WINS) if CARD_WINS in summary else None
    seen = summary.tally(CARD_SEEN) if CARD_SEEN in summary else None
    seen_won = summary.tally(CARD_SEEN_WINS) if CARD_SEEN_WINS in summary else None
    wins = summary.tally("outcome")["win"] if "outcome" in summary else 0
    cards = snapshot.get("cards") or {}
    copies: dict[str, int] = {}
    for section in sections:
        for entry in ((snapshot.get("list") or {}).get("sections") or {}).get(section) or []:
            if isinstance(entry, Mapping) and isinstance(entry.get("card"), str):
                qty = entry.get("qty", 1)
                copies[entry["card"]] = copies.get(entry["card"], 0) + (
                    qty if isinstance(qty, int) and not isinstance(qty, bool) and qty > 0 else 1)
    rows = []
    for order, (code, count) in enumerate(copies.items()):
        n_in = played[code] if played is not None else 0
        w_in = won[code] if won is not None else 0
        n_out, w_out = games - n_in, wins - w_in
        share = n_in / games if games else 0.0
        rows.append({
            "card": code,
            "name": (cards.get(code) or {}).get("name", code),
            "copies": count,
            "played_games": n_in,
            "played_share": round(share, 6),
            "played_win_rate": round(w_in / n_in, 6) if n_in else None,
            "played_interval": [round(x, 6) for x in wilson_interval(w_in, n_in)] if n_in else None,
            "not_played_games": n_out,
            "not_played_win_rate": round(w_out / n_out, 6) if n_out else None,
            "not_played_interval": [round(x, 6) for x in wilson_interval(w_out, n_out)] if n_out else None,
            "rarely": "never" if n_in == 0 else "almost_never" if share < RARELY_PLAYED else "",
            "_order": order,
        })
        if seen is not None:  # a game that draws cards: the games the card was drawn in, and its win rate there
            n_seen = seen[code]
            w_seen = seen_won[code] if seen_won is not None else 0
            rows[-1].update(
                drawn_games=n_seen,
                drawn_win_rate=round(w_seen / n_seen, 6) if n_seen else None,
                drawn_interval=[round(x, 6) for x in wilson_interval(w_seen, n_seen)] if n_seen else None)
    rows.sort(key=lambda row: (-row["played_games"], row["_order"]))
    for row in rows:
        del row["_order"]
    return rows


SEATS = ("first", "second")  # the list's seat: it took the first turn of the game, or the opponent did
SEAT_OUTCOME = "seat_outcome"  # the Tally of "<seat>:<outcome>" (first:win, second:draw ...)


def add_outcome(summary: Summary, record: Mapping[str, Any]) -> None:
    """Count one game's `outcome` and `ended_by`, and its outcome by the list's `seat` when the record has one."""
    summary.tally("outcome").add(record["outcome"])
    summary.tally("ended_by").add(record["ended_by"])
    seat = record.get("seat")
    if seat is not None:
        summary.tally(SEAT_OUTCOME).add(f"{seat}:{record['outcome']}")


def _outcome_counts(wins: int, losses: int, draws: int, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games) if games else (0.0, 0.0)
    return {
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": round(wins / games, 6) if games else 0.0,
        "win_rate_interval": [round(low, 6), round(high, 6)],
    }


def outcome_fields(summary: Summary, games: int) -> dict[str, Any]:
    """wins, losses, draws, win_rate and its 95% Wilson interval."""
    outcome = summary.tally("outcome")
    return _outcome_counts(outcome["win"], outcome["loss"], outcome["draw"], games)


def seat_fields(summary: Summary) -> dict[str, dict[str, Any]]:
    """The list's games going first and going second: for each seat its `games`, wins, losses, draws, win_rate
    and 95 % Wilson interval (the same fields as `outcome_fields`). The two seats add up to the run's totals."""
    tally = summary.tally(SEAT_OUTCOME) if SEAT_OUTCOME in summary else None
    fields = {}
    for seat in SEATS:
        counts = [tally[f"{seat}:{name}"] if tally is not None else 0 for name in ("win", "loss", "draw")]
        games = sum(counts)
        fields[seat] = {"games": games, **_outcome_counts(*counts, games)}
    return fields


def ended_by(summary: Summary) -> dict[str, int]:
    return dict(sorted(summary.tally("ended_by").to_dict()["counts"].items()))


def mean_of(summary: Summary, name: str) -> float | None:
    """The mean of a Mean stat rounded for display, or None when nothing was added."""
    if name not in summary or summary.mean(name).count == 0:
        return None
    return round(summary.mean(name).mean, 6)


def histogram_of(summary: Summary, name: str) -> dict[str, int]:
    """A Histogram stat as {"value": count} in numeric order ({} when absent)."""
    if name not in summary:
        return {}
    counts = summary.histogram(name).to_dict()["counts"]
    return {str(key): value for key, value in sorted(counts.items(), key=lambda kv: int(kv[0]))}


def add_counts(summary: Summary, name: str, counts: Mapping[str, int]) -> None:
    tally = summary.tally(name)
    for key, count in counts.items():
        tally.add(key, count)


def per_card(summary: Summary, name: str, cards: Mapping[str, Any], games: int, value: str = "count") -> list[dict]:
    """A per-card tally as [{"card", "name", value, "per_game"}], largest first."""
    counts = summary.tally(name).to_dict()["counts"] if name in summary else {}
    return [
        {
            "card": code,
            "name": (cards.get(code) or {}).get("name", code),
            value: count,
            "per_game": round(count / games, 6) if games else 0.0,
        }
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def entry_codes(entries: Any) -> set[str]:
    """The card codes of [{"card", "qty"}] entries (malformed ones skipped)."""
    return {e["card"] for e in entries or () if isinstance(e, Mapping) and isinstance(e.get("card"), str)}
