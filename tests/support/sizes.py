"""Push size and full size (docs/testing.md, "Sizes"): the API fuzz and the position round trips run at a size
that keeps their power on every push, and at full size under `python3 dev.py test --full` (HANGAR_TEST_FULL=1)."""
from __future__ import annotations

import os

FULL = os.environ.get("HANGAR_TEST_FULL") == "1"


def sized(push: int, full: int) -> int:
    """`full` under HANGAR_TEST_FULL=1, else `push`."""
    return full if FULL else push
