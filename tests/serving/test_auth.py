"""API keys, scopes and limits of the HTTP API, without Ray: ``strata keys`` through the CLI, and the real
FastAPI app (every route, the security middleware) over the in-process query service (the real embedder)
on an index folder with no index yet — a request that passes the checks reaches its handler and gets the
handler's 503 ("run strata ingest first"), one that does not gets 401/403/413/429."""

from __future__ import annotations

import json
import stat

import pytest
from click.testing import CliRunner
from fastapi import Request
from fastapi.testclient import TestClient

from cli.main import main as strata
from cluster.config import load_config
from serving.api.tenancy import request_tenant


def _cli(data_dir, *args):
    result = CliRunner().invoke(strata, ["--data-dir", str(data_dir), *args], catch_exceptions=False)
    return result


def _key(data_dir, tenant="acme", scope="search", rate=None) -> dict:
    args = ["keys", "create", "--tenant", tenant, "--scope", scope, "--json"] + (["--rate", str(rate)] if rate else [])
    result = _cli(data_dir, *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(scope="module")
def encoder_service(tmp_path_factory, installed_models):
    """The real in-process query service (embedder loaded) over a folder without an index."""
    from serving.services.local import SearchPipeline

    pipe = SearchPipeline(load_config(storage={"data_dir": str(tmp_path_factory.mktemp("no-index"))}))
    yield pipe.service
    pipe.close()


def _client(encoder_service, data_dir, **serve) -> TestClient:
    from serving.api.api_router import build_fastapi_app
    from serving.services.search import SearchService

    cfg = load_config(storage={"data_dir": str(data_dir)}, serve=serve)
    app = build_fastapi_app()
    app.state.service = SearchService(cfg, encoder_service.stages, encoder_service.index)

    @app.get("/v1/debug/tenant")  # not a product route: a /v1 route without a listed scope needs admin
    async def tenant(request: Request):
        return {"tenant": request_tenant(request), "key_id": getattr(request.state, "key_id", None)}

    return TestClient(app)


SEARCH = {"query": "how do I create a virtual environment"}


def passed_auth(reply) -> bool:
    """The request got through the security middleware to its handler: the handler's own 503 for an index
    folder without an index ("run `strata ingest` first"), not the middleware's 503s (service starting,
    API keys unavailable) nor a 401/403/413/429."""
    return reply.status_code == 503 and "strata ingest" in reply.json()["error"]


def test_keys_create_list_revoke_and_only_hashes_are_stored(tmp_path):
    created = _key(tmp_path, tenant="acme", scope="answer,search", rate=2.5)
    assert set(created) == {"id", "key", "tenant", "scopes", "rate"}
    assert created["tenant"] == "acme" and created["scopes"] == ["search", "answer"] and created["rate"] == 2.5
    assert created["key"].startswith(f"sk_strata_{created['id']}_")

    path = tmp_path / "security" / "api-keys.json"
    text = path.read_text()
    secret = created["key"].split("_", 3)[3]
    assert secret not in text and created["key"] not in text and created["id"] in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700

    plain = _cli(tmp_path, "keys", "create", "--tenant", "beta", "--scope", "admin")
    assert plain.exit_code == 0 and "sk_strata_" in plain.output

    listed = _cli(tmp_path, "keys", "list", "--json")
    rows = json.loads(listed.output)
    assert sorted(r["tenant"] for r in rows) == ["acme", "beta"] and "sk_strata_" not in listed.output
    assert all(r["revoked_at"] is None for r in rows)

    revoked = _cli(tmp_path, "keys", "revoke", created["id"])
    assert revoked.exit_code == 0 and created["id"] in revoked.output
    rows = {r["id"]: r for r in json.loads(_cli(tmp_path, "keys", "list", "--json").output)}
    assert rows[created["id"]]["revoked_at"] is not None
    missing = _cli(tmp_path, "keys", "revoke", "0123456789ab")
    assert missing.exit_code != 0 and "no API key" in missing.output


def test_keys_create_refuses_bad_input(tmp_path):
    assert _cli(tmp_path, "keys", "create", "--tenant", "Bad Name", "--scope", "search").exit_code == 2
    bad_scope = _cli(tmp_path, "keys", "create", "--tenant", "acme", "--scope", "search,root")
    assert bad_scope.exit_code == 2 and "unknown scope" in bad_scope.output
    assert _cli(tmp_path, "keys", "create", "--tenant", "acme", "--scope", "search", "--rate", "0").exit_code == 2
    assert not (tmp_path / "security" / "api-keys.json").exists()


def test_open_without_keys_then_401_403_once_a_key_exists(encoder_service, tmp_path):
    client = _client(encoder_service, tmp_path)
    # embedded default: no keys, no auth — requests reach the handler (503: no index here yet)
    assert passed_auth(client.post("/v1/search", json=SEARCH))
    assert client.get("/v1/debug/tenant").json() == {"tenant": "default", "key_id": None}

    search = _key(tmp_path, tenant="acme", scope="search")
    admin = _key(tmp_path, tenant="ops", scope="admin")
    client.app.state.guard.keys.check_interval_s = 0  # see the new file at once (replicas: within 1 s)

    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Basic dXNlcjpwdw=="},
                    {"Authorization": "Bearer sk_strata_nope"},
                    {"Authorization": "Bearer " + search["key"][:-2] + "xx"},
                    {"Authorization": "Bearer sk_strata_0123456789ab_" + search["key"].split("_", 3)[3]}):
        reply = client.post("/v1/search", json=SEARCH, headers=headers)
        assert reply.status_code == 401, (headers, reply.text)
        assert reply.headers["WWW-Authenticate"].startswith("Bearer") and reply.json()["error"]
    # a malformed body without a key is still a 401 (auth runs before the body is read)
    assert client.post("/v1/search", content=b"{not json", headers={"content-type": "application/json"}).status_code == 401

    ok = {"Authorization": f"Bearer {search['key']}"}
    assert passed_auth(client.post("/v1/search", json=SEARCH, headers=ok))
    assert passed_auth(client.get("/v1/documents", headers=ok))
    forbidden = client.post("/v1/answer", json={"question": "why?"}, headers=ok)
    assert forbidden.status_code == 403 and '"answer" scope' in forbidden.json()["error"]
    assert 'insufficient_scope' in forbidden.headers["WWW-Authenticate"]
    assert client.delete("/v1/documents/abc", headers=ok).status_code == 403
    assert client.post("/v1/documents", files={"file": ("a.md", b"# A\n\ntext\n")}, headers=ok).status_code == 403
    assert client.get("/v1/debug/tenant", headers=ok).status_code == 403  # unlisted /v1 route: admin only

    # the key's tenant reaches request_tenant (the contract with tenant-scoped handlers); admin implies search
    adm = {"Authorization": f"Bearer {admin['key']}"}
    assert client.get("/v1/debug/tenant", headers=adm).json() == {"tenant": "ops", "key_id": admin["id"]}
    assert passed_auth(client.post("/v1/search", json=SEARCH, headers=adm))

    # health, readiness and the OpenAPI document stay open
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").status_code == 503  # open, and not ready: no index
    assert client.get("/openapi.json").status_code == 200

    # revocation is seen without a restart; revoking every key does not open the API again
    assert _cli(tmp_path, "keys", "revoke", search["id"]).exit_code == 0
    assert client.post("/v1/search", json=SEARCH, headers=ok).status_code == 401
    assert _cli(tmp_path, "keys", "revoke", admin["id"]).exit_code == 0
    assert client.post("/v1/search", json=SEARCH).status_code == 401


