"""kombu's filesystem transport (the embedded broker): one definition of its folders, for settings and tests, and a
message written whole before a worker can see it.

kombu's reader lists the folder and moves each message file it finds without taking the writer's lock, so a message
found between the writer's open() and its write() was read empty: the worker's consumer failed on it
(JSONDecodeError) and the chunk was lost until the watchdog re-queued it. `AtomicFilesystemTransport` writes each
message under a name the reader does not look at, then renames it to its message name in one step (os.replace in
the same folder). Importing this module (settings does, in every web, worker and test process) makes it the
transport of "filesystem://" URLs.
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


def filesystem_transport_options(folder: Path) -> dict[str, Any]:
    """Transport options that keep every file of the broker under `folder` (created if missing)."""
    for sub in ("out", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "out"),
        "data_folder_out": str(folder / "out"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),  # broadcast tables (worker ping); kombu's default is ./control
        "store_processed": False,
        "polling_interval": 0.1,  # seconds between looks at the folder (kombu's default, 1 s, costs 2 s per chunk)
    }


class AtomicFilesystemChannel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put a message on `queue`: written whole under a name the reader skips (it takes only names holding
        ".<queue>.msg"), then renamed to kombu's message name, which keeps the order by time."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.partial")
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError:
            raise ChannelError(f"Cannot add file {final!r} to directory") from None


class AtomicFilesystemTransport(filesystem.Transport):
    Channel = AtomicFilesystemChannel


TRANSPORT_ALIASES["filesystem"] = "hangar.broker:AtomicFilesystemTransport"
