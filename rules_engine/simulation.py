"""Simulations as data in, mergeable summary out: the one entry point for the `simulate` command and Celery.

A **snapshot** (`hangar.snapshot/1`) is everything a worker needs to play a list, frozen at submit time, so that a
worker on any machine plays it without the database (docs/design.md §2.6, §4.2):

    {
      "schema": "hangar.snapshot/1",
      "system": "hagmi",
      "list": { hangar.list/1 document },
      "cards": { "HS-001": { card dict as in its package }, ... },   # every card the list and the opponent use
      "opponent": { opponent dict as in its package: "slug", "kind", ... },
      "policy": "greedy",
      "opponent_policy": "random",   # optional: who plays the other side when it is played by a policy (a deck,
                                     # an army, a force); absent: the same policy as the list's
      "seats": "list-first",         # optional: who goes first, "both" (absent: every deal played from both
                                     # seats), "list-first" or "random" (rules_engine.core.seats)
      "options": { ruleset options (RULES.md interpretations) }
    }

Each game system registers a `Simulator`. A run of G games with seed S is cut into chunks of consecutive game
indices so that one chunk takes about 1–5 s: the simulator's size for the opponent (`chunk_size_for`), made smaller
when timing the first games of the snapshot shows that its games are slower than that size assumes
(`measured_chunk_size`; a huge deck). Game i always plays with `game_plan(S, i, seats)` (its deal, who goes first
and its separate streams: dice, each side's set-up, each side's policy; rules_engine.core.seats) and summaries merge
exactly (integer arithmetic, rules_engine.core.stats), so the result is the same byte for byte whatever the chunk
size, the number of processes or workers, or the order in which chunks finish. A simulator that is not a
`BaseSimulator` (no `play_game`) plays game i with the one generator `game_rng(S, i)`.

A list far larger than any format of its game (`Simulator.max_list_size`) is refused (`ListTooLargeToSimulate`)
before anything is prepared: its games would be slow enough to tie up workers for hours.
"""
from __future__ import annotations

import hashlib
import json
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from rules_engine.core.report import SEAT_OUTCOME
from rules_engine.core.rng import game_rng
from rules_engine.core.runner import SimulationError, chunk_ranges, merge_summaries, run_games
from rules_engine.core.seats import DEFAULT_SEATS, GamePlan, check_seats, game_plan, seat_pairs
from rules_engine.core.stats import Summary

SNAPSHOT_SCHEMA = "hangar.snapshot/1"
ENGINE_VERSION = "2026.12.7"  # bump whenever a change to any engine can change a simulation's result
CHUNK_SIZE = 500  # the default games per chunk; a simulator may choose another per opponent (chunk_size)
MAX_GAMES = 100_000

# Chunk sizing from the measured cost of a game (docs/simulations.md, "Chunks"): a chunk should be 1–5 s of work.
CHUNK_SECONDS_MAX = 5.0  # a chunk estimated longer than this is cut smaller ...
CHUNK_TARGET_SECONDS = 2.0  # ... to about this many seconds of games (at least one game)
PROBE_SECONDS = 0.2  # the timing probe plays games until this much time has passed ...
PROBE_MAX_GAMES = 64  # ... or this many games were played (at least one)


class SimulationInputError(ValueError):
    """The snapshot cannot be simulated: the message says what is wrong and where (field, card code)."""


class ListTooLargeToSimulate(SimulationInputError):
    """The list is far larger than any format of its game: refused for simulation (`Simulator.max_list_size`)."""

    def __init__(self, message: str, *, system: str, size: int, limit: int) -> None:
        super().__init__(message)
        self.system, self.size, self.limit = system, size, limit


