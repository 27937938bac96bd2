"""The lists: a player's deck or army list, its entries and its saved revisions.

Rows are written only by builder.services and read through builder.selectors (HackSoft style).
Entries reference cards by their code STRING, never by a foreign key: when a data package drops a card,
lists that use it keep their entries and validation reports `list.unknown_card`.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

SLUG_BYTES = 9  # 12 URL-safe characters


def new_list_slug() -> str:
    """The public id of a list: random and URL-safe, so list ids cannot be enumerated."""
    return secrets.token_urlsafe(SLUG_BYTES)


class Visibility(models.TextChoices):
    PRIVATE = "private", "Private"  # the owner only
    UNLISTED = "unlisted", "Unlisted"  # anyone with the link
    PUBLIC = "public", "Public"  # anyone, and shown in the public gallery


class GameList(models.Model):
    slug = models.CharField(max_length=32, unique=True, default=new_list_slug, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_lists")
    system = models.ForeignKey("cards.GameSystem", on_delete=models.PROTECT, related_name="game_lists")
    format = models.CharField(max_length=64, blank=True)  # format slug; "" when the list names none
    name = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    version = models.PositiveIntegerField(default=1)  # optimistic concurrency: bumped by every write
    # Cached construction check (docs/design.md §2.3), computed in English against the catalog `catalog_stamp`.
    legal = models.BooleanField(default=False)
    error_count = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    validation = models.JSONField(default=dict)
    catalog_stamp = models.CharField(max_length=200, blank=True)
    # The version of each package of its system when the list was last saved ({package slug: version number},
    # cards.PackageVersion), so that a card changed since then is shown; {} for a list saved before.
    package_versions = models.JSONField(default=dict, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)  # soft delete: in the owner's trash
    forked_from = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="forks")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "deleted_at", "-updated_at"], name="gamelist_owner_idx"),
            models.Index(fields=["visibility", "deleted_at", "-created_at"], name="gamelist_gallery_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name or self.slug} ({self.system_id})"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def format_or_none(self) -> str | None:
        return self.format or None


class ListEntry(models.Model):
    game_list = models.ForeignKey(GameList, on_delete=models.CASCADE, related_name="entries")
    section = models.CharField(max_length=32)  # weapons / tactics / damage / secret (秘策), army, force / rack
    card = models.CharField(max_length=64)  # card code, a plain string on purpose (see module docstring)
    qty = models.PositiveIntegerField()
    options = models.JSONField(null=True, blank=True)  # e.g. a warjack's {"cortex": ..., "weapons": [...]}
    position = models.PositiveIntegerField()  # order in the document: sections in system order, then entries

    class Meta:
        ordering = ["game_list", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game_list", "position"], name="unique_entry_position"),
        ]
        # the gallery's "lists using this card" and faction filters look entries up by card code
        indexes = [models.Index(fields=["card", "game_list"], name="listentry_card_idx")]

    def __str__(self) -> str:
        return f"{self.qty} {self.card} [{self.section}]"


class ListRevision(models.Model):
    """The list exactly as saved by one create/update/restore/fork: never changed afterwards."""

    game_list = models.ForeignKey(GameList, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()  # 1, 2, 3 ... per list
    document = models.JSONField()  # the full hangar.list/1 document
    notes = models.TextField(blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_list", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game_list", "number"], name="unique_revision_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game_list.slug} r{self.number}"


# --- simulations (docs/design.md §4, docs/simulations.md) ---------------------------------------------------------


def new_run_id() -> str:
    """The public id of a simulation run: random and URL-safe, like a list's."""
    return secrets.token_urlsafe(SLUG_BYTES)


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


ACTIVE_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class RunKind(models.TextChoices):
    """What a run plays: one snapshot (a plain simulation), or a hangar.batch/1 of several."""

    SIMULATION = "simulation", "Simulation"
    GAUNTLET = "gauntlet", "Gauntlet"
    DOCTOR = "doctor", "List doctor"


