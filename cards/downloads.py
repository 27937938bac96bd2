"""The Content-Disposition of every file Hangar hands out (lists, rosters, positions, package versions).

RFC 6266 with RFC 8187 (formerly RFC 5987): `filename*=UTF-8''…` keeps the name as written — a Japanese list name
downloads as that name — and `filename="…"` is a plain ASCII fallback for the few clients that ignore `filename*`.

    content_disposition("マウスで組んだデッキ.txt", fallback="deck-abc123.txt")
    -> attachment; filename="deck-abc123.txt"; filename*=UTF-8''%E3%83%9E...%83%AD.txt
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

NAME_MAX = 150  # characters of the name before its suffix: file systems take 255 bytes, a Japanese character is 3
_UNSAFE = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|]+')  # control characters, quotes and path separators
_NOT_ASCII_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name: str, suffix: str = "") -> str:
    """`name` as a file name: no control characters, quotes or path separators (each run becomes "_"), no leading
    dots or spaces, at most NAME_MAX characters; "" for a name with nothing left."""
    text = _UNSAFE.sub("_", unicodedata.normalize("NFC", name or "")).strip(" ._")
    text = text[:NAME_MAX].rstrip(" ._")
    return f"{text}{suffix}" if text else ""


def ascii_name(name: str) -> str:
    """A plain ASCII rendering of a file name (letters without accents, other characters dropped): the fallback."""
    folded = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode("ascii")
    return _NOT_ASCII_SAFE.sub("-", folded).strip("-.")


def content_disposition(filename: str, *, fallback: str = "", disposition: str = "attachment") -> str:
    """The header value for a file named `filename` (any characters; made safe here): the UTF-8 name in
    `filename*` and an ASCII `filename` (`fallback` if given, else the ASCII letters of `filename`, else "download")."""
    stem, dot, suffix = filename.rpartition(".")
    name = safe_name(stem, dot + suffix) if dot else safe_name(filename)
    plain = ascii_name(fallback) or ascii_name(name)
    if not plain or plain.startswith(".") or plain.rpartition(".")[0] == "":
        plain = f"download.{ascii_name(suffix) or 'bin'}" if dot else "download"
    name = name or plain
    return f"{disposition}; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"
