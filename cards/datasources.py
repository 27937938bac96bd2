"""Data sources that update (docs/data-packages.md "Data sources"): a BattleScribe data index (a .bsi zip holding
index.xml, or index.xml itself) or a release archive (.zip of .gst/.cat files) that a staff member registered, checked
for updates on request, and imported as the package's next version.

A check is an explicit staff action, run in a Celery task (cards.tasks.data_source_check; `manage.py
check_data_source` runs it in the operator's shell), never while a page is served. It fetches through
cards.remotefetch (https only, a size cap, a time limit, bounded redirects), and:

- an index: reads its entries (each file's dataId, type, name and dataRevision) and compares them with the revisions
  last imported from this source. When none is new (and the package is still there), it stops: nothing else is
  fetched. Otherwise it fetches every file the index names — a package is made from the whole set, the game system
  with all its catalogues — each at its filePath relative to the index's URL, else to each of its repository URLs;
- an archive: fetches it and reads the revisions of the files inside.

Then the files are converted and checked as an upload is (cards.services.battlescribe_preview): the preview (cards
added, changed, removed against the package loaded now) and the fetched files are kept on the source until a staff
member imports them (`source_import`, which imports exactly those bytes, as the package's next version) or checks
again. Every failure is kept as a code, the English message and where (URL, file, element path, id), for the pages
to say in the reader's language.
"""
from __future__ import annotations

import io
import re
import secrets
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rules_engine.formats import battlescribe
from rules_engine.formats.safefiles import ArchiveBudget, FileRefused, parse_xml, read_zip

from . import remotefetch, services
from .models import DataPackage, DataSource, PackageVersion
from .selectors import package_sha256

INDEX_NS = "http://www.battlescribe.net/schema/dataIndexSchema"
MAX_FILE_BYTES = battlescribe.MAX_FILE_BYTES  # one download (an index, a file it names, an archive)
MAX_TOTAL_BYTES = battlescribe.MAX_TOTAL_BYTES  # all the downloads of one check
MAX_INDEX_ENTRIES = 200
INDEX_BUDGET = ArchiveBudget(member_bytes=MAX_FILE_BYTES, total_bytes=MAX_FILE_BYTES, members=50)
ENTRY_TYPES = {"gamesystem", "catalogue"}
ERROR_CODES = (
    # cards.remotefetch
    "scheme", "url", "dns", "address", "refused", "timeout", "tls", "connection", "status", "redirects", "too_big",
    # this module
    "total_too_big", "not_zip", "not_index", "index_entries", "missing_file", "file_name", "data", "other_package",
    "queue", "stopped", "failed",
)


class SourceError(Exception):
    """A check that failed: `code` (ERROR_CODES) and `where` (url, file, path, id, the numbers), `message` in
    English."""

    def __init__(self, code: str, message: str, **where: Any):
        self.code, self.message, self.where = code, message, where
        super().__init__(message)

    def record(self) -> dict[str, Any]:
        return {"message": self.message, **self.where}


class ImportRefused(Exception):
    """An import refused: `reason` ("stale", "package_changed", "data") and the problems of a data refusal."""

    def __init__(self, reason: str, problems: list[dict] | None = None):
        self.reason, self.problems = reason, problems or []
        super().__init__(reason)


@dataclass(frozen=True)
class IndexEntry:
    id: str
    name: str
    type: str
    file: str
    revision: int


# --- registering and asking for a check -----------------------------------------------------------------------


def guess_kind(url: str) -> str:
    """"index" for a .bsi or .xml URL, "archive" for anything else (a .zip)."""
    path = urlsplit(url).path.lower()
    return DataSource.Kind.INDEX if path.endswith((".bsi", ".xml")) else DataSource.Kind.ARCHIVE


def url_problem(url: str) -> remotefetch.FetchError | None:
    """Why a URL cannot be registered (not https, not a URL), else None."""
    try:
        remotefetch.check_url(url, tuple(settings.HANGAR_DATA_SOURCE_ALLOW_HTTP_HOSTS))
    except remotefetch.FetchError as error:
        return error
    return None