BATCH_KINDS = (RunKind.GAUNTLET, RunKind.DOCTOR)


class SimulationRun(models.Model):
    """One simulation request: a frozen snapshot (hangar.snapshot/1) played `games` times, cut into chunks; or a
    gauntlet / doctor run (`kind`): a frozen hangar.batch/1 whose every leg is played `games` times on one seed.

    Written only by the run services (builder.services.runs_*); the snapshot never changes after submit, so editing the list
    later changes no run.
    """

    public_id = models.CharField(max_length=32, unique=True, default=new_run_id, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs")
    game_list = models.ForeignKey(
        GameList, on_delete=models.SET_NULL, null=True, blank=True, related_name="simulation_runs"
    )
    system = models.CharField(max_length=32)
    # "simulation": `snapshot` is a hangar.snapshot/1; "gauntlet" / "doctor": it is a hangar.batch/1 of several legs
    # (rules_engine.batch), cut leg by leg into chunks of `chunk_size` games (docs/simulations.md).
    kind = models.CharField(max_length=12, choices=RunKind.choices, default=RunKind.SIMULATION)
    snapshot = models.JSONField()
    snapshot_hash = models.CharField(max_length=64)
    opponent = models.CharField(max_length=64)  # opponent slug
    policy = models.CharField(max_length=64)
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()  # 0 .. 2**63-1
    engine_version = models.CharField(max_length=32)
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    chunks_total = models.PositiveIntegerField()
    # Games per chunk, chosen at submit from the measured cost of the snapshot's games (null: a run from before
    # that, cut by rules_engine.simulation.chunk_size_for); every worker and the watchdog cut the run by it.
    chunk_size = models.PositiveIntegerField(null=True, blank=True)
    chunks_done = models.PositiveIntegerField(default=0)
    requeues = models.PositiveIntegerField(default=0)  # watchdog re-enqueues in a row without progress (reset when a chunk is stored)
    # A doctor run's stages (rules_engine.doctor: the screen, then the confirm stage added when the screen's chunks
    # are merged): {"stage", "round", "seed", "games", "legs"} each; its chunks are cut stage after stage.
    stages = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)  # why the run failed or was cancelled, for people
    reused_from = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)  # last chunk stored (or last re-queue)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["snapshot_hash", "opponent", "policy", "games", "seed", "engine_version"],
                name="simrun_reuse_idx",
            ),
            models.Index(fields=["owner", "status"], name="simrun_owner_status_idx"),
            models.Index(fields=["status", "heartbeat_at"], name="simrun_watchdog_idx"),
        ]

    def __str__(self) -> str:
        return f"run {self.public_id} ({self.system}, {self.games} games, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def is_batch(self) -> bool:
        return self.kind in BATCH_KINDS


