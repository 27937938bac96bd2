"""The command-line tests' shared pieces: the bundled catalog loaded, and a `manage.py` command run to its output."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.support.bundled_catalog import load_bundled_catalog


@pytest.fixture
def bundled(db):
    load_bundled_catalog()


def run(command: str, *args) -> str:
    """What `manage.py COMMAND ARGS` writes to stdout (stderr's progress lines are dropped)."""
    out = StringIO()
    call_command(command, *args, stdout=out, stderr=StringIO())
    return out.getvalue()