def source_register(*, name: str, url: str, kind: str, user=None) -> DataSource:
    """A new source (the form checked the name is free and the URL is https); never fetched here."""
    return DataSource.objects.create(name=name.strip(), url=url.strip(), kind=kind or guess_kind(url),
                                     created_by=user)


# --- the check (in a Celery task, or the management command) ------------------------------------------------------


def source_check_run(source_id: int, token: str) -> str:
    """Check source `source_id` for the check `token`; the result is stored only if that check is still the one
    asked for. Returns the status stored ("" when dropped)."""
    source = DataSource.objects.filter(pk=source_id).first()
    if source is None or source.check_token != token:
        return ""
    try:
        result = _check(source)
    except SourceError as error:
        return _finish(source_id, token, status=DataSource.Status.FAILED, error_code=error.code, error=error.record())
    return _finish(source_id, token, **result)


def source_check_failed(source_id: int, token: str, code: str, message: str) -> str:
    """Record a check that stopped without a result (its time limit, an unexpected error)."""
    return _finish(source_id, token, status=DataSource.Status.FAILED, error_code=code, error={"message": message})


def source_check_now(source: DataSource) -> DataSource:
    """Check in this process, now (`manage.py check_data_source`: an operator's explicit action)."""
    token = secrets.token_hex(16)
    DataSource.objects.filter(pk=source.pk).update(status=DataSource.Status.CHECKING, check_token=token,
                                                   check_requested_at=timezone.now())
    try:
        source_check_run(source.pk, token)
    except Exception as error:  # noqa: BLE001  (as the task does: never left "checking")
        source_check_failed(source.pk, token, "failed", f"the check failed ({error!r})")
        raise
    source.refresh_from_db()
    return source


def _finish(source_id: int, token: str, **fields: Any) -> str:
    defaults = {"error_code": "", "error": {}, "pending": None, "pending_sha256": "", "preview": None}
    done = DataSource.objects.filter(pk=source_id, check_token=token).update(
        **{**defaults, **fields}, check_token="", checked_at=timezone.now())
    return fields["status"] if done else ""


def _bounds(max_bytes: int) -> remotefetch.Bounds:
    return remotefetch.Bounds(max_bytes=max_bytes, timeout=settings.HANGAR_DATA_SOURCE_TIMEOUT,
                              max_redirects=settings.HANGAR_DATA_SOURCE_MAX_REDIRECTS,
                              allow_http_hosts=tuple(settings.HANGAR_DATA_SOURCE_ALLOW_HTTP_HOSTS))


def _download(url: str, max_bytes: int, *, file: str = "") -> bytes:
    return _download_from(url, max_bytes, file=file).raw


def _download_from(url: str, max_bytes: int, *, file: str = "") -> remotefetch.Fetched:
    try:
        return remotefetch.fetch(url, _bounds(max_bytes))
    except remotefetch.FetchError as error:
        raise SourceError(error.code, error.message, url=error.url, file=file, **error.params) from None


def _check(source: DataSource) -> dict[str, Any]:
    if source.kind == DataSource.Kind.INDEX:
        fetched = _download_from(source.url, MAX_FILE_BYTES)
        entries, repositories = read_index(fetched.raw, source.url)
        if fetched.final_url != source.url:  # redirected: the files may be beside either URL
            repositories = [urljoin(fetched.final_url, "."), *repositories]
        found = _compare(source, [entry.__dict__ for entry in entries])
        changed = any(item["change"] != "same" for item in found)
        package_there = bool(source.package_slug) and DataPackage.objects.filter(
            system__slug=source.system, slug=source.package_slug).exists()
        if source.revisions and not changed and package_there:
            return {"status": DataSource.Status.CURRENT, "found": found}
        uploads = _index_files(source.url, entries, repositories)
    else:
        raw = _download(source.url, MAX_FILE_BYTES)
        if not zipfile.is_zipfile(io.BytesIO(raw)):
            raise SourceError("not_zip", "not a zip archive", url=source.url)
        name = PurePosixPath(unquote(urlsplit(source.url).path)).name or "release.zip"
        name = name if name.lower().endswith(".zip") else name + ".zip"
        uploads = [services.Upload(name, raw)]
        found = _compare(source, _archive_facts(name, raw))
    return _preview(source, uploads, found)


