"""The embedded broker (hangar/broker.py): kombu's filesystem transport, with each message written whole before a
worker can see it (a message read half-written was lost: its chunk waited for the watchdog)."""
from __future__ import annotations

import os

from kombu import Connection

from hangar.broker import AtomicFilesystemChannel, filesystem_transport_options


def test_a_filesystem_url_uses_the_transport_that_writes_a_message_whole(tmp_path):
    with Connection("filesystem://", transport_options=filesystem_transport_options(tmp_path)) as connection:
        assert isinstance(connection.default_channel, AtomicFilesystemChannel)


def test_a_message_appears_under_its_name_only_once_written(tmp_path, monkeypatch):
    seen_while_writing = []
    real_replace = os.replace

    def replace(source, target):  # the moment before the message takes its name: what would a reader list?
        seen_while_writing.append([name for name in os.listdir(tmp_path / "out") if ".chunks.msg" in name])
        return real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with Connection("filesystem://", transport_options=filesystem_transport_options(tmp_path)) as connection:
        queue = connection.SimpleQueue("chunks")
        queue.put({"run": "abc", "index": 3})
        assert seen_while_writing == [[]]
        assert queue.get(timeout=2).payload == {"run": "abc", "index": 3}
        assert os.listdir(tmp_path / "out") == []  # taken, and no partial file left behind
        queue.close()
