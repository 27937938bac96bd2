"""Writes to the catalog: importing data packages (docs/design.md §2.1, §2.4).

Zulip style: check everything first (cards.package_validation), then write in one transaction. A bad package
changes nothing. Re-importing a package slug replaces its cards, formats and opponents; lists keep their entries
because they name cards by code string.
"""
from __future__ import annotations

import hashlib
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from rules_engine.formats import battlescribe

from . import package_validation as checks
from . import sheetfiles, spreadsheet
from .models import Card, DataPackage, Format, GameSystem, Opponent, PackageVersion
from .selectors import BUNDLED_DIR, bundled_dir, catalog_forget, cards_diff, package_document, search_normalise
from .storable_text import escaped
from .systems import SYSTEMS


class PackageError(Exception):
    """A package was refused. `errors` lists every problem found (capped), each naming where it is."""

    def __init__(self, errors: list[str], *, source: str = ""):
        # Messages quote the package: lone surrogates stay escaped (cards.storable_text), so they can be printed.
        self.errors = [escaped(error) for error in errors]
        self.source = escaped(source)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return head + "package refused:\n" + "\n".join(f"  - {error}" for error in self.errors)


@dataclass(frozen=True)
class ImportReport:
    system: str
    slug: str
    version: str
    status: str  # "loaded" (new), "replaced" (same slug, new content) or "unchanged" (same sha256)
    cards: int
    formats: int
    opponents: int
    source: str = ""

    def line(self) -> str:
        return (
            f"{self.system}/{self.slug} {self.version}: {self.status} "
            f"({self.cards} cards, {self.formats} formats, {self.opponents} opponents)"
        )


# --- public API ----------------------------------------------------------------------------------------------


def package_import(data: Any, *, source: str = "", schema_dir: Path | str | None = None) -> ImportReport:
    """Validate then import one `hangar.package/1` package (already parsed JSON). Raises PackageError."""
    errors = checks.check_package(data, schema_directory=schema_dir)
    canonical = checks.canonical_json(data) if not errors else b""
    if len(canonical) > checks.MAX_PACKAGE_BYTES:
        errors = [f"package is larger than {checks.MAX_PACKAGE_BYTES} bytes"]
    if errors:
        raise PackageError(errors, source=source)
    sha256 = hashlib.sha256(canonical).hexdigest()
    try:
        with transaction.atomic():
            return _package_write(data, sha256=sha256, source=source)
    except IntegrityError as exc:  # only when another import of the same system committed meanwhile
        raise PackageError([f"another import changed this system at the same time; run again ({exc})"], source=source)


def _package_write(data: dict, *, sha256: str, source: str) -> ImportReport:
    system = system_ensure(data["system"])
    existing = DataPackage.objects.select_for_update().filter(system=system, slug=data["slug"]).first()
    errors = checks.check_against_catalog(data, catalog_context(system, exclude=existing))
    if errors:
        raise PackageError(errors, source=source)
    if existing is not None and existing.sha256 == sha256:
        return _report(data, "unchanged", source)
    package = _package_save(system, existing, data, sha256=sha256, source=source)
    _package_contents_replace(system, package, data)
    _version_record(system, data, sha256=sha256)
    catalog_forget()  # this process sees the new catalog at once (also when the import is rolled back)
    transaction.on_commit(catalog_forget)
    return _report(data, "loaded" if existing is None else "replaced", source)


