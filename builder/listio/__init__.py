"""List import/export: the `hangar.list/1` JSON format, a readable text format and BattleScribe rosters
(docs/list-formats.md).

Pure Python (no Django): the readers take a `rules_engine.core.catalog.Catalog` where they need card names.
"""
from .errors import MAX_ISSUES, ListFormatError, ListIssue
from .jsonio import (
    MAX_ENTRIES, MAX_QTY, SCHEMA_ID, check_envelope, check_storable_text, export_list_json, parse_list_json,
)
from .roster import ROSTER_SUFFIXES, RosterExportError, export_roster, is_roster, parse_roster
from .text import example_entry, parse_list_text
from .text_write import export_list_text

__all__ = [
    "MAX_ENTRIES", "MAX_ISSUES", "MAX_QTY", "SCHEMA_ID", "ListFormatError", "ListIssue", "check_envelope",
    "check_storable_text", "example_entry", "export_list_json", "export_list_text", "parse_list_json", "parse_list_text",
    "ROSTER_SUFFIXES", "RosterExportError", "export_roster", "is_roster", "parse_roster",
]