class SimulationChunk(models.Model):
    """The exact summary (Summary.to_dict(exact=True)) of one chunk of a run: stored once per (run, index)."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    summary = models.JSONField()
    worker = models.CharField(max_length=200, blank=True)  # hostname of the worker that computed it
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="unique_chunk_per_run")]

    def __str__(self) -> str:
        return f"{self.run.public_id} chunk {self.index}"


# --- fields: named sets of weighted opponents (docs/simulations.md "Fields") ---------------------------------------


class OpponentField(models.Model):
    """A field (a "meta"): a named, shareable set of weighted opponents of one game that a gauntlet or the list
    doctor plays a list against. Visible like a list (private / unlisted / public); an entry naming a saved list is
    shown to, and played for, only a reader who may see that list (builder.selectors.field_opponents)."""

    slug = models.CharField(max_length=32, unique=True, default=new_list_slug, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="opponent_fields")
    system = models.ForeignKey("cards.GameSystem", on_delete=models.PROTECT, related_name="opponent_fields")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-updated_at"], name="field_owner_idx"),
            models.Index(fields=["visibility", "-updated_at"], name="field_public_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.system_id})"


class FieldEntry(models.Model):
    """One opponent of a field: a sample opponent (its package slug) or a saved list, with its weight (> 0)."""

    field = models.ForeignKey(OpponentField, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveIntegerField()
    opponent = models.CharField(max_length=64, blank=True)  # a sample opponent's slug; "" for a list
    game_list = models.ForeignKey(GameList, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    weight = models.FloatField()

    class Meta:
        ordering = ["field", "position"]
        constraints = [
            models.UniqueConstraint(fields=["field", "position"], name="unique_field_entry_position"),
        ]

    def __str__(self) -> str:
        return f"{self.opponent or self.game_list_id} × {self.weight}"


# --- matchup matrices (docs/simulations.md "Matchup matrix and what beats my list") -----------------------------


class MatrixKind(models.TextChoices):
    """A matrix of the user's lists against a field of opponents, or one list against every public list and sample
    opponent of its game ("what beats my list")."""

    MATRIX = "matrix", "Matchup matrix"
    BEATS = "beats", "What beats my list"


class MatchupMatrix(models.Model):
    """Several lists against several opponents: every cell is a plain simulation run (MatrixCell.run) of that list
    against that opponent with the matrix's games, seed, seats and policies, reused when a stored run answers the
    same question. The matrix itself plays nothing: its status and progress are its cells'. Written only by
    builder.services.matrices.
    """

    public_id = models.CharField(max_length=32, unique=True, default=new_run_id, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matchup_matrices")
    kind = models.CharField(max_length=8, choices=MatrixKind.choices, default=MatrixKind.MATRIX)
    system = models.CharField(max_length=32)
    # the rows as started: [{"list": id, "name": ...}]; the columns: [{"key", "weight", "name", "name_en", "kind",
    # "list": id or absent}] (a list's name as it was then: a cell's run keeps the cards it played)
    rows = models.JSONField()
    columns = models.JSONField()
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    seats = models.CharField(max_length=16)
    policy = models.CharField(max_length=64)
    opponent_policy = models.CharField(max_length=64, blank=True)
    left_out = models.PositiveIntegerField(default=0)  # "what beats my list": public lists past the limit
    created_at = models.DateTimeField(auto_now_add=True)
    # when its owner cancelled it: a cell that still plays then plays for another question (matrix_cancel)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"matrix {self.public_id} ({self.system}, {len(self.rows)} × {len(self.columns)})"


class MatrixCell(models.Model):
    """One list against one opponent: the plain run that answers it, and whether a stored run answered it."""

    matrix = models.ForeignKey(MatchupMatrix, on_delete=models.CASCADE, related_name="cells")
    row = models.PositiveIntegerField()
    column = models.PositiveIntegerField()
    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="+")
    reused = models.BooleanField(default=False)

    class Meta:
        ordering = ["matrix", "row", "column"]
        constraints = [models.UniqueConstraint(fields=["matrix", "row", "column"], name="unique_matrix_cell")]


# --- tournament events (docs/events.md) ----------------------------------------------------------------------------


def new_event_slug() -> str:
    """The public id of an event: a list's kind of id that begins with a letter or digit, so that it can follow a
    command's name (`event_export ID --as csv`) without being read as an option."""
    while True:
        slug = new_list_slug()
        if slug[0] not in "-_":
            return slug


def new_join_code() -> str:
    """An event's join code: eight characters a player can type (no 0/O, 1/I/l)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class Registration(models.TextChoices):
    OPEN = "open", "Open registration"  # anyone signed in may join; the event is listed
    CODE = "code", "Join code"  # only who has the join code (or its link) may see and join the event


class ListsShown(models.TextChoices):
    """When the entrants' lists become visible to the players (the organiser always sees them)."""

    OPEN = "open", "Open"  # as soon as they are submitted
    AT_PUBLISH = "publish", "At the publish time"  # hidden until `publish_at` (or published by hand)
    ORGANISER = "organiser", "Organiser only"  # never shown to the players


