"""A simulation result as a player reads it: every figure of the engine's report (rules_engine/<game>/simulation.py
`result`) as a number or a chart, in the UI language, with card and unit names from the run's frozen snapshot.

    view = result_view("mwda", run.result, run.snapshot, prefix=run.public_id)
    view["stats"]   -> [{"id", "label", "value", "detail", "keys"}]  the headline numbers (a <dl>)
    view["notes"]   -> [{"id", "label", "value", "keys"}]        how the run was played (who went first, policies)
    view["charts"]  -> [{"id", "type", "title", ..., "keys"}]     Chart.js specs (templates/partials/chart.html)

Each figure names the result keys it shows (`keys`, dotted paths: "turns.histogram" shows every bar of that
histogram). `shown_keys(view)` is their union, and tests/web/test_simulation_systems.py checks that every key of an
actual result of each engine is shown by some figure, so a figure a new engine version adds cannot be forgotten.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from rules_engine.systems import SYSTEMS

from . import presenters
from . import vocabulary

# The question the run asked, repeated in its result: shown in the page's title and meta line, not as figures.
QUESTION_KEYS = ("system", "opponent", "policy", "games", "seed", "engine_version")
# Outcomes of a game, in the order a player reads them.
OUTCOMES = (("wins", "win"), ("draws", "draw"), ("losses", "loss"))


def interval_words() -> str:
    return _("%(level)s%% interval") % {"level": 95}


def percent(value: Any) -> float | None:
    return round(100 * value, 2) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def number(value: Any, places: int = 2) -> str:
    """A figure as a player reads it: integers as they are, other numbers with `places` decimals, "–" for none."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "–"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{places}f}"


def _mean(result: Mapping[str, Any], key: str) -> Any:
    block = result.get(key)
    return block.get("mean") if isinstance(block, Mapping) else None


def _histogram(result: Mapping[str, Any], key: str, field: str = "histogram") -> dict[str, int]:
    block = result.get(key)
    histogram = block.get(field) if isinstance(block, Mapping) else None
    return dict(histogram) if isinstance(histogram, Mapping) else {}


def _filled(counts: Mapping[str, int], widest: int = 60) -> dict[str, int]:
    """A histogram with its empty bars between the lowest and highest value (a game length of 3 turns that no game
    had is a bar of 0, not a missing bar), unless that would be more than `widest` bars."""
    try:
        values = sorted(int(key) for key in counts)
    except ValueError:
        return dict(counts)
    if not values or values[-1] - values[0] >= widest:
        return dict(counts)
    return {str(value): int(counts.get(str(value), 0)) for value in range(values[0], values[-1] + 1)}


def card_name(snapshot: Mapping[str, Any] | None, code: Any, fallback: Any = "") -> str:
    """A card's or unit's name in the UI language, from the run's frozen snapshot (the catalog may have changed)."""
    card = ((snapshot or {}).get("cards") or {}).get(code)
    return presenters.names(card, str(fallback or code or ""))["main"]


