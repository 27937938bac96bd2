"""Replay page: one game of a simulation run as a game report, turn by turn, with its table or board.

The game is played again from the run's frozen snapshot with `game_rng(seed, index)` (rules_engine.replay), so it
is exactly the game the run counted. Its events are written as sentences in the page's language
(builder/web/gamereport.py), grouped by turn. MWDA and Warcaster games are drawn on the table (SVG): the drawing
data (pieces named after their units, then one frame per turn: positions, health, eliminations, attack lines) is
embedded with `json_script` for static/hangar/replay.js. A HAGMI game shows its board after each turn (each
side's battlefield, hand, 秘策, decks, damage deck and discard, or the 機獣 side), rendered on the server, one
section per turn. Without JavaScript the final table or board shows and the whole report is listed; with it a
step control moves turn by turn.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from django.utils.translation import pgettext

from builder import selectors
from builder.services import ListNotFound, ListServiceError
from builder.services.positions import MAX_WEB_POSITION_GAMES
from rules_engine.replay import replay_events
from rules_engine.simulation import ENGINE_VERSION, SimulationInputError

from . import gamereport, presenters, vocabulary
from .common import error_page
from .presenters import opponent_name
from .simulations import with_shown_list


def replay(request: HttpRequest, public_id: str, index: int) -> HttpResponse:
    """`/simulations/<id>/games/<index>/`: visible to whoever may see the run (simulation_get_shared).

    `?game=N` (the "Replay game N" form on the run's page) redirects to game N's own address: a person counts the
    games from 1 (game 1 is index 0 of the address, of positions and of the engine).
    """
    if "game" in request.GET:
        return _to_game(request, public_id, request.GET["game"])
    try:
        run = with_shown_list(selectors.simulation_get_shared(public_id=public_id, user=request.user), request.user)
        if not 0 <= index < run.games:
            raise ListNotFound(pgettext("replay", "This run has games 1 to %(last)s; there is no game %(n)s.")
                               % {"last": run.games, "n": index + 1}, code="replay.no_game")
        game = replay_events(run.snapshot, run.seed, index)
    except ListServiceError as error:
        return error_page(request, error)
    except SimulationInputError as error:
        return error_page(request, ListServiceError(
            pgettext("replay", "This game cannot be replayed: the run's snapshot no longer fits the engine (%(why)s).")
            % {"why": error}, code="replay.unplayable"))
    snapshot = run.snapshot or {}
    cards = snapshot.get("cards") or {}
    opponent = snapshot.get("opponent") or {}
    coop = opponent.get("kind") in presenters.presentation(game["system"]).coop_opponent_kinds
    namer = gamereport.namer_for(game["system"], game, cards, coop=coop)
    turns = gamereport.report(game["system"], game, cards, coop=coop, namer=namer)
    drawing = replay_drawing(game, cards, namer)
    if drawing["table"].get("name"):
        drawing["table"]["name"] = gamereport.table_name(game["system"], drawing["table"]["name"])
    boards = hagmi_boards(game, namer, turns) if presenters.presentation(game["system"]).board == "cards" else []
    return render(request, "replays/replay.html", {
        "run": run, "index": index, "number": index + 1, "game": game, "drawing": drawing, "boards": boards,
        "final": final_pieces(drawing), "gates": drawing["frames"][-1]["gates"] if drawing["frames"] else [],
        "attacks": drawing["frames"][-1]["attacks"] if drawing["frames"] else [], "turns": turns,
        "legend": legend(drawing), "outcome": gamereport.outcome(game["system"], game, coop=coop),
        "opponent_name": opponent_name(run.system, run.opponent, opponent),
        "policy_name": vocabulary.label(game["system"], "policy", run.policy),
        "steps": len(turns), "last_step": len(turns) - 1,
        "previous": index - 1 if index > 0 else None, "next": index + 1 if index + 1 < run.games else None,
        "stale_engine": run.engine_version != ENGINE_VERSION,
        "max_position_games": MAX_WEB_POSITION_GAMES, "positions": presenters.capable(game["system"], "positions"),
        "run_win_rate": _percent((run.result or {}).get("win_rate")),
    })


def _percent(value: Any) -> str:
    return f"{100 * value:.1f}%" if isinstance(value, (int, float)) and not isinstance(value, bool) else "–"


def _to_game(request: HttpRequest, public_id: str, raw: str) -> HttpResponse:
    try:
        index = int(raw)
    except ValueError:
        return error_page(request, ListServiceError(
            pgettext("replay", "Give the game as a number (1, 2, 3, ...), not %(raw)s.") % {"raw": repr(raw[:40])},
            code="replay.bad_number"))
    if index < 1:
        return error_page(request, ListNotFound(
            pgettext("replay", "There is no game %(n)s: games are numbered from 1.") % {"n": index},
            code="replay.no_game"))
    return redirect("replay", public_id=public_id, index=index - 1)  # game 1 is the run's game index 0


# --- drawing data ------------------------------------------------------------------------------------------


def replay_drawing(game: Mapping[str, Any], cards: Mapping[str, Any],
                   namer: gamereport.Namer | None = None) -> dict[str, Any]:
    """{table, pieces, frames}: a piece per MWDA unit or Warcaster model; a frame after each turn of the log.

    A piece is named after its unit in the UI language ("Steel Wolves Strike Troopers 2" where a side has two),
    with a short label for its token (gamereport.piece_labels). y is flipped for the drawing (the list's side,
    player 0, deploys at the bottom of the picture).
    """
    table = game["table"]
    reader = _READERS.get(game["system"])
    if reader is None or not table["width"]:
        return {"table": table, "pieces": [], "frames": []}
    board = _Board(height=table["height"])
    frames: list[dict[str, Any]] = []
    for turn, events in _by_turn(game["events"]):
        attacks: list[dict[str, Any]] = []
        for event in events:
            reader(board, event, attacks, cards)
        frames.append(board.frame(turn, attacks))
    namer = namer or gamereport.namer_for(game["system"], game, cards)
    labels = gamereport.piece_labels(namer.pieces)
    for piece in board.pieces:
        if piece["id"] in namer.pieces:
            piece["name"], piece["label"] = namer.pieces[piece["id"]][1], labels[piece["id"]]
    height, depth = table["height"], table.get("deploy_depth")
    zones = [{"side": 0, "y": height - depth, "h": depth}, {"side": 1, "y": 0, "h": depth}] if depth else []
    return {"table": {**table, "zones": zones,
                      "terrain": [_flip_shape(shape, height) for shape in table["terrain"]]},
            "pieces": board.pieces, "frames": frames}


def final_pieces(drawing: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every piece that reached the table, where it stood at the end (the SVG drawn without JavaScript)."""
    if not drawing["frames"]:
        return []
    pieces = {piece["id"]: piece for piece in drawing["pieces"]}
    return [{**pieces[pid], "x": x, "y": y, "hp": hp, "alive": alive}
            for pid, x, y, hp, alive in drawing["frames"][-1]["at"]]


class _Board:
    """Where every piece stands now, its health and whether it is still on the table."""

    def __init__(self, height: float) -> None:
        self.height = height
        self.pieces: list[dict[str, Any]] = []
        self.place: dict[int, list[Any]] = {}  # piece id -> [x, y, health, alive]
        self.gates: dict[int, list[Any]] = {}  # gate id -> [side, x, y, arc]

    def add(self, piece_id: int, side: int, code: str, name: str, radius: float, health: int) -> None:
        label = code.rsplit("-", 1)[-1][:4]
        self.pieces.append({"id": piece_id, "side": side, "code": code, "name": name, "label": label,
                            "r": radius, "max": health})
        self.place[piece_id] = [None, None, health, True]

    def point(self, at: Iterable[float]) -> list[float]:
        x, y = at
        return [round(x, 3), round(self.height - y, 3)]

    def move(self, piece_id: int, at: Iterable[float]) -> None:
        if piece_id in self.place:
            self.place[piece_id][0:2] = self.point(at)

    def health(self, piece_id: int, value: int) -> None:
        if piece_id in self.place:
            self.place[piece_id][2] = max(0, value)

    def remove(self, piece_id: int) -> None:
        if piece_id in self.place:
            self.place[piece_id][3] = False

    def frame(self, turn: int, attacks: list[dict[str, Any]]) -> dict[str, Any]:
        return {"turn": turn,
                "at": [[pid, x, y, hp, alive] for pid, (x, y, hp, alive) in self.place.items() if x is not None],
                "gates": [[gid, *gate] for gid, gate in self.gates.items()], "attacks": attacks}


def _mwda_event(board: _Board, event: Mapping[str, Any], attacks: list, cards: Mapping[str, Any]) -> None:
    """MWDA units (docs/engine-mwda.md event log): health is the clicks left on the dial (M16)."""
    kind, data = event["kind"], event["data"]
    if kind == "deploy":
        board.add(data["unit"], event["player"], data["code"], _name(cards, data["code"], data.get("name")),
                  data["radius"], data["clicks"])
        board.move(data["unit"], data["at"])
    elif kind == "move" and not data.get("blocked"):
        board.move(data["unit"], data["to"])
    elif kind == "attack":  # M15/M16: a line from the attacker to its target
        attacks.append({"from": board.point(data["origin"]), "to": board.point(data["to"]), "hit": data["hit"],
                        "side": event["player"]})
    elif kind == "damage":
        board.health(data["unit"], data["clicks"] - data["click"])
    elif kind == "eliminated":
        board.remove(data["unit"])


def _warcaster_event(board: _Board, event: Mapping[str, Any], attacks: list, cards: Mapping[str, Any]) -> None:
    """Warcaster models and void gates (docs/engine-warcaster.md event log)."""
    kind, data = event["kind"], event["data"]
    if kind == "setup":
        for side, units in enumerate(data.get("sides") or []):
            for unit in units.get("units") or []:
                for model in unit.get("models") or []:
                    board.add(model["model"], side, model["code"], _name(cards, model["code"], unit.get("name")),
                              model["radius"], model["health"])
    elif kind in ("deploy", "move"):
        for piece_id, x, y in data.get("models") or []:
            board.move(piece_id, (x, y))
    elif kind == "gate":
        board.gates[data["gate"]] = [event["player"], *board.point(data["at"]), data.get("arc", 0)]
    elif kind in ("gate_paid", "charge", "recall") and data.get("holder", "gate") == "gate":
        gate = board.gates.get(data.get("gate", data.get("uid")))
        if gate is not None and "arc" in data:
            gate[3] = data["arc"]
    elif kind == "attack" and data.get("from") and data.get("to"):  # W11: a line from attacker to target
        attacks.append({"from": board.point(data["from"]), "to": board.point(data["to"]), "hit": data["hit"],
                        "side": event["player"]})
    elif kind in ("damage", "heal") and "health" in data:
        board.health(data["model"], data["health"])
    elif kind == "destroyed":
        board.remove(data["model"])


_READERS = {"mwda": _mwda_event, "warcaster": _warcaster_event}


def _by_turn(events: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    groups: list[tuple[int, list[dict[str, Any]]]] = []
    for event in events:
        if not groups or groups[-1][0] != event["turn"]:
            groups.append((event["turn"], []))
        groups[-1][1].append(event)
    return groups


def _flip_shape(shape: Mapping[str, Any], height: float) -> dict[str, Any]:
    if shape.get("shape") == "rect":
        return {**shape, "y0": round(height - shape["y1"], 3), "y1": round(height - shape["y0"], 3),
                "w": round(shape["x1"] - shape["x0"], 3), "h": round(shape["y1"] - shape["y0"], 3)}
    if shape.get("shape") == "circle":
        return {**shape, "cy": round(height - shape["cy"], 3)}
    return dict(shape)


def _name(cards: Mapping[str, Any], code: str, fallback: Any) -> str:
    """The card's name in both languages when the snapshot has them: "ja / en"."""
    card = cards.get(code) or {}
    ja, en = card.get("name") or fallback or code, card.get("name_en")
    return f"{ja} / {en}" if en and en != ja else str(ja)


def legend(drawing: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The tokens' key under the table: each side's pieces with their labels and full names."""
    sides = [{"side": 0, "title": pgettext("replay", "You"), "pieces": []},
             {"side": 1, "title": pgettext("replay", "The opponent"), "pieces": []}]
    for piece in drawing["pieces"]:
        sides[1 if piece["side"] else 0]["pieces"].append(piece)
    return [side for side in sides if side["pieces"]]


# --- the HAGMI board ---------------------------------------------------------------------------------------


def hagmi_boards(game: Mapping[str, Any], namer: gamereport.Namer, turns: list[Mapping[str, Any]]
                 ) -> list[dict[str, Any]]:
    """One board per turn of the report (rules_engine.replay `boards`: the state at the end of each turn), with
    names and counts in words; the opponent's side first, as across a table."""
    by_turn = {board["turn"]: board for board in game.get("boards") or []}
    frames = []
    for step, turn in enumerate(turns):
        board = by_turn.get(turn["turn"])
        if board is None:
            continue
        sides = [_hagmi_side(namer, index, side) for index, side in enumerate(board["sides"])]
        frames.append({"step": step, "heading": turn["heading"], "sides": list(reversed(sides))})
    return frames


def _hagmi_side(namer: gamereport.Namer, index: int, side: Mapping[str, Any]) -> dict[str, Any]:
    title = pgettext("replay", "You") if index == 0 else (
        pgettext("replay", "The beasts") if side["kind"] == "coop" else pgettext("replay", "The opponent"))
    units = [{
        "name": namer.card(unit["code"], pilot=True), "fuel": unit["fuel"], "armor": unit["armor"],
        "armor_max": unit["armor_max"], "firepower": unit["firepower"], "down": unit["down"], "cores": unit["cores"],
        "armaments": [{"name": namer.card(a["code"]), "durability": a["durability"]} for a in unit["armaments"]],
    } for unit in side["units"]]
    if side["kind"] == "coop":
        counts = [(pgettext("replay board", "Mothership cores"), side["cores"]),
                  (pgettext("replay board", "Beast deck"), side["deck"]),
                  (pgettext("replay board", "Chargers"), side["chargers"]),
                  (pgettext("replay board", "Discard"), side["discard"])]
        return {"side": index, "title": title, "coop": True, "mothership": namer.card(side["mothership"]),
                "counts": counts, "units": units, "facilities": [], "loose": []}
    counts = [(pgettext("replay board", "Hand"), side["hand"]), (pgettext("replay board", "Secret"), side["secret"]),
              (pgettext("replay board", "Weapons deck"), side["weapons"]),
              (pgettext("replay board", "Tactics deck"), side["tactics"]),
              (pgettext("replay board", "Damage deck"), side["damage_deck"]),
              (pgettext("replay board", "Discard"), side["discard"])]
    if side["removed"]:
        counts.append((pgettext("replay board", "Removed from the game"), side["removed"]))
    return {"side": index, "title": title, "coop": False, "goldfish": side["kind"] == "goldfish", "counts": counts,
            "units": units, "facilities": [namer.card(code) for code in side["facilities"]],
            "loose": [namer.card(code) for code in side["loose"]]}