class Simulator(Protocol):
    """One game system's simulation: prepare a snapshot once, then play any game index of the run."""

    system: str

    def prepare(self, snapshot: Mapping[str, Any]) -> Any:
        """Check and compile the snapshot (cards → engine data); raise SimulationInputError on bad input."""

    def play_one(self, prepared: Any, game_index: int, rng: Any) -> Mapping[str, Any]:
        """Play one game; return its record (JSON-ready)."""

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        """Add one game's record to a summary."""

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        """The final, JSON-ready report of a whole run."""

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        """The card codes an opponent uses (its deck, damage deck, mothership, beasts...)."""

    def chunk_size(self, opponent: Mapping[str, Any]) -> int:
        """Games per chunk against this opponent: about 1–5 s of work (one Celery task) for a list of a format's
        size; `measured_chunk_size` makes it smaller for a snapshot whose games are slower."""

    # Optional: `max_list_size` (int), the most cards / units a simulated list may hold in all (several times the
    # largest format's size; None or absent: no limit), and `list_size_noun` ("cards") for the refusal message.
    # Optional (a BaseSimulator has them): `seats_apply(opponent)`, `order_fixed_by(opponent)` and
    # `play_game(prepared, plan)`, which plays a game from its GamePlan (seats and separate streams).


class PreparedGame(NamedTuple):
    """A snapshot compiled once per process: the game (cards parsed), one policy per player, the run's seat mode and
    whether seats apply against its opponent."""

    game: Any
    policies: list[Any]
    seats: str = DEFAULT_SEATS
    seats_apply: bool = True