def package_import_file(path: Path | str, *, schema_dir: Path | str | None = None) -> ImportReport:
    """Read, validate and import one package file. Errors name the file (and line/column for bad JSON)."""
    path = Path(path)
    source = str(path)
    try:
        size = path.stat().st_size
        if size > checks.MAX_PACKAGE_BYTES:
            raise PackageError(
                [f"file is {size} bytes; a data package may be at most {checks.MAX_PACKAGE_BYTES} bytes"],
                source=source,
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise PackageError([f"cannot read the file: {exc.strerror or exc}"], source=source) from exc
    data, errors = checks.parse_package_bytes(raw)
    if errors:
        raise PackageError(errors, source=source)
    return package_import(data, source=source, schema_dir=schema_dir)


@dataclass(frozen=True)
class BattleScribeReport:
    """The package import's line, then what the BattleScribe data became (rules_engine.formats.battlescribe)."""

    imported: ImportReport
    lines: list[str]
    warnings: list[str] = field(default_factory=list)  # odd data read by a documented rule or left out

    def text(self) -> str:
        warned = [f"warnings ({len(self.warnings)}): odd data read by a documented rule or left out "
                  "(docs/data-packages.md 'Warnings')", *(f"  {line}" for line in self.warnings)] \
            if self.warnings else []
        return "\n".join([self.imported.line(), *self.lines, *warned])


def battlescribe_convert(paths: list[Path | str]) -> battlescribe.Conversion:
    """BattleScribe data (a folder, a .zip or .gst/.gstz/.cat/.catz files) → a package (not imported): the
    community's data through the game that reads it, or the package of any game that Hangar exported
    (rules_engine/formats/battlescribe/).
    Raises PackageError naming the file, the element path and the id of what was refused."""
    try:
        conversion = battlescribe.convert(paths)
        battlescribe.leave_out_refused_cards(conversion, checks.check_package)
        return conversion
    except battlescribe.BattleScribeError as exc:
        raise PackageError([str(exc)], source=", ".join(str(p) for p in paths)) from exc


def battlescribe_import(paths: list[Path | str], *, schema_dir: Path | str | None = None) -> BattleScribeReport:
    """Convert then import BattleScribe data as one package: all checked first, nothing written on a
    refusal (the package import is one transaction)."""
    conversion = battlescribe_convert(paths)
    source = ", ".join(str(p) for p in paths)
    return BattleScribeReport(package_import(conversion.package, source=source, schema_dir=schema_dir),
                              conversion.report, conversion.warnings)


def import_paths(paths: list[Path | str], *, schema_dir: Path | str | None = None) -> str:
    """`import_package`'s work: one package JSON file, or BattleScribe data; returns the report to print."""
    if battlescribe.is_battlescribe(paths):
        return battlescribe_import(paths, schema_dir=schema_dir).text()
    if len(paths) != 1:
        raise PackageError([f"give one package JSON file, or BattleScribe data; got {len(paths)} paths"])
    return package_import_file(paths[0], schema_dir=schema_dir).line()


@dataclass(frozen=True)
class SheetReport:
    """What a sheet import did (or, in a dry run, would do) to a package, card by card."""

    system: str
    slug: str
    version: str
    status: str  # "dry run", or ImportReport.status: "loaded", "replaced", "unchanged"
    added: list[str]
    removed: list[str]
    changed: dict[str, list[str]]  # code -> the fields that differ
    kept: int  # cards unchanged

    def lines(self) -> list[str]:
        head = f"{self.system}/{self.slug} {self.version}: {self.status}"
        counts = (f"{len(self.added)} added, {len(self.changed)} changed, {len(self.removed)} removed, "
                  f"{self.kept} unchanged")
        lines = [f"{head} ({counts})"]
        lines += [f"  + {code}" for code in self.added]
        lines += [f"  ~ {code}: {', '.join(fields)}" for code, fields in self.changed.items()]
        lines += [f"  - {code}" for code in self.removed]
        return lines


def sheet_import(raw: bytes, *, filename: str, system: str, slug: str, dry_run: bool = False,
                 version: str | None = None, title: str | None = None) -> SheetReport:
    """Make a sheet of cards (cards.spreadsheet: CSV, TSV or .xlsx, one row per card) the cards of package `slug`
    of `system`, keeping its formats and opponents; a new slug makes a new package. Every card is checked as a
    package import checks it (schema, then the engine's own reader); any problem raises SheetError listing each
    with its row, column and value, and nothing is written. `dry_run` checks and reports the diff, writing nothing.
    The version is `version`, else the package's own when no card changes, else today's date (UTC, YYYY.MM.DD)."""
    if system not in SYSTEMS:
        raise spreadsheet.SheetError([spreadsheet.SheetProblem(
            f"unknown game system {system!r}; expected one of {', '.join(SYSTEMS)}")], source=filename)
    schema = checks.validator_for(system).schema
    try:
        sheet = spreadsheet.read_sheet(sheetfiles.read_rows(raw, filename), system, schema)
    except spreadsheet.SheetError as error:
        raise spreadsheet.SheetError(error.problems, source=filename) from None
    current = package_document(system, slug)
    if sheet.problems:
        raise spreadsheet.SheetError(_row_problems(sheet, slug), source=filename)
    diff = cards_diff((current or {}).get("cards", []), sheet.cards)
    added, removed, changed = diff["added"], diff["removed"], diff["changed"]
    same = not (changed or added or removed)
    data = {
        "schema": checks.PACKAGE_SCHEMA, "system": system, "slug": slug,
        "version": version or (current["version"] if current and same else timezone.now().strftime("%Y.%m.%d")),
        "title": title or (current["title"] if current else slug),
        "cards": sheet.cards,
        "formats": (current or {}).get("formats", []),
        "opponents": (current or {}).get("opponents", []),
    }
    for key in ("description", "factions"):  # a package's description and declared factions stay
        if current and current.get(key):
            data[key] = current[key]
    status = "dry run"
    try:
        if dry_run:
            errors = checks.check_package(data)
            if errors:
                raise PackageError(errors)
        else:
            status = package_import(data, source=filename).status
    except PackageError as error:
        # The package checks stop at the first stage that fails (the schema before the engine's reader): check each
        # row alone to find every row's problems; what is left is about several cards, the formats or opponents, or
        # codes another package of the system uses.
        problems = _row_problems(sheet, slug) or [sheet.problem(message, None) for message in error.errors]
        raise spreadsheet.SheetError(problems, source=filename) from None
    return SheetReport(system, slug, data["version"], status, added, removed, changed,
                       kept=len(sheet.cards) - len(added) - len(changed))


def _row_problems(sheet: spreadsheet.Sheet, slug: str) -> list[spreadsheet.SheetProblem]:
    """What reading found, and each row checked alone as a package import checks a card (schema, then the engine's
    reader), once per cell, in row and column order."""
    problems = list(sheet.problems)
    said = {(problem.row, problem.column) for problem in problems}
    for card, row in zip(sheet.cards, sheet.rows):
        alone = {"schema": checks.PACKAGE_SCHEMA, "system": sheet.system, "slug": slug, "version": "1",
                 "title": slug, "cards": [card]}
        found = [sheet.problem(message, row) for message in checks.check_package(alone)]
        problems += [problem for problem in found if (problem.row, problem.column) not in said]
    problems.sort(key=lambda problem: (problem.row or 0, len(problem.column or ""), problem.column or ""))
    return problems


def sheet_export(system: str, slug: str, *, fmt: str = "csv", lang: str = "en") -> bytes:
    """Package `slug`'s cards as a sheet file that `sheet_import` reads back to the same cards."""
    current = package_document(system, slug)
    if current is None:
        raise PackageError([f"{system} has no package {slug!r}"])
    schema = checks.validator_for(system).schema
    return sheetfiles.write_file(spreadsheet.write_rows(current["cards"], system, schema, lang=lang), fmt)


def sheet_template(system: str, *, fmt: str = "csv", lang: str = "en") -> bytes:
    """The template sheet of a system (docs/spreadsheets/<system>-cards-<lang>.csv): every column, with an example
    card of each kind from the bundled packages (read from their files, not the database)."""
    cards = [card for path in bundled_package_files() if path.parent == bundled_dir(system)
             for card in json.loads(path.read_text(encoding="utf-8"))["cards"]]
    schema = checks.validator_for(system).schema
    return sheetfiles.write_file(spreadsheet.template_rows(cards, system, schema, lang=lang), fmt)


def bundled_package_files(directory: Path | str | None = None) -> list[Path]:
    """Every `<directory>/<system>/*.json` (the `lists/` sub-folders hold sample lists, not packages); without a
    directory, every registered game's bundled folder (selectors.bundled_dir)."""
    root = Path(directory) if directory is not None else BUNDLED_DIR
    return sorted(path for system in SYSTEMS for path in bundled_dir(system, root, own=directory is None).glob("*.json")
                  if path.is_file())


def packages_load_bundled(directory: Path | str | None = None) -> list[ImportReport]:
    """Import every bundled package; unchanged ones are no-ops, so this is safe to run again.

    Each package is its own transaction; the first bad one raises PackageError (earlier ones stay loaded).
    """
    return [package_import_file(path) for path in bundled_package_files(directory)]


def system_ensure(slug: str) -> GameSystem:
    """The GameSystem row for a slug of cards.systems.SYSTEMS, created on first use."""
    declared = SYSTEMS[slug]
    system, _ = GameSystem.objects.get_or_create(
        slug=slug,
        defaults={"name": declared["name"], "name_ja": declared["name_ja"], "sections": list(declared["sections"])},
    )
    return system


def search_text(*parts: str | None) -> str:
    """Card.search_text: code and names, NFKC-normalised (full-width → half-width) and lower-cased."""
    return " ".join(search_normalise(part) for part in parts if part)


# --- internals -----------------------------------------------------------------------------------------------


def catalog_context(system: GameSystem, *, exclude: DataPackage | None) -> checks.CatalogContext:
    """What the other packages of `system` use (all but `exclude`, the package being replaced)."""
    others = DataPackage.objects.filter(system=system)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    return checks.CatalogContext(
        card_codes=dict(Card.objects.filter(package__in=others).values_list("code", "package__slug")),
        format_slugs=dict(Format.objects.filter(package__in=others).values_list("slug", "package__slug")),
        opponent_slugs=dict(Opponent.objects.filter(package__in=others).values_list("slug", "package__slug")),
        default_formats=dict(
            Format.objects.filter(package__in=others, is_default=True).values_list("slug", "package__slug")
        ),
    )


def _package_save(
    system: GameSystem, existing: DataPackage | None, data: dict, *, sha256: str, source: str
) -> DataPackage:
    package = existing or DataPackage(system=system, slug=data["slug"])
    package.version = data["version"]
    package.title = data["title"]
    package.sha256 = sha256
    package.source = source[:500]
    package.save()
    return package


def _package_contents_replace(system: GameSystem, package: DataPackage, data: dict) -> None:
    package.cards.all().delete()
    package.formats.all().delete()
    package.opponents.all().delete()
    Card.objects.bulk_create([_card_row(system, package, card) for card in data["cards"]], batch_size=500)
    Format.objects.bulk_create(
        [
            Format(
                system=system,
                package=package,
                slug=fmt["slug"],
                name=fmt["name"],
                name_en=fmt.get("name_en") or "",
                is_default=bool(fmt.get("default")),
                data=fmt,
            )
            for fmt in data.get("formats", [])
        ]
    )
    Opponent.objects.bulk_create(
        [
            Opponent(system=system, package=package, slug=opp["slug"], name=opp["name"], data=opp)
            for opp in data.get("opponents", [])
        ]
    )


def _card_row(system: GameSystem, package: DataPackage, card: dict) -> Card:
    return Card(
        system=system,
        package=package,
        code=card["code"],
        name=card["name"],
        name_en=card.get("name_en") or "",
        category=card.get("category") or card.get("kind") or "",  # HAGMI category, MWDA/Warcaster kind
        faction=card.get("faction") or "",
        cost=card_cost(card),
        search_text=search_text(card["code"], card["name"], card.get("name_en")),
        data=card,
    )


def card_cost(card: dict) -> int | None:
    """HAGMI `cost`, MWDA `points`, Warcaster `cst` (or a warjack weapon's `cost` in weapon points)."""
    for key in ("cost", "points", "cst"):
        value = card.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _version_record(system: GameSystem, data: dict, *, sha256: str) -> PackageVersion:
    """Keep this content as the package's next version (1, 2, ...): every version can be listed, compared and
    exported (GET /api/packages/{system}/{slug}/versions/)."""
    last = PackageVersion.objects.filter(system=system, slug=data["slug"]).order_by("-number").first()
    return PackageVersion.objects.create(
        system=system, slug=data["slug"], number=(last.number + 1) if last else 1, version=data["version"],
        title=data["title"], sha256=sha256, data=json.loads(checks.canonical_json(data)),
    )


def _report(data: dict, status: str, source: str) -> ImportReport:
    return ImportReport(
        system=data["system"],
        slug=data["slug"],
        version=data["version"],
        status=status,
        cards=len(data["cards"]),
        formats=len(data.get("formats", [])),
        opponents=len(data.get("opponents", [])),
        source=source,
    )


# --- uploads from the browser (the staff data import page, builder/web/dataimport.py) --------------------------


@dataclass(frozen=True)
class Upload:
    """One uploaded file: the name the browser sent (only its last part is used) and its bytes."""

    name: str
    raw: bytes


class UploadRefused(Exception):
    """Uploaded data that cannot be imported. `problems` are dicts with `file`, `path` (the element path), `id` and
    `message` (empty when not known), the file named as uploaded ("data.zip!star-league.cat"), never a server path."""

    def __init__(self, problems: list[dict[str, str]]):
        self.problems = problems
        super().__init__("; ".join(problem["message"] for problem in problems))


def uploads_sha256(uploads: list[Upload]) -> str:
    """One digest of the files and their names, in order: a confirmed import must be of exactly these bytes."""
    digest = hashlib.sha256()
    for upload in uploads:
        name = upload.name.encode("utf-8", "surrogatepass")
        digest.update(len(name).to_bytes(8, "big") + name + len(upload.raw).to_bytes(8, "big") + upload.raw)
    return digest.hexdigest()


@dataclass(frozen=True)
class BattleScribePreview:
    """What uploaded BattleScribe data would become: the package, the converter's report lines and, against the
    package loaded now under its slug (None when new), the cards added, removed and changed (cards_diff)."""

    package: dict
    report: list[str]
    current: dict | None
    diff: dict
    unchanged: bool  # the same content as the package loaded now: importing it changes nothing
    warnings: list[str] = field(default_factory=list)  # odd data read by a documented rule or left out


def battlescribe_preview(uploads: list[Upload]) -> BattleScribePreview:
    """Convert uploaded BattleScribe files (.gst/.gstz/.cat/.catz or one .zip) in a temporary directory and check
    the package as the import would (schema, engine, the other packages of Warcaster), writing nothing. Raises
    UploadRefused naming the file, the element path and the id."""
    conversion = _uploaded_conversion(uploads)
    package = conversion.package
    system = GameSystem.objects.filter(slug=package["system"]).first()
    existing = DataPackage.objects.filter(system=system, slug=package["slug"]).first() if system else None
    errors = checks.check_package(package)
    if not errors and system is not None:
        errors = checks.check_against_catalog(package, catalog_context(system, exclude=existing))
    if errors:
        raise UploadRefused([{"file": "", "path": "", "id": "", "message": error} for error in errors])
    current = package_document(package["system"], package["slug"])
    diff = cards_diff((current or {}).get("cards", []), package["cards"])
    sha256 = hashlib.sha256(checks.canonical_json(package)).hexdigest()
    return BattleScribePreview(package, conversion.report, current, diff,
                               unchanged=existing is not None and existing.sha256 == sha256,
                               warnings=conversion.warnings)


def battlescribe_upload_import(uploads: list[Upload]) -> BattleScribeReport:
    """Convert and import uploaded BattleScribe files as `import_package` does (one transaction, nothing written on
    a refusal). Raises UploadRefused."""
    conversion = _uploaded_conversion(uploads)
    source = "upload: " + ", ".join(_upload_name(upload) for upload in uploads)
    try:
        imported = package_import(conversion.package, source=source)
    except PackageError as error:
        raise UploadRefused([{"file": "", "path": "", "id": "", "message": message} for message in error.errors])
    return BattleScribeReport(imported, conversion.report, conversion.warnings)


def _upload_name(upload: Upload) -> str:
    """The file's own name (no folder the browser may send), safe as a file name in a temporary directory."""
    name = re.sub(r"[^\w.\- ()]+", "_", upload.name.replace("\\", "/").rsplit("/", 1)[-1]).strip(" .")
    return name or "upload"


def _uploaded_conversion(uploads: list[Upload]) -> battlescribe.Conversion:
    if not uploads:
        raise UploadRefused([{"file": "", "path": "", "id": "", "message": "no file was uploaded"}])
    names = [_upload_name(upload) for upload in uploads]
    for name, upload in zip(names, uploads):
        if Path(name).suffix.lower() not in battlescribe.SUFFIXES + (".zip",):
            raise UploadRefused([{"file": name, "path": "", "id": "",
                                  "message": "not a BattleScribe file (.gst, .gstz, .cat, .catz or .zip)"}])
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise UploadRefused([{"file": twice, "path": "", "id": "", "message": "two files have this name"}])
    with tempfile.TemporaryDirectory(prefix="hangar-upload-") as folder:
        paths = []
        for name, upload in zip(names, uploads):
            path = Path(folder) / name
            path.write_bytes(upload.raw)
            paths.append(path)
        prefix = str(Path(folder)) + "/"
        try:
            conversion = battlescribe.convert(paths)
            battlescribe.leave_out_refused_cards(conversion, checks.check_package)
        except battlescribe.BattleScribeError as error:
            raise UploadRefused([{"file": error.file.replace(prefix, ""), "path": error.path,
                                  "id": error.element_id, "message": error.message}]) from None
        conversion.warnings = [line.replace(prefix, "") for line in conversion.warnings]  # as uploaded
        return conversion
