"""A local HTTP server for the data source tests: a thread serving a temporary folder of invented BattleScribe data
(copied from tests/cards/fixtures/battlescribe/folder) with a data index written here, plus a few paths that
misbehave on purpose (a redirect loop, a redirect to another scheme, a slow answer, a server error). Every request's
path is recorded, so a test can say what was fetched."""
from __future__ import annotations

import io
import shutil
import threading
import time
import zipfile
from xml.etree import ElementTree
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe" / "folder"
INDEX_NS = "http://www.battlescribe.net/schema/dataIndexSchema"


def folder_files() -> dict[str, tuple[str, str, str, int]]:
    """The fixture folder's files, game system first: file name -> (dataType, dataId, dataName, dataRevision), read
    from each file's root element, as a publisher's tool writes its index."""
    files = {}
    for path in sorted(FOLDER.iterdir(), key=lambda path: (path.suffix != ".gst", path.name)):
        root = ElementTree.parse(path).getroot()
        kind = "gamesystem" if root.tag.endswith("}gameSystem") else "catalogue"
        files[path.name] = (kind, root.get("id"), root.get("name"), int(root.get("revision")))
    return files


FILES = folder_files()


def index_xml(files: dict[str, tuple[str, str, str, int]], repositories: list[str] = ()) -> bytes:
    """A dataIndex naming `files` (filePath -> type, id, name, revision)."""
    entries = "".join(
        f'    <dataIndexEntry filePath="{path}" dataType="{kind}" dataId="{data_id}" dataName="{name}" '
        f'dataBattleScribeVersion="2.03" dataRevision="{revision}"/>\n'
        for path, (kind, data_id, name, revision) in files.items())
    repos = "".join(f"    <repositoryUrl>{url}</repositoryUrl>\n" for url in repositories)
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<dataIndex xmlns="{INDEX_NS}" battleScribeVersion="2.03" name="Hangar test data">\n'
            f'  <repositoryUrls>\n{repos}  </repositoryUrls>\n'
            f'  <dataIndexEntries>\n{entries}  </dataIndexEntries>\n</dataIndex>\n').encode()


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, raw in files.items():
            archive.writestr(name, raw)
    return buffer.getvalue()


class SourceServer:
    """`root`: the folder served (data/ holds the BattleScribe files and index.xml); `url(path)`; `requests`."""

    def __init__(self, root: Path):
        self.root = root
        self.requests: list[str] = []
        self.slow_seconds = 3.0
        data = root / "data"
        data.mkdir(parents=True)
        for name in FILES:
            shutil.copy(FOLDER / name, data / name)
        self.files = dict(FILES)
        self.write_index()
        server = self

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(root), **kwargs)

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):  # noqa: N802
                server.requests.append(self.path)
                if self.path == "/loop":
                    return self._redirect("/loop")
                if self.path == "/to-ftp":
                    return self._redirect("ftp://127.0.0.1/data/index.xml")
                if self.path == "/moved/index.xml":
                    return self._redirect("/data/index.xml")
                if self.path == "/slow":
                    time.sleep(server.slow_seconds)
                    return self._redirect("/data/index.xml")
                if self.path == "/broken":
                    self.send_error(500, "Internal Server Error")
                    return None
                return super().do_GET()

            def _redirect(self, location: str):
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}"

    def write_index(self, repositories: list[str] = ()) -> None:
        raw = index_xml(self.files, repositories)
        (self.root / "data" / "index.xml").write_bytes(raw)
        (self.root / "data" / "index.bsi").write_bytes(zipped({"index.xml": raw}))

    def edit(self, name: str, old: str, new: str) -> None:
        path = self.root / "data" / name
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def new_revision(self, name: str, old: str, new: str) -> None:
        """Publish a new revision of file `name`: its content edited (old -> new), its revision and the index's
        entry bumped by one."""
        kind, data_id, title, revision = self.files[name]
        self.edit(name, old, new)
        self.edit(name, f'revision="{revision}"', f'revision="{revision + 1}"')
        self.files[name] = (kind, data_id, title, revision + 1)
        self.write_index()

    def release_zip(self) -> None:
        data = self.root / "data"
        (data / "release.zip").write_bytes(zipped({name: (data / name).read_bytes() for name in self.files}))

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