def read_index(raw: bytes, url: str) -> tuple[list[IndexEntry], list[str]]:
    """The entries and repository URLs of a data index: a .bsi (a zip holding one .xml) or the XML itself. Raises
    SourceError "not_index" naming what is wrong, "index_entries" past MAX_INDEX_ENTRIES."""
    if raw[:4] == b"PK\x03\x04":
        try:
            members = read_zip(raw, url, INDEX_BUDGET, want=lambda member: member.lower().endswith(".xml"))
        except FileRefused as error:
            raise SourceError("not_index", f"a .bsi that cannot be read: {error.message}", url=url) from None
        if len(members) != 1:
            raise SourceError("not_index", f"a .bsi must hold one index.xml; it holds {len(members)} .xml files",
                              url=url)
        name, raw = members[0]
        url = f"{url}!{name}"
    try:
        root = parse_xml(raw)
    except FileRefused as error:
        raise SourceError("not_index", error.message, url=url, path=error.path) from None
    except Exception as error:  # noqa: BLE001  (ParseError, defusedxml's refusals: all "not a data index")
        position = getattr(error, "position", None)
        where = f" (line {position[0]}, column {position[1] + 1})" if position else ""
        raise SourceError("not_index", f"not well-formed XML{where}", url=url) from None
    if root.tag != f"{{{INDEX_NS}}}dataIndex":
        raise SourceError("not_index", f"the root element is {root.tag!r}, not a BattleScribe dataIndex", url=url,
                          path="/" + root.tag.split("}")[-1])
    entries: list[IndexEntry] = []
    elements = root.findall(f"{{{INDEX_NS}}}dataIndexEntries/{{{INDEX_NS}}}dataIndexEntry")
    if len(elements) > MAX_INDEX_ENTRIES:
        raise SourceError("index_entries", f"{len(elements)} entries; at most {MAX_INDEX_ENTRIES} are read", url=url,
                          limit=MAX_INDEX_ENTRIES)
    for number, element in enumerate(elements, start=1):
        path = f"/dataIndex/dataIndexEntries/dataIndexEntry[{number}]"
        kind, file, revision = element.get("dataType", ""), element.get("filePath", ""), element.get("dataRevision")
        if kind not in ENTRY_TYPES:
            continue  # the schema names no other type; one a later BattleScribe adds is not data Hangar reads
        if not file or not (revision or "").strip().lstrip("-").isdigit():
            raise SourceError("not_index", "an entry without a filePath or a whole-number dataRevision", url=url,
                              path=path, id=element.get("dataId", ""))
        entries.append(IndexEntry(element.get("dataId", ""), element.get("dataName", "") or file, kind, file,
                                  int(revision)))
    if not entries:
        raise SourceError("not_index", "the index names no game system or catalogue", url=url,
                          path="/dataIndex/dataIndexEntries")
    repositories = [(element.text or "").strip() for element in
                    root.findall(f"{{{INDEX_NS}}}repositoryUrls/{{{INDEX_NS}}}repositoryUrl")]
    return entries, [repository for repository in repositories if repository]


