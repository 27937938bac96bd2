"""One bounded outbound HTTPS download: what a data source check fetches (cards.datasources; docs/security.md
"Outbound fetches").

Pure Python (no Django): the caller passes the bounds. Every download is https (http only to the hosts the caller
allows, for a test server on 127.0.0.1); the host is resolved once and the connection made to that address, which
must be a public one (loopback, private, link-local and reserved addresses are refused unless the host is allowed),
so a name that resolves to the site's own network is never reached; TLS is checked against the host name. The
response body is read in chunks and refused as soon as it passes `max_bytes` (a Content-Length above it is refused
before reading); the whole download (connect, each redirect, every read) must end within `timeout` seconds; at most
`max_redirects` redirects, each checked as the first URL. Every failure raises FetchError with a `code` the pages
translate, the URL, and its numbers.
"""
from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

CHUNK = 64 * 1024
USER_AGENT = "Hangar-data-source-check/1"


class FetchError(Exception):
    """A download that failed. `code`: "scheme", "url", "dns", "address", "refused", "timeout", "tls", "connection",
    "status", "redirects", "too_big"; `params`: its numbers and names (status, limit, host...)."""

    def __init__(self, code: str, url: str, message: str, **params):
        self.code, self.url, self.message, self.params = code, url, message, params
        super().__init__(f"{url}: {message}")


@dataclass(frozen=True)
class Bounds:
    max_bytes: int
    timeout: float
    max_redirects: int = 5
    allow_http_hosts: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Fetched:
    url: str  # as asked
    final_url: str  # after redirects
    raw: bytes


def fetch(url: str, bounds: Bounds) -> Fetched:
    """The body of `url` (following at most bounds.max_redirects redirects). Raises FetchError."""
    deadline = time.monotonic() + bounds.timeout
    current = url
    for _ in range(bounds.max_redirects + 1):
        status, location, raw = _get(current, bounds, deadline)
        if location is None:
            return Fetched(url, current, raw)
        current = urljoin(current, location)
    raise FetchError("redirects", url, f"more than {bounds.max_redirects} redirects", limit=bounds.max_redirects)


def check_url(url: str, allow_http_hosts: tuple[str, ...] = ()) -> tuple[str, str, int]:
    """(scheme, host, port) of a URL Hangar may fetch, or FetchError ("scheme" for anything but https, "url")."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise FetchError("url", url, f"not a valid URL ({error})") from None
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in ("https", "http") or (scheme == "http" and host not in allow_http_hosts):
        raise FetchError("scheme", url, f"only https URLs are fetched, not {scheme or 'a relative URL'}",
                         scheme=scheme)
    if not host:
        raise FetchError("url", url, "the URL names no host")
    if parts.username or parts.password:
        raise FetchError("url", url, "a URL with a user name or password is not fetched")
    return scheme, host, port or (443 if scheme == "https" else 80)


def _remaining(url: str, bounds: Bounds, deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchError("timeout", url, f"no complete answer within {bounds.timeout:g} s", seconds=bounds.timeout)
    return left


def _address(url: str, host: str, port: int, bounds: Bounds) -> str:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise FetchError("dns", url, f"the host name {host} cannot be resolved ({error})", host=host) from None
    for info in infos:
        address = info[4][0]
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if ip.is_global or host in bounds.allow_http_hosts:
            return address
    raise FetchError("address", url, f"{host} resolves to a private or local address, which is not fetched",
                     host=host)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _get(url: str, bounds: Bounds, deadline: float) -> tuple[int, str | None, bytes]:
    scheme, host, port = check_url(url, bounds.allow_http_hosts)
    address = _address(url, host, port, bounds)
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kind = _PinnedHTTPSConnection if scheme == "https" else _PinnedHTTPConnection
    connection = kind(host, port, address, timeout=_remaining(url, bounds, deadline))
    try:
        connection.request("GET", target, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
        sock = connection.sock  # kept: the connection lets go of it when the answer says "close"; reads still use it
        sock.settimeout(_remaining(url, bounds, deadline))
        response = connection.getresponse()
        if response.status in (301, 302, 303, 307, 308):
            location = response.getheader("Location")
            if not location:
                raise FetchError("status", url, f"HTTP {response.status} without a Location", status=response.status)
            return response.status, location, b""
        if response.status != 200:
            raise FetchError("status", url, f"HTTP {response.status} {response.reason}".strip(),
                             status=response.status)
        length = response.getheader("Content-Length")
        if length and length.isdigit() and int(length) > bounds.max_bytes:
            raise FetchError("too_big", url, f"{length} bytes; at most {bounds.max_bytes} are fetched",
                             limit=bounds.max_bytes)
        parts_read: list[bytes] = []
        size = 0
        while not response.isclosed():  # it closes itself once the whole body is read
            sock.settimeout(_remaining(url, bounds, deadline))
            chunk = response.read1(CHUNK)  # what one receive brings: the deadline is checked between them
            if not chunk:
                break
            size += len(chunk)
            if size > bounds.max_bytes:
                raise FetchError("too_big", url, f"more than {bounds.max_bytes} bytes; at most {bounds.max_bytes} "
                                                 "are fetched", limit=bounds.max_bytes)
            parts_read.append(chunk)
            _remaining(url, bounds, deadline)
        return response.status, None, b"".join(parts_read)
    except FetchError:
        raise
    except (socket.timeout, TimeoutError):
        raise FetchError("timeout", url, f"no complete answer within {bounds.timeout:g} s",
                         seconds=bounds.timeout) from None
    except ConnectionRefusedError:
        raise FetchError("refused", url, f"{host} refused the connection", host=host) from None
    except ssl.SSLError as error:
        raise FetchError("tls", url, f"the TLS connection to {host} failed ({error.reason or error})",
                         host=host) from None
    except (OSError, http.client.HTTPException) as error:
        raise FetchError("connection", url, f"the connection to {host} failed ({error})", host=host) from None
    finally:
        connection.close()
