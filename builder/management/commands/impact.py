"""`python manage.py impact FILE --opponent SLUG[=WEIGHT] ... [--opponent-list FILE[=WEIGHT] ...] [--field ID] [--event SLUG] [--user NAME] --games N --seed S
[--workers W] [--policy NAME] [--opponent-policy NAME] [--seats MODE] [--json]`: test every card.

What each card of the list in FILE does for it: for every distinct card (unit) the list is played with one copy
of it out, on the same seeds as the list itself (paired games), within a budget of N games in all — the list
doctor's screen and confirm stages (rules_engine.doctor, variant "impact"): the screen plays every removal on seed
S, then the clearest effects are replayed on fresh seeds; a card "helps" or "hurts" only when that confirm stage
finds it so after Holm's correction for the cards tested there, else "no detectable effect". A removal that breaks
a construction rule (a deck of exactly 20 兵器) is measured anyway and said so. The list's own games also give the
correlation figures (how often each card was played, the win rate in the games it was played and in the others),
labelled apart: those are not effects. The same seed gives the same report whatever W is.
Exit status: 0 done, 2 bad file or arguments, or a budget below the minimum (the message says which).
"""
from __future__ import annotations

from builder.management.commands import doctor
from builder.management.commands.simulate import bad_input
from rules_engine.batch import MAX_LEGS
from rules_engine.doctor import IMPACT, impact_changes


class Command(doctor.Command):
    """The list doctor's command (builder/management/commands/doctor.py) with every card's removal as its changes,
    variant "impact", and its own report."""

    help = "Measure what each card of a list does for it: one copy out, on the same seeds."
    what_is_tried = "card"
    variant = IMPACT

    def add_change_arguments(self, parser) -> None:
        """No --changes: every distinct card is tried."""

    def changes_of(self, document: dict, catalog, options: dict) -> list:
        return impact_changes(document, catalog)

    def check_size(self, changes: list, opponents: list, options: dict) -> None:
        lists = (len(changes) + 1) * len(opponents)
        if lists > MAX_LEGS:
            raise bad_input(f"{options['file']}: {len(changes)} distinct cards against {len(opponents)} opponent(s) "
                            f"is {lists} lists to play, more than the {MAX_LEGS} a run may hold; give fewer opponents")

    def describe(self, result: dict) -> list[str]:
        return describe(result)


def _rate(value, interval) -> str:
    if value is None:
        return "–"
    low, high = interval
    return f"{value:.1%} ({low:.1%}-{high:.1%})"


def describe(result: dict) -> list[str]:
    """The report in plain words: the stages, then the two kinds of figures apart — the correlation of each card's
    use with winning (the list's own screen games), and each card's measured effect (one copy out, paired games)."""
    policy = result["policy"] + (f" vs {result['opponent_policy']}" if result.get("opponent_policy") else "")
    lines = [f"{result['system']} test every card ({policy}), {result['games_played']} of {result['games']} games"
             f" played, seed {result['seed']}, engine {result['engine_version']}"]
    for stage in result["stages"]:
        lines.append(f"  {stage['stage']}: the list and {stage['lists'] - 1} card(s) out × {stage['games']} games"
                     f" per opponent (seed {stage['seed']})")
    for row in result["baseline"]["opponents"]:
        lines.append(f"  as it is vs {row['opponent']} (weight {row['weight']:.2f}): win rate "
                     + _rate(row["result"]["win_rate"], row["result"]["win_rate_interval"]))
        lines.append("  Correlation, not effect (the list's own games): a card played more in games already won "
                     "shows a higher win rate without causing it")
        for card in row["result"].get("card_impact") or []:
            rarely = {"never": "; never played", "almost_never": "; almost never played"}.get(card["rarely"], "")
            drawn = (f"drawn in {card['drawn_games']} games: win rate "
                     f"{_rate(card['drawn_win_rate'], card['drawn_interval'] or (0, 1))}; "
                     if "drawn_games" in card else "")
            lines.append(f"    {card['card']} ({card['copies']}×): {drawn}played in {card['played_games']} games: "
                         f"win rate {_rate(card['played_win_rate'], card['played_interval'] or (0, 1))}; not played: "
                         f"{_rate(card['not_played_win_rate'], card['not_played_interval'] or (0, 1))}{rarely}")
    lines.append("  Effect of each card (one copy out on the same seeds; what the list wins with it minus without it):")
    for rank, change in enumerate(result["changes"], 1):
        lines.append(f"  {rank:>2}. {change['sentence']['en']}")
    lines.append("  \"Helps\" and \"hurts\" only when confirmed on fresh seeds after Holm's correction for the cards"
                 " tested there: the chance of any false verdict is at most 5 %.")
    return lines