def _index_files(index_url: str, entries: list[IndexEntry], repositories: list[str]) -> list[services.Upload]:
    """Every file the index names, at its filePath relative to the index's URL, else to each repository URL (the
    next is tried only on HTTP 404), within MAX_TOTAL_BYTES in all."""
    uploads: list[services.Upload] = []
    spent = 0
    for entry in entries:
        name = PurePosixPath(entry.file.replace("\\", "/")).name
        if Path(name).suffix.lower() not in battlescribe.SUFFIXES:
            raise SourceError("file_name", "the index names a file that is not .gst, .gstz, .cat or .catz",
                              url=index_url, file=entry.file, id=entry.id)
        if spent >= MAX_TOTAL_BYTES:
            raise SourceError("total_too_big", f"more than {MAX_TOTAL_BYTES} bytes in all", url=index_url,
                              file=entry.file, limit=MAX_TOTAL_BYTES)
        relative = entry.file if urlsplit(entry.file).scheme else quote(entry.file.replace("\\", "/"), safe="/")
        candidates = [urljoin(index_url, relative)] + [urljoin(base.rstrip("/") + "/", relative)
                                                      for base in repositories]
        raw = None
        for url in dict.fromkeys(candidates):
            try:
                raw = _download(url, min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - spent), file=entry.file)
                break
            except SourceError as error:
                if error.code == "status" and error.where.get("status") == 404:
                    continue
                if error.code == "too_big" and MAX_TOTAL_BYTES - spent < MAX_FILE_BYTES:
                    raise SourceError("total_too_big", f"more than {MAX_TOTAL_BYTES} bytes in all", url=url,
                                      file=entry.file, limit=MAX_TOTAL_BYTES) from None
                raise
        if raw is None:
            raise SourceError("missing_file", "the index names a file that is not there (HTTP 404 at every URL "
                                              "tried)", url=" ".join(dict.fromkeys(candidates)), file=entry.file,
                              id=entry.id)
        spent += len(raw)
        uploads.append(services.Upload(name, raw))
    return uploads


def _archive_facts(name: str, raw: bytes) -> list[dict[str, Any]]:
    """The id, name, type and revision of each game system and catalogue in a release archive (read with the
    converter's budgets; a file it refuses is left to the conversion, which names it)."""
    facts = []
    with tempfile.TemporaryDirectory(prefix="hangar-source-") as folder:
        path = Path(folder) / name
        path.write_bytes(raw)
        try:
            sources = battlescribe.read_sources([path])
        except battlescribe.BattleScribeError:
            return []
        for source in sources:
            try:
                root = parse_xml(source.raw)
            except Exception:  # noqa: BLE001  (the conversion refuses it with its file and line)
                continue
            kind = {"gameSystem": "gamesystem", "catalogue": "catalogue"}.get(root.tag.split("}")[-1])
            if kind and (root.get("revision") or "").isdigit():
                facts.append({"id": root.get("id") or "", "name": root.get("name") or "", "type": kind,
                              "file": source.name.split("!", 1)[-1], "revision": int(root.get("revision"))})
    return facts


