"""Simulations as data in, mergeable summary out: the one entry point for the `simulate` command and Celery.

A **snapshot** (`hangar.snapshot/1`) is everything a worker needs to play a list, frozen at submit time, so that a
worker on any machine plays it without the database (DESIGN.md §4):

    {
      "schema": "hangar.snapshot/1",
      "system": "hagmi",
      "list": { hangar.list/1 document },
      "cards": { "HS-001": { card dict as in its package }, ... },   # every card the list and the opponent use
      "opponent": { opponent dict as in its package: "slug", "kind", ... },
      "policy": "greedy",
      "options": { ruleset options (RULES.md interpretations) }
    }

Each game system registers a `Simulator`. A run of G games with seed S is cut into chunks of consecutive game
indices, of a size the simulator chooses per opponent so that one chunk takes about 1–5 s (`chunk_size_for`: a
function of the snapshot only, never of the number of workers); game i always plays with `game_rng(S, i)` and chunk summaries are merged in chunk
order, so the result is the same byte for byte whatever the number of processes or workers.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from rules_engine.core.runner import chunk_ranges, merge_summaries, run_games
from rules_engine.core.stats import Summary

SNAPSHOT_SCHEMA = "hangar.snapshot/1"
ENGINE_VERSION = "2026.11.2"  # bump whenever a change to any engine can change a simulation's result
CHUNK_SIZE = 500  # the default games per chunk; a simulator may choose another per opponent (chunk_size)
MAX_GAMES = 100_000


class SimulationInputError(ValueError):
    """The snapshot cannot be simulated: the message says what is wrong and where (field, card code)."""


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
        """Games per chunk against this opponent: about 1–5 s of work (one Celery task)."""


class PreparedGame(NamedTuple):
    """A snapshot compiled once per process: the game (cards parsed) and one policy per player."""

    game: Any
    policies: list[Any]


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

    def new_game(self, document: Mapping[str, Any], cards: Mapping[str, Any], opponent: Any, options: Mapping[str, Any]):
        raise NotImplementedError

    def record(self, state: Any) -> dict[str, Any]:
        raise NotImplementedError

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
        try:
            game = self.new_game(snapshot.get("list") or {}, cards, snapshot.get("opponent"), options)
        except tuple(error for error, _ in self.input_errors) as exc:
            prefix = next(where for error, where in self.input_errors if isinstance(exc, error))
            raise SimulationInputError(f"{prefix}: {exc}" if prefix else str(exc)) from None
        return PreparedGame(game, [policy, policy])

    chunk_sizes: Mapping[str, int] = {}  # opponent kind -> games per chunk (measured: docs/benchmarks.md)

    def chunk_size(self, opponent: Mapping[str, Any]) -> int:
        kind = opponent.get("kind") if isinstance(opponent, Mapping) else None
        return self.chunk_sizes.get(kind, CHUNK_SIZE)

    def play_one(self, prepared: PreparedGame, game_index: int, rng: Any) -> dict[str, Any]:
        from rules_engine.core.game import play_out

        state = play_out(prepared.game.new_initial_state(rng), prepared.policies, rng, max_steps=self.max_steps)
        return self.record(state)


SIMULATORS: dict[str, Simulator] = {}


def register_simulator(simulator: Simulator) -> Simulator:
    SIMULATORS[simulator.system] = simulator
    return simulator


def simulator_for(system: str) -> Simulator:
    _load_builtin_simulators()
    try:
        return SIMULATORS[system]
    except KeyError:
        known = ", ".join(sorted(SIMULATORS)) or "none yet"
        raise SimulationInputError(f"system: no simulator for {system!r}; simulators exist for: {known}") from None


def _load_builtin_simulators() -> None:
    """Import the engines that register a simulator (kept lazy so importing this module stays cheap)."""
    import importlib

    for module in ("rules_engine.hagmi.simulation", "rules_engine.mwda.simulation", "rules_engine.warcaster.simulation"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def snapshot_hash(snapshot: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a snapshot: identical requests share a stored result (DESIGN.md §4)."""
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
) -> dict[str, Any]:
    """Freeze a list, the cards it and the opponent need, the opponent and the policy into a snapshot."""
    system = document.get("system")
    simulator = simulator_for(system)
    needed = list_codes(document) | simulator.referenced_cards(opponent)
    return {
        "schema": SNAPSHOT_SCHEMA,
        "system": system,
        "list": _plain(document),
        "cards": {code: _plain(cards[code]) for code in sorted(needed) if code in cards},
        "opponent": _plain(opponent),
        "policy": policy,
        "options": _plain(options or {}),
    }


