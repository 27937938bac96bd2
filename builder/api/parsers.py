"""JSON request parsing for the whole API."""
from __future__ import annotations

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant


class JSONBodyParser(JSONParser):
    """DRF's JSONParser, reading the body once and decoding it in one go instead of through a codecs stream reader
    (measurably cheaper on POST /api/validate/, docs/benchmarks.md). Same rules: strict JSON (no NaN/Infinity) and
    a 400 ParseError naming the problem. The body's size was checked before (BodySizeLimitMixin)."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return json.loads(stream.read().decode(encoding), parse_constant=strict_constant if self.strict else None)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        except LookupError:  # charset=base64, rot13...: a codec, but no text encoding (BodyCharsetMiddleware)
            raise ParseError(f"JSON parse error - the charset {encoding!r} is not a text encoding: send UTF-8")
        except RecursionError:  # "[[[[...": json.loads gives up past Python's recursion limit
            raise ParseError("JSON parse error - arrays or objects nested too deeply") from None