class BaseSimulator:
    """The shared half of a Simulator: snapshot checks, policy lookup, playing one game to its record.

    A system sets `system`, `policy_aliases` ("greedy" → its own greedy), `default_policy`, `default_options`
    (when its game does not check option names itself) and `input_errors` (engine exception → field prefix of
    the SimulationInputError), and implements new_game, record, referenced_cards, summarise and result.
    """

    system = ""
    title = ""  # the game's name in messages
    policy_aliases: Mapping[str, str] = {}
    default_policy = "random"
    default_options: Mapping[str, Any] | None = None
    input_errors: tuple[tuple[type[Exception], str], ...] = ()
    max_steps = 100_000
    max_list_size: int | None = None  # a system sets it from its formats (see Simulator)
    list_size_noun = "cards"
    # Opponent kinds a policy plays (another list: a deck, an army, a force). Against them who goes first is the
    # run's seat mode; the others (a goldfish, HAGMI's 機獣) take no decisions and keep the game's own order.
    policy_opponents: frozenset[str] = frozenset()
    fixed_order: Mapping[str, str] = {}  # opponent kind -> why the order is fixed: "rules" or "no_turns"

    def new_game(self, document: Mapping[str, Any], cards: Mapping[str, Any], opponent: Any, options: Mapping[str, Any]):
        raise NotImplementedError

    def record(self, state: Any) -> dict[str, Any]:
        raise NotImplementedError

    def seats_apply(self, opponent: Any) -> bool:
        """Whether who goes first is the run's to choose against `opponent` (a policy plays it)."""
        return isinstance(opponent, Mapping) and opponent.get("kind") in self.policy_opponents

    def order_fixed_by(self, opponent: Any) -> str | None:
        """Why the order is fixed against `opponent`: "rules" (the rules say who goes first), "no_turns" (the
        opponent takes no turns); None when seats apply."""
        if self.seats_apply(opponent):
            return None
        kind = opponent.get("kind") if isinstance(opponent, Mapping) else None
        return self.fixed_order.get(kind, "no_turns")

    def first_player_of(self, state: Any) -> int:
        """Who took the first turn of a game (a system reads it from its state)."""
        return int(state.first)

    def policy_name(self, name: Any) -> str:
        """Short names ("greedy") mean this system's players; other names are the core registry's."""
        if not isinstance(name, str) or not name:
            return self.default_policy
        return self.policy_aliases.get(name, name)

    def prepare(self, snapshot: Mapping[str, Any]) -> PreparedGame:
        from rules_engine.core.policies import get_policy

        cards = snapshot.get("cards")
        if not isinstance(cards, Mapping):
            raise SimulationInputError("snapshot.cards: expected an object of card code → card")
        options = snapshot.get("options") or {}
        if not isinstance(options, Mapping):
            raise SimulationInputError("snapshot.options: expected an object")
        if self.default_options is not None:
            unknown = set(options) - set(self.default_options)
            if unknown:
                raise SimulationInputError(
                    f"snapshot.options: unknown {self.title or self.system} option(s) {', '.join(sorted(unknown))}"
                )
        try:
            policy = get_policy(self.policy_name(snapshot.get("policy")))
        except ValueError as exc:
            raise SimulationInputError(f"policy: {exc}") from None
        opponent_policy = policy
        if snapshot.get("opponent_policy") not in (None, ""):  # a different player on the other side
            try:
                opponent_policy = get_policy(self.policy_name(snapshot.get("opponent_policy")))
            except ValueError as exc:
                raise SimulationInputError(f"opponent_policy: {exc}") from None
        try:
            seats = check_seats(snapshot.get("seats"))
        except ValueError as exc:
            raise SimulationInputError(f"seats: {exc}") from None
        applies = self.seats_apply(snapshot.get("opponent"))
        try:
            game = self.new_game(snapshot.get("list") or {}, cards, snapshot.get("opponent"), options)
        except tuple(error for error, _ in self.input_errors) as exc:
            prefix = next(where for error, where in self.input_errors if isinstance(exc, error))
            raise SimulationInputError(f"{prefix}: {exc}" if prefix else str(exc)) from None
        return PreparedGame(game, [policy, opponent_policy], seats, applies)

    chunk_sizes: Mapping[str, int] = {}  # opponent kind -> games per chunk (measured: docs/benchmarks.md)

    def chunk_size(self, opponent: Mapping[str, Any]) -> int:
        kind = opponent.get("kind") if isinstance(opponent, Mapping) else None
        return self.chunk_sizes.get(kind, CHUNK_SIZE)

    def plan(self, prepared: PreparedGame, seed: int, game_index: int) -> GamePlan:
        """Game `game_index`'s deal, seat and streams in the run seeded `seed` (rules_engine.core.seats)."""
        return game_plan(seed, game_index, prepared.seats, prepared.seats_apply)

    def new_state(self, prepared: PreparedGame, plan: GamePlan) -> Any:
        """The game dealt from `plan`: its dice, each side's set-up stream and, when seats apply, its first player."""
        return prepared.game.new_initial_state(plan.dice, first_player=plan.first, setup_rngs=plan.setup)

    def seat_of(self, plan: GamePlan, state: Any) -> str:
        """"first" or "second": the list's seat in a game (the plan's, else the game's own choice)."""
        first = plan.first if plan.first is not None else self.first_player_of(state)
        return "first" if first == 0 else "second"

    def play_game(self, prepared: PreparedGame, plan: GamePlan) -> dict[str, Any]:
        """Play one game from its plan; its record, with the list's `seat`."""
        from rules_engine.core.game import play_out

        state = play_out(self.new_state(prepared, plan), prepared.policies, plan.policies, max_steps=self.max_steps)
        record = self.record(state)
        record["seat"] = self.seat_of(plan, state)
        return record

    def play_one(self, prepared: PreparedGame, game_index: int, rng: Any) -> dict[str, Any]:
        """Play one game: from its GamePlan (as a run does), or with one generator for the dice, the shuffles and
        both policies (the game's own first player)."""
        if isinstance(rng, GamePlan):
            return self.play_game(prepared, rng)
        from rules_engine.core.game import play_out

        state = play_out(prepared.game.new_initial_state(rng), prepared.policies, rng, max_steps=self.max_steps)
        return self.record(state)


SIMULATORS: dict[str, Simulator] = {}


def register_simulator(simulator: Simulator) -> Simulator:
    SIMULATORS[simulator.system] = simulator
    return simulator


# slug -> the module that registers the game's simulator when imported: filled by the registry of game systems
# (rules_engine/systems.py `register`, from each entry's `simulator_module`), so this module never imports it.
SIMULATOR_MODULES: dict[str, str] = {}