def test_auth_required_without_keys_refuses_everything(encoder_service, tmp_path):
    client = _client(encoder_service, tmp_path, auth="required")
    assert client.post("/v1/search", json=SEARCH).status_code == 401
    assert client.get("/healthz").status_code == 200


def test_rate_limit_429_with_retry_after(encoder_service, tmp_path):
    key = _key(tmp_path, scope="search", rate=1)  # burst 2
    client = _client(encoder_service, tmp_path)
    headers = {"Authorization": f"Bearer {key['key']}"}
    replies = [client.get("/v1/documents", headers=headers) for _ in range(3)]
    assert passed_auth(replies[0]) and passed_auth(replies[1]) and replies[2].status_code == 429
    reply = client.get("/v1/documents", headers=headers)
    assert reply.status_code == 429 and int(reply.headers["Retry-After"]) >= 1 and "rate limit" in reply.json()["error"]
    other = _key(tmp_path, scope="search")  # buckets are per key: the default rate (serve.rate_limit_per_s)
    assert passed_auth(client.get("/v1/documents", headers={"Authorization": f"Bearer {other['key']}"}))


def test_body_limit_413_from_content_length_and_while_streaming(encoder_service, tmp_path):
    client = _client(encoder_service, tmp_path, max_body_bytes=4096)
    big = json.dumps({"query": "x" * 10_000})
    reply = client.post("/v1/search", content=big, headers={"content-type": "application/json"})
    assert reply.status_code == 413 and "serve.max_body_bytes" in reply.json()["error"]

    def chunks():  # no Content-Length: chunked transfer, counted as it arrives
        for _ in range(10):
            yield b" " * 1000

    reply = client.post("/v1/search", content=chunks(), headers={"content-type": "application/json"})
    assert reply.status_code == 413 and "serve.max_body_bytes" in reply.json()["error"]
    assert passed_auth(client.post("/v1/search", json=SEARCH))  # a small body is fine


