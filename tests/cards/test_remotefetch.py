"""The one outbound download of Hangar (cards/remotefetch.py; docs/security.md "Outbound fetches"), against servers
on 127.0.0.1 written here: TLS is verified, a body without a Content-Length is counted as it comes and cut at the
cap, the time limit holds for the whole download (a server that sends one byte at a time never gets past it), and
only https (or an allowed test host) at a public address is fetched."""
from __future__ import annotations

import socket
import ssl
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cards.remotefetch import Bounds, FetchError, fetch

ALLOW = ("127.0.0.1",)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # no Content-Length needed: the body ends when the connection closes

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.end_headers()
        if self.path == "/stream":  # 10 KB without a Content-Length
            for _ in range(10):
                self.wfile.write(b"x" * 1024)
        elif self.path == "/drip":  # a byte every 0.1 s for 5 s: each read is quick, the whole is slow
            try:
                for _ in range(50):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
        else:
            self.wfile.write(b"hello")


@pytest.fixture
def http_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def https_server(tmp_path):
    """An https server with a self-signed certificate (which no CA vouches for)."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"https://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_plain_answer_is_read(http_server):
    assert fetch(f"{http_server}/", Bounds(max_bytes=100, timeout=5, allow_http_hosts=ALLOW)).raw == b"hello"


def test_a_certificate_no_authority_vouches_for_is_refused(https_server):
    with pytest.raises(FetchError) as refused:
        fetch(f"{https_server}/", Bounds(max_bytes=100, timeout=5, allow_http_hosts=ALLOW))
    assert refused.value.code == "tls" and "TLS connection to 127.0.0.1 failed" in refused.value.message


def test_a_body_without_a_length_is_cut_at_the_cap(http_server):
    with pytest.raises(FetchError) as refused:
        fetch(f"{http_server}/stream", Bounds(max_bytes=4096, timeout=5, allow_http_hosts=ALLOW))
    assert refused.value.code == "too_big" and refused.value.params == {"limit": 4096}
    assert len(fetch(f"{http_server}/stream", Bounds(max_bytes=20_000, timeout=5, allow_http_hosts=ALLOW)).raw) \
        == 10 * 1024


def test_the_time_limit_is_for_the_whole_download_not_each_read(http_server):
    started = time.monotonic()
    with pytest.raises(FetchError) as refused:
        fetch(f"{http_server}/drip", Bounds(max_bytes=1000, timeout=1, allow_http_hosts=ALLOW))
    assert refused.value.code == "timeout" and time.monotonic() - started < 2.5


def test_http_and_loopback_need_the_host_to_be_allowed(http_server):
    with pytest.raises(FetchError) as refused:
        fetch(f"{http_server}/", Bounds(max_bytes=100, timeout=5))
    assert refused.value.code == "scheme"
    https_loopback = http_server.replace("http://127.0.0.1", "https://localhost")
    with pytest.raises(FetchError) as refused:
        fetch(f"{https_loopback}/", Bounds(max_bytes=100, timeout=5))
    assert refused.value.code == "address" and refused.value.params == {"host": "localhost"}


@pytest.mark.parametrize("address", ["10.0.0.8", "192.168.1.2", "169.254.169.254", "::1", "fd00::1"])
def test_private_and_link_local_addresses_are_never_fetched(monkeypatch, address):
    """A name that resolves to the site's own network (a cloud metadata address included) is refused before any
    connection."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: [(family, socket.SOCK_STREAM, 6, "",
                                                                          (address, 443))])
    with pytest.raises(FetchError) as refused:
        fetch("https://data.example.org/index.bsi", Bounds(max_bytes=100, timeout=5))
    assert refused.value.code == "address"