class _Builder:
    def __init__(self, system: str, result: Mapping[str, Any], snapshot: Mapping[str, Any] | None, prefix: str):
        self.system, self.result, self.snapshot, self.prefix = system, result, snapshot or {}, prefix
        self.stats: list[dict[str, Any]] = []
        self.notes: list[dict[str, Any]] = []
        self.charts: list[dict[str, Any]] = []
        self.tables: list[dict[str, Any]] = []
        self.use_words = ""

    def stat(self, name: str, label: str, value: str, keys: tuple[str, ...], detail: str = "") -> None:
        """A headline figure; `detail` (its interval, its number of games) is shown smaller under it."""
        self.stats.append({"id": f"stat-{name}-{self.prefix}", "name": name, "label": label, "value": value,
                           "detail": detail, "keys": list(keys)})

    def note(self, name: str, label: str, value: str, keys: tuple[str, ...]) -> None:
        """A sentence about how the run was played (who went first, who played each side), above the figures."""
        self.notes.append({"id": f"note-{name}-{self.prefix}", "name": name, "label": label, "value": value,
                           "keys": list(keys)})

    def chart(self, name: str, title: str, keys: tuple[str, ...], **spec: Any) -> None:
        self.charts.append({"id": f"{name}-{self.prefix}", "title": title, "keys": list(keys), **spec})

    def bar(self, name: str, title: str, keys: tuple[str, ...], labels: list[str], series: list[dict[str, Any]],
            **spec: Any) -> None:
        spec.setdefault("type", "bar")
        empty = not labels or not any(value for s in series for value in s["data"])
        self.chart(name, title, keys, labels=labels, series=series, empty=empty, **spec)

    def histogram(self, name: str, title: str, keys: tuple[str, ...], counts: Mapping[str, int], axis: str,
                  signed: bool = False) -> None:
        counts = _filled(counts)
        labels = [(f"+{key}" if signed and int(key) > 0 else key.replace("-", "−")) for key in counts]
        self.bar(name, title, keys, labels, [{"label": _("games"), "data": list(counts.values())}],
                 axis=axis, value_axis=_("games"), integer=True)

    # --- every game --------------------------------------------------------------------------------------

    def outcome(self) -> None:
        result = self.result
        low, high = (list(result.get("win_rate_interval") or []) + [None, None])[:2]
        self.stat("win-rate", _("Win rate"), _percent_text(result.get("win_rate")), ("win_rate",))
        self.stat("interval", interval_words(), f"{_percent_text(low)} – {_percent_text(high)}", ("win_rate_interval",))
        self.chart("win", _("Win rate with its 95 percent interval"), ("win_rate", "win_rate_interval"),
                   type="winrate", labels=[_("win rate")], values=[percent(result.get("win_rate"))],
                   lows=[percent(low)], highs=[percent(high)], interval_label=interval_words())
        games = [result.get(key) or 0 for key, _outcome in OUTCOMES]
        words = {"win": pgettext("simulation", "wins"), "draw": pgettext("simulation", "draws"),
                 "loss": pgettext("simulation", "losses")}
        self.bar("outcomes", _("Wins, draws and losses"), tuple(key for key, _o in OUTCOMES),
                 [words[outcome] for _key, outcome in OUTCOMES], [{"label": _("games"), "data": games}],
                 horizontal=True, value_axis=_("games"), integer=True, colours=["#1f5fa8", "#8a8f98", "#b8492a"])

    def seats(self) -> None:
        """Who went first (the run's seat mode, or why the order is fixed), the list's win rate going first and
        going second with their intervals, and who played each side."""
        seats = self.result.get("seats")
        if isinstance(seats, Mapping):
            self.note("seats", _("Who goes first"), seat_mode_words(seats), ("seats.mode", "seats.applies",
                                                                             "seats.fixed_by", "seats.pairs"))
            labels, values, lows, highs = [], [], [], []
            for seat, label in (("first", _("Win rate going first")), ("second", _("Win rate going second"))):
                block = seats.get(seat) if isinstance(seats.get(seat), Mapping) else {}
                self.stat(f"seat-{seat}", label, _percent_text(block.get("win_rate")) if block.get("games") else "–",
                          (f"seats.{seat}",), detail=seat_rate_words(block))
                if block.get("games"):
                    low, high = (list(block.get("win_rate_interval") or []) + [None, None])[:2]
                    labels.append(_("going first") if seat == "first" else _("going second"))
                    values.append(percent(block.get("win_rate")))
                    lows.append(percent(low))
                    highs.append(percent(high))
            if len(labels) == 2:  # one bar would only repeat the win rate above
                self.chart("seats", _("Win rate going first and going second, with 95 percent intervals"),
                           ("seats.first", "seats.second"), type="winrate", labels=labels, values=values, lows=lows,
                           highs=highs, interval_label=interval_words())
        policies = self.result.get("policies")
        if isinstance(policies, Mapping):
            self.note("policies", _("Who plays each side"), policies_words(self.system, policies), ("policies",))

    def ended_by(self) -> None:
        counts = self.result.get("ended_by") or {}
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        self.bar("ended", _("How the games ended"), ("ended_by",),
                 [vocabulary.label(self.system, "end_reason", reason) for reason, _count in ordered],
                 [{"label": _("games"), "data": [count for _reason, count in ordered]}],
                 horizontal=True, value_axis=_("games"), integer=True)

    def per_card(self, name: str, key: str, title: str, value: str, per_game_label: str, total_label: str) -> None:
        rows = [row for row in self.result.get(key) or [] if isinstance(row, Mapping)]
        self.bar(name, title, (key,), [card_name(self.snapshot, row.get("card"), row.get("name")) for row in rows],
                 [{"label": per_game_label, "data": [row.get("per_game", 0) for row in rows]}],
                 extra=[{"label": total_label, "data": [row.get(value, 0) for row in rows]}],
                 horizontal=True, value_axis=per_game_label)

    def use_tally(self) -> None:
        """How much each card of the list was used (the registry entry's `use_tally`, a per-card tally of
        rules_engine.core.report.per_card): what any game's result says besides its outcomes."""
        key = SYSTEMS[self.system].use_tally[0]
        if key and isinstance(self.result.get(key), list):
            self.per_card("use", key, _("How often each card of the list was used, per game"), "count",
                          _("per game"), pgettext("simulation", "times in all"))

    def card_impact(self) -> None:
        """Each card's use and the win rate in the games it was used in and not: a correlation, said so."""
        rows = card_impact_rows(self.result, self.snapshot)
        if "card_impact" in self.result:
            self.tables.append({"id": f"card-impact-{self.prefix}", "name": "card-impact",
                                "drawn": any(row["drawn"] is not None for row in rows),
                                "title": _("Win rate when each card was used (a correlation)"),
                                "about": correlation_words(), "use_words": self.use_words, "rows": rows,
                                "keys": ["card_impact"]})

    # --- HAGMI! ------------------------------------------------------------------------------------------

    def hagmi(self) -> None:
        result = self.result
        self.use_words = _("A card counts as used in a game when you played it from your hand; drawn, when it left "
                           "its deck for your hand (the opening hand included).")
        self.stat("turns", _("Mean game length (turns)"), number(_mean(result, "turns")), ("turns.mean",))
        self.stat("damage", _("Damage dealt per turn (mean)"), number(_mean(result, "damage_per_turn")),
                  ("damage_per_turn.mean",))
        self.stat("first-unit", _("Turn of the first unit (mean)"), number(_mean(result, "first_unit_turn")),
                  ("first_unit_turn.mean",))
        self.stat("no-unit", _("Games without a unit played"),
                  number((result.get("first_unit_turn") or {}).get("games_without_unit")),
                  ("first_unit_turn.games_without_unit",))
        by_turn = [row for row in (result.get("damage_per_turn") or {}).get("by_turn") or [] if isinstance(row, Mapping)]
        self.chart("damage-by-turn", _("Damage dealt in each of your turns (mean of the games that reached it)"),
                   ("damage_per_turn.by_turn",), type="line", labels=[str(row.get("turn")) for row in by_turn],
                   series=[{"label": _("damage (mean)"), "data": [round(row.get("mean") or 0, 2) for row in by_turn]}],
                   extra=[{"label": pgettext("simulation", "games"), "data": [row.get("games", 0) for row in by_turn]}],
                   empty=not by_turn, axis=pgettext("simulation", "your turn"), value_axis=_("damage (mean)"))
        self.histogram("turns", _("Game length: games by number of your turns"), ("turns.histogram",),
                       _histogram(result, "turns"), axis=pgettext("simulation", "turns"))
        self.histogram("first-unit", _("Turn your first unit entered the battlefield"), ("first_unit_turn.histogram",),
                       _histogram(result, "first_unit_turn"), axis=pgettext("simulation", "turn"))
        self.per_card("cards", "cards_played", _("Cards played per game"), "count", _("per game"),
                      pgettext("simulation", "times in all"))

    # --- MechWarrior: Dark Age -----------------------------------------------------------------------------

    def mwda(self) -> None:
        result = self.result
        self.use_words = _("A unit counts as used in a battle when it dealt damage.")
        destroyed, lost = _mean(result, "points_destroyed"), _mean(result, "points_lost")
        self.stat("rounds", _("Mean battle length (rounds)"), number(_mean(result, "rounds")), ("rounds.mean",))
        self.stat("points-destroyed", _("Points destroyed per battle (mean)"), number(destroyed),
                  ("points_destroyed.mean",))
        self.stat("points-lost", _("Points lost per battle (mean)"), number(lost), ("points_lost.mean",))
        self.stat("surviving", _("Your units surviving at the end (mean)"), number(_mean(result, "units_surviving")),
                  ("units_surviving.mean",))
        self.stat("shutdowns", _("Heat shutdowns per battle (mean)"), number(_mean(result, "heat_shutdowns")),
                  ("heat_shutdowns.mean",))
        self.stat("orders", _("Orders given per round (mean)"), number(_mean(result, "orders_per_round")),
                  ("orders_per_round.mean",))
        self.bar("points", _("Points destroyed and lost per battle (mean)"),
                 ("points_destroyed.mean", "points_lost.mean"),
                 [pgettext("simulation", "destroyed"), pgettext("simulation", "lost")],
                 [{"label": _("points"), "data": [destroyed or 0, lost or 0]}],
                 horizontal=True, value_axis=_("points"), colours=["#1f5fa8", "#b8492a"])
        self.histogram("rounds", _("Battle length: battles by rounds played"), ("rounds.histogram",),
                       _histogram(result, "rounds"), axis=pgettext("simulation", "rounds"))
        self.per_card("damage", "unit_damage", _("Damage dealt by each of your units, per battle"), "damage",
                      pgettext("simulation", "damage per battle"), pgettext("simulation", "damage in all"))

    # --- Warcaster ----------------------------------------------------------------------------------------

    def warcaster(self) -> None:
        result = self.result
        self.use_words = _("A cypher counts as used in a game when you played it.")
        vp_for, vp_against = _mean(result, "victory_points"), _mean(result, "victory_points_against")
        destroyed, lost = _mean(result, "units_destroyed"), _mean(result, "units_lost")
        self.stat("rounds", _("Mean game length (rounds)"), number(_mean(result, "rounds")), ("rounds.mean",))
        self.stat("vp-for", _("Your victory points (mean)"), number(vp_for), ("victory_points.mean",))
        self.stat("vp-against", _("The opponent's victory points (mean)"), number(vp_against),
                  ("victory_points_against.mean",))
        self.stat("destroyed", _("Units destroyed per game (mean)"), number(destroyed), ("units_destroyed.mean",))
        self.stat("lost", _("Units lost per game (mean)"), number(lost), ("units_lost.mean",))
        vp = pgettext("simulation", "victory points")
        self.bar("vp", _("Victory points per game (mean)"), ("victory_points.mean", "victory_points_against.mean"),
                 [pgettext("simulation", "yours"), pgettext("simulation", "the opponent's")],
                 [{"label": vp, "data": [vp_for or 0, vp_against or 0]}],
                 horizontal=True, value_axis=vp, colours=["#1f5fa8", "#b8492a"])
        self.histogram("margin", _("Victory point margin: games by your points minus the opponent's"),
                       ("victory_points.margin_histogram",), _histogram(result, "victory_points", "margin_histogram"),
                       axis=pgettext("simulation", "margin"), signed=True)
        self.bar("units", _("Units destroyed and lost per game (mean)"), ("units_destroyed.mean", "units_lost.mean"),
                 [pgettext("simulation", "destroyed"), pgettext("simulation", "lost")],
                 [{"label": _("units"), "data": [destroyed or 0, lost or 0]}],
                 horizontal=True, value_axis=_("units"), colours=["#1f5fa8", "#b8492a"])
        self.per_card("cyphers", "cyphers_played", _("Cyphers played per game"), "count", _("per game"),
                      pgettext("simulation", "times in all"))
        effects = result.get("effects_applied") or {}
        self.bar("effects", _("Continuous effects your side applied"), ("effects_applied",),
                 [vocabulary.label("warcaster", "effect", kind) for kind in effects],
                 [{"label": pgettext("simulation", "times in all"), "data": list(effects.values())}],
                 horizontal=True, value_axis=pgettext("simulation", "times in all"), integer=True)