def test_answers_in_flight_per_key(encoder_service, tmp_path):
    from serving.api.auth import Guard

    key = _key(tmp_path, scope="answer")
    client = _client(encoder_service, tmp_path)
    guard = client.app.state.guard = Guard(client.app.state.service.cfg)
    info = guard.keys.verify(key["key"])
    for _ in range(guard.cfg.answer.max_concurrent_per_key):
        guard.start_answer(info)  # answers in flight for this key
    reply = client.post("/v1/answer", json={"question": "why?"}, headers={"Authorization": f"Bearer {key['key']}"})
    assert reply.status_code == 429 and reply.headers["Retry-After"] == str(guard.cfg.answer.retry_after_s)
    guard.end_answer(info)
    reply = client.post("/v1/answer", json={"question": "why?"}, headers={"Authorization": f"Bearer {key['key']}"})
    assert reply.status_code != 429 and guard.answers[info.id] == guard.cfg.answer.max_concurrent_per_key - 1


def test_serve_refuses_a_public_host_without_keys(tmp_path):
    result = _cli(tmp_path, "serve", "--host", "0.0.0.0")
    assert result.exit_code == 1 and "refusing to serve on 0.0.0.0 without authentication" in result.output
    assert "--insecure" in result.output


def _asgi_post(app, path: str, headers: list[tuple[bytes, bytes]], first: bytes, declared: int):
    """Drive the ASGI app with a body that declares ``declared`` bytes, sends ``first`` and then nothing
    (a slow or stalled client); returns a coroutine giving (status, JSON body)."""
    import asyncio

    async def call():
        sent: list[dict] = []
        queue: asyncio.Queue = asyncio.Queue()
        queue.put_nowait({"type": "http.request", "body": first, "more_body": True})
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"content-type", b"application/json"),
                             (b"content-length", str(declared).encode()), *headers],
                 "client": ("127.0.0.1", 5555), "server": ("127.0.0.1", 8000), "app": app}

        async def send(message):
            sent.append(message)

        await app(scope, queue.get, send)
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return status, json.loads(body)

    return call()


def test_slow_body_gets_408_within_body_timeout_s(encoder_service, tmp_path):
    """A body that declares 50 bytes and sends 10 must not hold its ingress slot: 408 after
    serve.body_timeout_s, in the API's error shape, and the key's in-flight slot is given back."""
    import asyncio
    import time

    key = _key(tmp_path, scope="search", rate=1000)
    client = _client(encoder_service, tmp_path, body_timeout_s=0.5)
    auth = [(b"authorization", f"Bearer {key['key']}".encode())]
    started = time.monotonic()
    status, body = asyncio.run(_asgi_post(client.app, "/v1/search", auth, b'{"query": ', 50))
    elapsed = time.monotonic() - started
    assert status == 408 and "serve.body_timeout_s" in body["error"] and set(body) == {"error", "detail"}, body
    assert 0.4 < elapsed < 5, elapsed
    assert client.app.state.guard.in_flight == {}


def test_one_key_cannot_hold_more_than_its_in_flight_share(encoder_service, tmp_path):
    """With max_in_flight_per_key = 2, a third concurrent request of the same key is refused at once (429),
    while another key is still admitted; the stalled ones end with 408."""
    import asyncio

    slow, other = _key(tmp_path, scope="search", rate=1000), _key(tmp_path, scope="search", rate=1000)
    client = _client(encoder_service, tmp_path, body_timeout_s=1.0, max_in_flight_per_key=2)
    app = client.app

    def auth(k):
        return [(b"authorization", f"Bearer {k['key']}".encode())]

    async def scenario():
        held = [asyncio.ensure_future(_asgi_post(app, "/v1/search", auth(slow), b"{", 50)) for _ in range(2)]
        await asyncio.sleep(0.2)
        third = await asyncio.wait_for(_asgi_post(app, "/v1/search", auth(slow), b"{", 50), timeout=0.5)
        fourth = asyncio.ensure_future(_asgi_post(app, "/v1/search", auth(other), b"{", 50))
        await asyncio.sleep(0.2)
        other_admitted = not fourth.done()  # it waits for its body like any admitted request
        return third, await asyncio.gather(*held, fourth), other_admitted

    third, ends, other_admitted = asyncio.run(scenario())
    assert third[0] == 429 and "serve.max_in_flight_per_key" in third[1]["error"], third
    assert other_admitted and [status for status, _ in ends] == [408, 408, 408]
    assert app.state.guard.in_flight == {}


def test_two_authorization_headers_are_refused(encoder_service, tmp_path):
    good, bad = _key(tmp_path, scope="search"), "sk_strata_nope_nope"
    client = _client(encoder_service, tmp_path)
    for pair in ([good["key"], bad], [bad, good["key"]]):
        reply = client.post("/v1/search", json=SEARCH,
                            headers=[("Authorization", f"Bearer {pair[0]}"), ("Authorization", f"Bearer {pair[1]}")])
        assert reply.status_code == 400 and "one Authorization header" in reply.json()["error"], reply.text
    reply = client.post("/v1/search", json=SEARCH, headers={"Authorization": f"Bearer {good['key']}"})
    assert reply.status_code == 503 and "strata ingest" in reply.json()["error"], reply.text  # the handler's 503