def _plain(value: Any) -> Any:
    """JSON-ready copy of engine data (read-only mappings and tuples become dicts and lists)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def check_run(snapshot: Any, *, games: Any, seed: Any) -> Simulator:
    """Validate the run's parameters and its snapshot's envelope; return the system's simulator."""
    if not isinstance(snapshot, Mapping):
        raise SimulationInputError("snapshot: expected a JSON object")
    if snapshot.get("schema") != SNAPSHOT_SCHEMA:
        raise SimulationInputError(f"snapshot.schema: expected {SNAPSHOT_SCHEMA!r}, got {snapshot.get('schema')!r}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SimulationInputError(f"games: expected an integer from 1 to {MAX_GAMES}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise SimulationInputError(f"seed: expected an integer from 0 to 2**63-1, got {seed!r}")
    return simulator_for(snapshot.get("system"))


def chunk_size_for(snapshot: Mapping[str, Any]) -> int:
    """Games per chunk for this run: the simulator's choice for its opponent (a function of the snapshot only,
    so the in-process `simulate` and the Celery workers cut a run the same way and merge to the same result)."""
    simulator = simulator_for(snapshot.get("system"))
    chunk_size = getattr(simulator, "chunk_size", None)
    return chunk_size(snapshot.get("opponent") or {}) if chunk_size else CHUNK_SIZE


def chunks(games: int, snapshot: Mapping[str, Any]) -> list[range]:
    """The run's chunks of game indices."""
    return chunk_ranges(games, chunk_size_for(snapshot))


_PREPARED: dict[str, tuple[Simulator, Any]] = {}


def _prepared(snapshot: Mapping[str, Any]) -> tuple[Simulator, Any]:
    """Prepare a snapshot once per process (a worker plays many chunks of the same run)."""
    key = snapshot_hash(snapshot)
    found = _PREPARED.get(key)
    if found is None:
        simulator = simulator_for(snapshot.get("system"))
        found = (simulator, simulator.prepare(snapshot))
        if len(_PREPARED) > 32:
            _PREPARED.clear()
        _PREPARED[key] = found
    return found


def play_chunk(snapshot: Mapping[str, Any], *, seed: int, start: int, count: int) -> Summary:
    """Play games start .. start+count-1 of the run seeded `seed` (one Celery task = one chunk)."""
    simulator, prepared = _prepared(snapshot)
    return run_games(
        lambda index, rng: simulator.play_one(prepared, index, rng),
        games=count,
        seed=seed,
        start=start,
        summarise=simulator.summarise,
    )


def _play_chunk_task(snapshot: Mapping[str, Any], seed: int, start: int, count: int) -> Summary:
    return play_chunk(snapshot, seed=seed, start=start, count=count)


def simulate(
    snapshot: Mapping[str, Any],
    *,
    games: int,
    seed: int,
    workers: int = 1,
    on_chunk: Callable[[int, Summary], None] | None = None,
) -> dict[str, Any]:
    """Play a whole run in this process (workers=1) or in `workers` local processes; return its result."""
    simulator = check_run(snapshot, games=games, seed=seed)
    simulator.prepare(snapshot)  # fail early, in this process, with a clear message
    if workers <= 1:
        summaries = []
        for index, chunk in enumerate(chunks(games, snapshot)):
            summary = play_chunk(snapshot, seed=seed, start=chunk.start, count=len(chunk))
            summaries.append(summary)
            if on_chunk:
                on_chunk(index, summary)
        merged = merge_summaries(summaries)
    else:
        merged = run_parallel_chunks(snapshot, games=games, seed=seed, workers=workers, on_chunk=on_chunk)
    return simulation_result(merged, snapshot, games=games, seed=seed)


def run_parallel_chunks(snapshot, *, games: int, seed: int, workers: int, on_chunk=None) -> Summary:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    tasks = [(snapshot, seed, chunk.start, len(chunk)) for chunk in chunks(games, snapshot)]
    with ctx.Pool(processes=workers) as pool:
        summaries = pool.starmap(_play_chunk_task, tasks, chunksize=1)
    if on_chunk:
        for index, summary in enumerate(summaries):
            on_chunk(index, summary)
    return merge_summaries(summaries)


def simulation_result(summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
    """The run's report: the simulator's figures plus what identifies the run."""
    simulator = simulator_for(snapshot.get("system"))
    report = simulator.result(summary, snapshot, games=games, seed=seed)
    opponent = snapshot.get("opponent") or {}
    return {
        "system": snapshot.get("system"),
        "opponent": opponent.get("slug"),
        "policy": snapshot.get("policy"),
        "games": games,
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        **report,
    }


__all__ = [
    "SNAPSHOT_SCHEMA", "ENGINE_VERSION", "CHUNK_SIZE", "MAX_GAMES", "SimulationInputError", "Simulator",
    "BaseSimulator", "PreparedGame", "chunk_size_for",
    "SIMULATORS", "register_simulator", "simulator_for", "snapshot_hash", "list_codes", "build_snapshot", "check_run", "chunks", "play_chunk",
    "simulate", "simulation_result", "run_parallel_chunks",
]
