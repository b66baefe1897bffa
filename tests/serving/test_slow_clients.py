"""The slow-body probe on the running Serve app (product defaults): one tenant's key opens 70 searches
that declare ``Content-Length: 50`` and send 10 bytes, then holds them. Before the body timeouts and
the per-key in-flight cap, those took all 64 of the ingress's ``max_ongoing_requests`` slots and every
other tenant's search (and ``/healthz``) waited until the client gave up. Now another tenant's search
answers with hits while they are held, ``/healthz`` answers, and every held connection is closed: 429
at once beyond ``serve.max_in_flight_per_key``, 408 after ``serve.body_timeout_s`` for the rest."""

from __future__ import annotations

import socket
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

import pytest
import requests

from cluster.security.keys import KeyStore, keys_path

pytestmark = pytest.mark.timeout(600)

HELD = 70


def _open_slow(host: str, port: int, key: str | None) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=5)
    auth = f"Authorization: Bearer {key}\r\n" if key else ""
    head = (f"POST /v1/search HTTP/1.1\r\nHost: {host}:{port}\r\n{auth}"
            "Content-Type: application/json\r\nContent-Length: 50\r\n\r\n")
    sock.sendall(head.encode() + b'{"query": ')  # 10 of the 50 bytes, then nothing
    return sock


def _status_of(sock: socket.socket, wait_s: float) -> int | None:
    """The status the server answers on ``sock`` within ``wait_s`` (None: nothing, the connection held)."""
    sock.settimeout(wait_s)
    try:
        data = sock.recv(200)
    except OSError:
        return None
    finally:
        sock.close()
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None


def test_one_key_with_stalled_bodies_cannot_starve_other_tenants(app):
    url, cfg = app
    parsed = urlparse(url)
    store = KeyStore(cfg.storage.data_dir)
    socks: list[socket.socket] = []
    try:
        _, attacker = store.create("mallory", ["search"], rate=1000.0)
        _, victim = store.create("default", ["search"])
        time.sleep(1.5)  # replicas look at the key file at most every second
        query = {"query": "How do I create a virtual environment?", "top_k": 3, "use_cache": False}
        ok = {"Authorization": f"Bearer {victim}"}
        assert requests.post(f"{url}/v1/search", json=query, headers=ok, timeout=60).status_code == 200

        socks = [_open_slow(parsed.hostname, parsed.port, attacker) for _ in range(HELD)]
        opened = time.monotonic()
        time.sleep(1.0)  # the held requests reach the ingress
        started = time.monotonic()
        reply = requests.post(f"{url}/v1/search", json=query, headers=ok, timeout=30)
        search_s = time.monotonic() - started
        assert reply.status_code == 200 and reply.json()["hits"], reply.text
        assert requests.get(f"{url}/healthz", timeout=10).status_code == 200
        # While they were held the victim was served well inside the body timeout, not after it.
        assert search_s < cfg.serve.body_timeout_s, search_s

        with ThreadPoolExecutor(max_workers=16) as pool:
            statuses = list(pool.map(lambda s: _status_of(s, cfg.serve.body_timeout_s + 20), socks))
        socks = []
        closed_s = time.monotonic() - opened
        assert None not in statuses, statuses  # no connection is held open
        assert set(statuses) <= {408, 429}, statuses
        assert statuses.count(408) <= cfg.serve.max_in_flight_per_key, statuses
        assert statuses.count(429) >= HELD - cfg.serve.max_in_flight_per_key, statuses
        assert closed_s < cfg.serve.body_timeout_s + 20, closed_s
    finally:
        for sock in socks:
            sock.close()
        keys_path(cfg.storage.data_dir).unlink(missing_ok=True)


def _search_from(source: str, host: str, port: int, body: bytes) -> tuple[int, dict, float]:
    """POST /v1/search from the loopback address ``source`` (another client than 127.0.0.1)."""
    import http.client
    import json

    started = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", "/v1/search", body=body, headers={"Content-Type": "application/json"})
        reply = conn.getresponse()
        return reply.status, json.loads(reply.read()), time.monotonic() - started
    finally:
        conn.close()


def test_without_keys_one_client_with_stalled_bodies_cannot_starve_another(app):
    """The same probe with API keys off (the default): the stalled bodies all come from 127.0.0.1, and
    beyond ``serve.max_in_flight_per_client`` they are refused at once, so another client (127.0.0.2)
    is served while they are held."""
    import json

    url, cfg = app
    parsed = urlparse(url)
    assert not keys_path(cfg.storage.data_dir).exists()
    body = json.dumps({"query": "How do I create a virtual environment?", "top_k": 3, "use_cache": False}).encode()
    assert _search_from("127.0.0.2", parsed.hostname, parsed.port, body)[0] == 200
    socks: list[socket.socket] = []
    try:
        socks = [_open_slow(parsed.hostname, parsed.port, None) for _ in range(HELD)]
        opened = time.monotonic()
        time.sleep(1.0)  # the held requests reach the ingress
        status, reply, search_s = _search_from("127.0.0.2", parsed.hostname, parsed.port, body)
        assert status == 200 and reply["hits"], reply
        assert search_s < cfg.serve.body_timeout_s, search_s
        with ThreadPoolExecutor(max_workers=16) as pool:
            statuses = list(pool.map(lambda s: _status_of(s, cfg.serve.body_timeout_s + 20), socks))
        socks = []
        assert None not in statuses, statuses
        assert set(statuses) <= {408, 429}, statuses
        assert statuses.count(408) <= cfg.serve.max_in_flight_per_client, statuses
        assert statuses.count(429) >= HELD - cfg.serve.max_in_flight_per_client, statuses
        assert time.monotonic() - opened < cfg.serve.body_timeout_s + 20
    finally:
        for sock in socks:
            sock.close()