def correlation_words() -> str:
    return _("A correlation, not an effect: a card used more often in games that were going well anyway shows a "
             "higher win rate without causing it. \"Test every card\" measures what each card does, by playing the "
             "same games with one copy of it out.")


def _rate_words(rate: Any, interval: Any) -> str:
    if rate is None or not isinstance(interval, (list, tuple)) or len(interval) != 2:
        return "–"
    return f"{_percent_text(rate)} (±{100 * (interval[1] - interval[0]) / 2:.1f})"


def card_impact_rows(result: Mapping[str, Any], snapshot: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The engine's `card_impact` rows in words: name, copies, games used in and their share, the win rate in those
    games and in the others (each "45.0% (±9.8)": the half-width of its 95 % interval), where the game counts draws
    the games drawn in and the win rate there (`drawn` None otherwise), and "never or almost never used"."""
    rows = []
    for row in result.get("card_impact") or []:
        if not isinstance(row, Mapping):
            continue
        rarely = row.get("rarely")
        rows.append({
            "name": card_name(snapshot, row.get("card"), row.get("name")),
            "copies": row.get("copies"),
            "used": _("%(n)s games (%(share)s)") % {"n": number(row.get("played_games")),
                                                  "share": _percent_text(row.get("played_share"))},
            "used_rate": _rate_words(row.get("played_win_rate"), row.get("played_interval")),
            "not_used_rate": _rate_words(row.get("not_played_win_rate"), row.get("not_played_interval")),
            "drawn": _("%(n)s games") % {"n": number(row.get("drawn_games"))} if "drawn_games" in row else None,
            "drawn_rate": _rate_words(row.get("drawn_win_rate"), row.get("drawn_interval")),
            "rarely": _("never used") if rarely == "never" else _("almost never used")
            if rarely == "almost_never" else "",
        })
    return rows


def seat_mode_words(seats: Mapping[str, Any]) -> str:
    """The run's seat mode in words, or why the order is fixed (the rules; an opponent that takes no turns)."""
    if seats.get("applies") is False:
        if seats.get("fixed_by") == "rules":
            return _("Fixed by the rules (the players always go first)")
        return _("Fixed (the opponent takes no turns, so the order does not matter)")
    mode = seats.get("mode")
    if mode == "list-first":
        return _("You always go first")
    if mode == "random":
        return _("A coin toss each game")
    pairs = seats.get("pairs") or 0
    return ngettext("Both seats (%(n)s deal, played going first and going second)",
                    "Both seats (%(n)s deals, each played going first and going second)", pairs) % {"n": number(pairs)}


def seat_rate_words(block: Mapping[str, Any]) -> str:
    """A seat's 95 % interval and how many games it rests on ("no games" when none)."""
    games = block.get("games") or 0
    if not games:
        return _("no games in this seat")
    low, high = (list(block.get("win_rate_interval") or []) + [None, None])[:2]
    return ngettext("%(interval)s %(low)s – %(high)s, %(n)s game", "%(interval)s %(low)s – %(high)s, %(n)s games",
                    games) % {"interval": interval_words(), "low": _percent_text(low), "high": _percent_text(high),
                              "n": number(games)}


def policies_words(system: str, policies: Mapping[str, Any]) -> str:
    """Who plays each side: "Greedy (...) for you, Random legal moves for the opponent" (the opponent "played by the
    rules" when no policy plays it)."""
    mine, theirs = policy_label(system, str(policies.get("list") or "")), policies.get("opponent")
    if not theirs:
        return _("%(mine)s for you; the opponent is played by the rules") % {"mine": mine}
    return _("%(mine)s for you, %(theirs)s for the opponent") % {"mine": mine,
                                                                  "theirs": policy_label(system, str(theirs))}


def _percent_text(value: Any) -> str:
    return f"{100 * value:.1f}%" if isinstance(value, (int, float)) and not isinstance(value, bool) else "–"


def result_view(system: str, result: Mapping[str, Any], snapshot: Mapping[str, Any] | None = None, *,
                prefix: str = "run") -> dict[str, Any]:
    """The stats and charts of one result (see the module docstring); `prefix` keeps element ids unique."""
    build = _Builder(system, result, snapshot, prefix)
    build.outcome()
    build.seats()
    game = getattr(build, system, None) if system in SYSTEMS else None  # the game's own stats (_Builder.<slug>)
    if game is not None:
        game()
    elif system in SYSTEMS:  # a game with no figures of its own here: the per-card tally its registry entry names
        build.use_tally()
    build.ended_by()
    build.card_impact()
    return {"stats": build.stats, "notes": build.notes, "charts": build.charts, "tables": build.tables,
            "question_keys": list(QUESTION_KEYS)}


def shown_keys(view: Mapping[str, Any]) -> set[str]:
    """Every result key (dotted path) some part of the page shows."""
    keys = set(view.get("question_keys") or ())
    for figure in [*view.get("stats", ()), *view.get("notes", ()), *view.get("charts", ()), *view.get("tables", ())]:
        keys.update(figure.get("keys") or ())
    return keys


def result_paths(result: Mapping[str, Any], prefix: str = "") -> set[str]:
    """Every leaf of a result as a dotted path ("turns.histogram.2", "win_rate"); a list is one leaf."""
    paths: set[str] = set()
    for key, value in result.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            paths |= result_paths(value, f"{path}.")
        else:
            paths.add(path)
    return paths


def unshown_paths(result: Mapping[str, Any], view: Mapping[str, Any]) -> set[str]:
    """The result's leaves no figure shows: a leaf is shown by a key equal to it or to one of its parents."""
    shown = shown_keys(view)

    def covered(path: str) -> bool:
        parts = path.split(".")
        return any(".".join(parts[:n]) in shown for n in range(1, len(parts) + 1))

    return {path for path in result_paths(result) if not covered(path)}


def policy_label(system: str, policy: str) -> str:
    return vocabulary.label(system, "policy", policy)


def title_parts(list_name: str, opponent: str) -> str:
    return pgettext("simulation title", "%(list)s vs %(opponent)s") % {"list": list_name, "opponent": opponent}
