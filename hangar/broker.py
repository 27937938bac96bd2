"""kombu's filesystem transport (the embedded broker): one definition of its folders, for settings and tests."""
from __future__ import annotations

from pathlib import Path
from typing import Any


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