class Event(models.Model):
    """A tournament event's list side: registration, submissions checked against the pinned package versions, the
    lock at the deadline, publication and the event's field. Written only by builder.services.events, read through
    builder.event_selectors."""

    slug = models.CharField(max_length=32, unique=True, default=new_event_slug, editable=False)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events")
    system = models.ForeignKey("cards.GameSystem", on_delete=models.PROTECT, related_name="events")
    format = models.CharField(max_length=64, blank=True)  # the format every list is checked in; "" = the default
    name = models.CharField(max_length=150)
    date = models.DateField()
    place = models.CharField(max_length=200, blank=True)
    player_cap = models.PositiveIntegerField(null=True, blank=True)  # None: no cap
    registration = models.CharField(max_length=8, choices=Registration.choices, default=Registration.OPEN)
    join_code = models.CharField(max_length=16, default=new_join_code)
    deadline = models.DateTimeField()  # lists lock then (automatically), or earlier by hand (`locked_at`)
    locked_at = models.DateTimeField(null=True, blank=True)  # locked by hand before the deadline
    lists_shown = models.CharField(max_length=10, choices=ListsShown.choices, default=ListsShown.AT_PUBLISH)
    publish_at = models.DateTimeField(null=True, blank=True)  # ListsShown.AT_PUBLISH: when they become visible
    published_at = models.DateTimeField(null=True, blank=True)  # published by hand before `publish_at`
    # {package slug: PackageVersion number}: the data every list of the event is checked against, pinned when the
    # event is made; the organiser may move them to the newest versions until the lists lock.
    package_versions = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [
            models.Index(fields=["registration", "-date"], name="event_open_idx"),
            models.Index(fields=["organiser", "-date"], name="event_organiser_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.system_id}, {self.date})"


class EventEntrant(models.Model):
    """A player registered in an event. Withdrawing keeps the row (and the submissions) with `withdrawn_at`."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_entries")
    display_name = models.CharField(max_length=100)  # the name printed on the sheet and in the exports
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="unique_event_entrant")]

    def __str__(self) -> str:
        return f"{self.display_name} in {self.event.slug}"


class SubmissionSource(models.TextChoices):
    LIST = "list", "A saved list"
    TEXT = "text", "A text list"
    ROSTER = "roster", "A roster file"


class EventSubmission(models.Model):
    """One list an entrant submitted: a locked snapshot of the hangar.list/1 document, never changed afterwards
    (later edits of the list do not reach it). A later submission replaces it as the entrant's list; every one is
    kept. Its legality was checked against the event's pinned versions (`package_versions`, re-checked when the
    organiser moves them before the lock)."""

    public_id = models.CharField(max_length=32, unique=True, default=new_run_id, editable=False)
    entrant = models.ForeignKey(EventEntrant, on_delete=models.CASCADE, related_name="submissions")
    number = models.PositiveIntegerField()  # 1, 2, ... per entrant; the highest is the entrant's list
    document = models.JSONField()  # the locked hangar.list/1 snapshot, its format set to the event's
    source = models.CharField(max_length=8, choices=SubmissionSource.choices, default=SubmissionSource.LIST)
    game_list = models.ForeignKey(GameList, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    list_revision = models.PositiveIntegerField(null=True, blank=True)  # the list's revision it was taken from
    legal = models.BooleanField(default=False)
    error_count = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    validation = models.JSONField(default=dict)  # the check (English) against `package_versions`
    package_versions = models.JSONField(default=dict)  # the pins it was checked against
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entrant", "-number"]
        constraints = [models.UniqueConstraint(fields=["entrant", "number"], name="unique_submission_number")]

    def __str__(self) -> str:
        return f"submission {self.public_id} ({self.entrant_id} #{self.number})"