def _compare(source: DataSource, facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each file found with its revision last imported ("before", None for a new file) and its change ("new",
    "revised", "same"), then each file last imported that is gone ("removed")."""
    seen = source.revisions or {}
    found = []
    for fact in facts:
        before = (seen.get(fact["id"]) or {}).get("revision")
        change = "new" if before is None else ("same" if before == fact["revision"] else "revised")
        found.append({**fact, "before": before, "change": change if seen else "new"})
    ids = {fact["id"] for fact in facts}
    found += [{"id": data_id, "name": old.get("name", ""), "type": old.get("type", ""), "file": old.get("file", ""),
               "revision": None, "before": old.get("revision"), "change": "removed"}
              for data_id, old in seen.items() if data_id not in ids]
    return found


def _preview(source: DataSource, uploads: list[services.Upload], found: list[dict]) -> dict[str, Any]:
    try:
        preview = services.battlescribe_preview(uploads)
    except services.UploadRefused as error:
        _same_package(source, _converted_slug(uploads))  # a game system renamed: say so, not "codes already used"
        problem = error.problems[0] if error.problems else {"message": str(error)}
        raise SourceError("data", problem.get("message", ""), url=source.url, file=problem.get("file", ""),
                          path=problem.get("path", ""), id=problem.get("id", "")) from None
    slug = preview.package["slug"]
    _same_package(source, slug)
    if preview.unchanged:  # the package loaded now is this data: its revisions are the ones seen from now on
        return {"status": DataSource.Status.CURRENT, "package_slug": slug, "revisions": _revisions(found),
                "found": [{**item, "before": item["revision"], "change": "same"} for item in found
                          if item["change"] != "removed"]}
    return {
        "status": DataSource.Status.UPDATE, "found": found, "package_slug": slug,
        "pending": _pack(uploads), "pending_sha256": services.uploads_sha256(uploads),
        "preview": {"package": preview.package, "report": preview.report, "diff": preview.diff,
                    "package_sha256": package_sha256("warcaster", slug)},
    }


def _converted_slug(uploads: list[services.Upload]) -> str:
    try:
        return services._uploaded_conversion(uploads).package["slug"]  # the upload's own conversion
    except services.UploadRefused:
        return ""


def _same_package(source: DataSource, slug: str) -> None:
    """A source feeds one package: data that now makes another (its game system renamed) is refused."""
    if source.package_slug and slug and slug != source.package_slug:
        raise SourceError("other_package", f"the data now makes the package {slug}, not {source.package_slug}",
                          url=source.url, package=slug, before=source.package_slug)


def _revisions(found: list[dict]) -> dict[str, dict]:
    return {item["id"]: {key: item[key] for key in ("name", "type", "file", "revision")}
            for item in found if item["change"] != "removed"}


def _pack(uploads: list[services.Upload]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for upload in uploads:
            archive.writestr(upload.name, upload.raw)
    return buffer.getvalue()


def _unpack(raw: bytes) -> list[services.Upload]:
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:  # written by _pack: Hangar's own bytes
        return [services.Upload(info.filename, archive.read(info)) for info in archive.infolist()]


# --- importing what a check found ------------------------------------------------------------------------------


def source_preview(source: DataSource) -> services.BattleScribePreview | None:
    """The kept preview of a source with an update, against the package loaded now."""
    if source.status != DataSource.Status.UPDATE or not source.preview:
        return None
    from .selectors import package_document

    package = source.preview["package"]
    return services.BattleScribePreview(package, source.preview["report"],
                                        package_document("warcaster", package["slug"]), source.preview["diff"],
                                        unchanged=False)


def source_import(source: DataSource, *, sha256: str, user=None) -> services.ImportReport:
    """Import the files the last check fetched (exactly those: `sha256` must be theirs) as the package's next
    version. Refused ("stale") when there is no update waiting or another check replaced it, ("package_changed")
    when the package changed since the check, ("data") when the import refuses the data; nothing is written then."""
    with transaction.atomic():
        source = DataSource.objects.select_for_update().get(pk=source.pk)
        pending = bytes(source.pending) if source.pending is not None else b""
        if (source.status != DataSource.Status.UPDATE or not pending or not re.fullmatch(r"[0-9a-f]{64}", sha256)
                or not secrets.compare_digest(sha256, source.pending_sha256)):
            raise ImportRefused("stale")
        uploads = _unpack(pending)
        if services.uploads_sha256(uploads) != source.pending_sha256:
            raise ImportRefused("stale")
        slug = source.preview["package"]["slug"]
        if package_sha256("warcaster", slug) != source.preview.get("package_sha256", ""):
            raise ImportRefused("package_changed")
        try:
            imported = services.battlescribe_upload_import(uploads).imported
        except services.UploadRefused as error:
            raise ImportRefused("data", error.problems) from None
        DataPackage.objects.filter(system__slug="warcaster", slug=slug).update(
            source=f"data source {source.name}: {source.url}"[:500])
        if imported.status != "unchanged" and user is not None:
            latest = PackageVersion.objects.filter(system__slug="warcaster", slug=slug).order_by("-number").first()
            if latest is not None:
                PackageVersion.objects.filter(pk=latest.pk).update(published_by=user)
        source.revisions = _revisions(source.found)
        source.found = [{**item, "before": item["revision"], "change": "same"} for item in source.found
                        if item["change"] != "removed"]
        source.package_slug = slug
        source.status = DataSource.Status.CURRENT
        source.pending, source.pending_sha256, source.preview = None, "", None
        source.imported_at = timezone.now()
        source.save()
    return imported