def simulator_for(system: str) -> Simulator:
    import importlib

    if system not in SIMULATORS and isinstance(system, str) and system not in SIMULATOR_MODULES:
        # A process that has not loaded the registry yet (a spawned process of a local pool imports only the module
        # of its task): loading it names every game's simulator module (rules_engine/systems.py, by name: the
        # registry imports this module, not the other way round).
        importlib.import_module("rules_engine.systems")
    if system not in SIMULATORS and isinstance(system, str) and system in SIMULATOR_MODULES:
        importlib.import_module(SIMULATOR_MODULES[system])  # kept lazy: importing this module stays cheap
    try:
        return SIMULATORS[system]
    except (KeyError, TypeError):
        known = ", ".join(sorted(SIMULATORS)) or "none yet"
        raise SimulationInputError(f"system: no simulator for {system!r}; simulators exist for: {known}") from None


def snapshot_hash(snapshot: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a snapshot: identical requests share a stored result (docs/design.md §4.2)."""
    canonical = json.dumps(snapshot, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def list_codes(document: Mapping[str, Any]) -> set[str]:
    """Every card code a hangar.list/1 document names (options included: a warjack's cortex and weapons)."""
    codes: set[str] = set()
    sections = document.get("sections") if isinstance(document, Mapping) else None
    for entries in (sections or {}).values():
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, Mapping):
                continue
            if isinstance(entry.get("card"), str):
                codes.add(entry["card"])
            options = entry.get("options")
            if isinstance(options, Mapping):
                for value in options.values():
                    values = value if isinstance(value, list) else [value]
                    codes.update(item for item in values if isinstance(item, str))
    return codes


def build_snapshot(
    document: Mapping[str, Any],
    cards: Mapping[str, Mapping[str, Any]],
    opponent: Mapping[str, Any],
    *,
    policy: str,
    options: Mapping[str, Any] | None = None,
    opponent_policy: str | None = None,
    seats: str | None = None,
) -> dict[str, Any]:
    """Freeze a list, the cards it and the opponent need, the opponent and the policy into a snapshot.
    `opponent_policy` (None: the list's policy plays both sides) is kept only when given, so a snapshot without
    it hashes as before; `seats` only when it is not the default (`both`), for the same reason. A bad seat mode
    raises SimulationInputError naming `seats`."""
    try:
        seats = check_seats(seats)
    except ValueError as exc:
        raise SimulationInputError(f"seats: {exc}") from None
    system = document.get("system")
    simulator = simulator_for(system)
    needed = list_codes(document) | simulator.referenced_cards(opponent)
    snapshot = {
        "schema": SNAPSHOT_SCHEMA,
        "system": system,
        "list": _plain(document),
        "cards": {code: _plain(cards[code]) for code in sorted(needed) if code in cards},
        "opponent": _plain(opponent),
        "policy": policy,
        "options": _plain(options or {}),
    }
    if opponent_policy:
        snapshot["opponent_policy"] = opponent_policy
    if seats != DEFAULT_SEATS:
        snapshot["seats"] = seats
    return snapshot


def _plain(value: Any) -> Any:
    """JSON-ready copy of engine data (read-only mappings and tuples become dicts and lists)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def list_size(document: Any) -> int:
    """How many cards (units, models...) a hangar.list/1 document holds: its entries' quantities added up over all
    sections (an entry without a valid quantity counts as one)."""
    sections = document.get("sections") if isinstance(document, Mapping) else None
    total = 0
    for entries in sections.values() if isinstance(sections, Mapping) else ():
        for entry in entries if isinstance(entries, list) else ():
            qty = entry.get("qty", 1) if isinstance(entry, Mapping) else 1
            total += qty if isinstance(qty, int) and not isinstance(qty, bool) and qty > 0 else 1
    return total


def check_list_size(snapshot: Mapping[str, Any], simulator: Simulator | None = None) -> None:
    """Refuse (ListTooLargeToSimulate) a list larger than its simulator's `max_list_size`: far beyond any format,
    its games would be slow enough to hold workers for hours. Cheap: it only adds up quantities."""
    simulator = simulator or simulator_for(snapshot.get("system"))
    limit = getattr(simulator, "max_list_size", None)
    if not limit:
        return
    size = list_size(snapshot.get("list"))
    if size > limit:
        noun = getattr(simulator, "list_size_noun", "cards")
        title = getattr(simulator, "title", "") or simulator.system
        raise ListTooLargeToSimulate(
            f"list: {size} {noun} is far more than any {title} format allows; a list of at most {limit} {noun} "
            "can be simulated.",
            system=simulator.system, size=size, limit=limit,
        )


def check_run(snapshot: Any, *, games: Any, seed: Any) -> Simulator:
    """Validate the run's parameters and its snapshot's envelope (and the list's size); return the system's
    simulator."""
    if not isinstance(snapshot, Mapping):
        raise SimulationInputError("snapshot: expected a JSON object")
    if snapshot.get("schema") != SNAPSHOT_SCHEMA:
        raise SimulationInputError(f"snapshot.schema: expected {SNAPSHOT_SCHEMA!r}, got {snapshot.get('schema')!r}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SimulationInputError(f"games: expected an integer from 1 to {MAX_GAMES}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise SimulationInputError(f"seed: expected an integer from 0 to 2**63-1, got {seed!r}")
    try:
        check_seats(snapshot.get("seats"))
    except ValueError as exc:
        raise SimulationInputError(f"seats: {exc}") from None
    simulator = simulator_for(snapshot.get("system"))
    options = snapshot.get("options")
    if (isinstance(simulator, BaseSimulator) and isinstance(options, Mapping) and "first_player" in options
            and simulator.seats_apply(snapshot.get("opponent"))):
        # A run's seat mode says who goes first against a policy-played opponent (a game set up by hand, outside a
        # run, still follows the option).
        raise SimulationInputError(
            "snapshot.options.first_player: who goes first in a run against this opponent is set by `seats` "
            "(both, list-first or random); leave the option out"
        )
    check_list_size(snapshot, simulator)
    return simulator


def chunk_size_for(snapshot: Mapping[str, Any]) -> int:
    """Games per chunk by default: the simulator's choice for its opponent, about 1–5 s of work for a list of a
    format's size. It is also the largest chunk `measured_chunk_size` gives."""
    simulator = simulator_for(snapshot.get("system"))
    chunk_size = getattr(simulator, "chunk_size", None)
    return chunk_size(snapshot.get("opponent") or {}) if chunk_size else CHUNK_SIZE


def chunks(games: int, snapshot: Mapping[str, Any], chunk_size: int | None = None) -> list[range]:
    """The run's chunks of game indices: `chunk_size` games each (the run's stored size), else `chunk_size_for`.
    Any chunking merges to the same result."""
    return chunk_ranges(games, chunk_size or chunk_size_for(snapshot))


class GameCost(NamedTuple):
    """What the timing probe saw: `games` games played in `seconds`, and the median time of one of them
    (`per_game`: the first game of a process also pays for cold caches and lazy imports, and a busy machine may
    stall any one game, so the median, not the mean, says what a game of a chunk costs)."""

    games: int
    seconds: float
    per_game: float


def measure_game_cost(
    snapshot: Mapping[str, Any],
    *,
    seed: int = 0,
    budget: float = PROBE_SECONDS,
    max_games: int = PROBE_MAX_GAMES,
    clock: Callable[[], float] = time.perf_counter,
) -> GameCost:
    """Time games 0, 1, ... of the run seeded `seed` (the games its first chunk plays) until `budget` seconds have
    passed or `max_games` games were played, at least one: a fraction of a second for any list within
    `max_list_size`. The games' results are thrown away. A game that raises raises SimulationError naming it."""
    simulator, prepared = _prepared(snapshot)
    play, plan_for = game_player(simulator, prepared)
    played, started = 0, clock()
    durations: list[float] = []
    last = started
    while True:
        try:
            play(played, plan_for(seed, played))
        except Exception as exc:
            raise SimulationError(
                f"game {played} of the run seeded {seed} failed: {type(exc).__name__}: {exc}"
            ) from exc
        played += 1
        now = clock()
        durations.append(max(now - last, 0.0))
        last = now
        elapsed = now - started
        if elapsed >= budget or played >= max_games:
            return GameCost(played, max(elapsed, 0.0), statistics.median(durations))


def chunk_size_for_cost(ceiling: int, seconds_per_game: float) -> int:
    """Games per chunk given the measured cost of one game: `ceiling` (the simulator's size) while such a chunk is
    estimated at most CHUNK_SECONDS_MAX, else as many games as take about CHUNK_TARGET_SECONDS (at least one), so
    that a chunk of slow games stays within 1–5 s of work (a single game slower than that is one chunk)."""
    if seconds_per_game * ceiling <= CHUNK_SECONDS_MAX:
        return ceiling
    return max(1, min(ceiling, int(CHUNK_TARGET_SECONDS / seconds_per_game)))


def measured_chunk_size(
    snapshot: Mapping[str, Any],
    *,
    seed: int = 0,
    budget: float = PROBE_SECONDS,
    max_games: int = PROBE_MAX_GAMES,
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """Games per chunk for this snapshot: `chunk_size_for`, made smaller when its games are measured to be slow
    (`measure_game_cost`, `chunk_size_for_cost`). Timing varies, so it is chosen once and kept with the run."""
    cost = measure_game_cost(snapshot, seed=seed, budget=budget, max_games=max_games, clock=clock)
    return chunk_size_for_cost(chunk_size_for(snapshot), cost.per_game)


_PREPARED: dict[str, tuple[Simulator, Any]] = {}


def _prepared(snapshot: Mapping[str, Any], key: str | None = None) -> tuple[Simulator, Any]:
    """Prepare a snapshot once per process (a worker plays many chunks of the same run). `key` is the snapshot's
    hash when the caller has it (a stored run does): hashing a large snapshot for every chunk is wasted work."""
    key = key or snapshot_hash(snapshot)
    found = _PREPARED.get(key)
    if found is None:
        simulator = simulator_for(snapshot.get("system"))
        found = (simulator, simulator.prepare(snapshot))
        if len(_PREPARED) > 32:
            _PREPARED.clear()
        _PREPARED[key] = found
    return found


def game_player(simulator: Simulator, prepared: Any) -> tuple[Callable[[int, Any], Mapping[str, Any]],
                                                              Callable[[int, int], Any]]:
    """(play(index, plan), plan_for(seed, index)) for `run_games`: `play_one` is called with each game's GamePlan
    (its seats and separate streams) for a BaseSimulator, which plays it with `play_game`; another simulator gets the
    one generator `game_rng(seed, index)`."""
    def play(index: int, plan: Any) -> Mapping[str, Any]:
        return simulator.play_one(prepared, index, plan)

    if hasattr(simulator, "play_game") and isinstance(prepared, PreparedGame):
        seats, applies = prepared.seats, prepared.seats_apply
        return play, (lambda seed, index: game_plan(seed, index, seats, applies))
    return play, game_rng


def play_chunk(snapshot: Mapping[str, Any], *, seed: int, start: int, count: int,
               snapshot_key: str | None = None) -> Summary:
    """Play games start .. start+count-1 of the run seeded `seed` (one Celery task = one chunk). `snapshot_key`:
    the snapshot's `snapshot_hash`, when known."""
    simulator, prepared = _prepared(snapshot, snapshot_key)
    play, plan_for = game_player(simulator, prepared)
    return run_games(play, games=count, seed=seed, start=start, summarise=simulator.summarise, plan_for=plan_for)


def _play_chunk_task(snapshot: Mapping[str, Any], seed: int, start: int, count: int) -> Summary:
    return play_chunk(snapshot, seed=seed, start=start, count=count)


def simulate(
    snapshot: Mapping[str, Any],
    *,
    games: int,
    seed: int,
    workers: int = 1,
    on_chunk: Callable[[int, Summary], None] | None = None,
    chunk_size: int | None = None,
) -> dict[str, Any]:
    """Play a whole run in this process (workers=1) or in `workers` local processes; return its result, the same
    whatever `workers` and `chunk_size` (default `chunk_size_for`) are."""
    simulator = check_run(snapshot, games=games, seed=seed)
    simulator.prepare(snapshot)  # fail early, in this process, with a clear message
    if workers <= 1:
        summaries = []
        for index, chunk in enumerate(chunks(games, snapshot, chunk_size)):
            summary = play_chunk(snapshot, seed=seed, start=chunk.start, count=len(chunk))
            summaries.append(summary)
            if on_chunk:
                on_chunk(index, summary)
        merged = merge_summaries(summaries)
    else:
        merged = run_parallel_chunks(snapshot, games=games, seed=seed, workers=workers, on_chunk=on_chunk,
                                     chunk_size=chunk_size)
    return simulation_result(merged, snapshot, games=games, seed=seed)


def run_parallel_chunks(snapshot, *, games: int, seed: int, workers: int, on_chunk=None,
                        chunk_size: int | None = None) -> Summary:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    tasks = [(snapshot, seed, chunk.start, len(chunk)) for chunk in chunks(games, snapshot, chunk_size)]
    with ctx.Pool(processes=workers) as pool:
        summaries = pool.starmap(_play_chunk_task, tasks, chunksize=1)
    if on_chunk:
        for index, summary in enumerate(summaries):
            on_chunk(index, summary)
    return merge_summaries(summaries)


def simulation_result(summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
    """The run's report: the simulator's figures plus what identifies the run; for a game system (a
    BaseSimulator) also who played each side (`policies`) and, for games played from their plans (a run, not games
    played on from a position), the list's results by seat (`seats`)."""
    simulator = simulator_for(snapshot.get("system"))
    report = simulator.result(summary, snapshot, games=games, seed=seed)
    opponent = snapshot.get("opponent") or {}
    extra: dict[str, Any] = {}
    if isinstance(simulator, BaseSimulator):
        extra = {"policies": policies_of(simulator, snapshot)}
        if SEAT_OUTCOME in summary:  # games played from their plans (not from a position, whose turn is given)
            extra["seats"] = seats_of(simulator, summary, snapshot, games)
    return {
        "system": snapshot.get("system"),
        "opponent": opponent.get("slug"),
        "policy": snapshot.get("policy"),
        **({"opponent_policy": snapshot["opponent_policy"]} if snapshot.get("opponent_policy") else {}),
        "games": games,
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        **extra,
        **report,
    }


def policies_of(simulator: BaseSimulator, snapshot: Mapping[str, Any]) -> dict[str, str | None]:
    """Who plays each side, by the snapshot's names: the list's policy and the opponent's (its `opponent_policy`,
    else the list's); the opponent's is None when no policy plays it (the rules do: a goldfish, HAGMI's 機獣)."""
    opponent = snapshot.get("opponent") or {}
    mine = snapshot.get("policy") or simulator.default_policy
    theirs = snapshot.get("opponent_policy") or mine
    return {"list": mine, "opponent": theirs if simulator.seats_apply(opponent) else None}


def seats_of(simulator: BaseSimulator, summary: Summary, snapshot: Mapping[str, Any], games: int) -> dict[str, Any]:
    """The seat mode, whether it applies (else why the order is fixed), the deals played from both seats and the
    list's wins, losses, draws and win rate (95 % Wilson interval) going first and going second."""
    from rules_engine.core.report import seat_fields

    opponent = snapshot.get("opponent") or {}
    mode = check_seats(snapshot.get("seats"))
    applies = simulator.seats_apply(opponent)
    return {
        "mode": mode,
        "applies": applies,
        "fixed_by": simulator.order_fixed_by(opponent),
        "pairs": seat_pairs(games, mode, applies),
        **seat_fields(summary),
    }


__all__ = [
    "SNAPSHOT_SCHEMA", "ENGINE_VERSION", "CHUNK_SIZE", "MAX_GAMES", "SimulationInputError", "ListTooLargeToSimulate",
    "Simulator", "BaseSimulator", "PreparedGame", "chunk_size_for", "GameCost", "measure_game_cost",
    "chunk_size_for_cost", "measured_chunk_size", "list_size", "check_list_size", "CHUNK_SECONDS_MAX",
    "CHUNK_TARGET_SECONDS", "PROBE_SECONDS", "PROBE_MAX_GAMES",
    "SIMULATORS", "register_simulator", "simulator_for", "snapshot_hash", "list_codes", "build_snapshot", "check_run", "chunks", "play_chunk",
    "simulate", "simulation_result", "run_parallel_chunks", "game_player", "policies_of", "seats_of",
]
