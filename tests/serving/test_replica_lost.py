"""A stage whose replica died answers 503 with Retry-After (Serve restarts the replica), not a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from ray.exceptions import ActorDiedError, ActorUnavailableError

from serving.api.api_router import build_fastapi_app


class LostReplicaService:
    """The search service as the ingress sees it while a replica is being replaced."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
        self.cfg = __import__("cluster.config", fromlist=["StrataConfig"]).StrataConfig()

    async def search(self, body, *, tenant: str):
        raise self.exc


@pytest.mark.parametrize("exc", [ActorDiedError(), ActorUnavailableError("replica unreachable", None)])
def test_lost_replica_is_a_503_with_retry_after(exc: Exception) -> None:
    app = build_fastapi_app()
    app.state.service = LostReplicaService(exc)
    response = TestClient(app).post("/v1/search", json={"query": "anything"})
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"] == "1"
    assert "restarting" in response.json()["error"]


def test_other_failures_stay_internal_errors() -> None:
    app = build_fastapi_app()
    app.state.service = LostReplicaService(ZeroDivisionError("boom"))
    response = TestClient(app, raise_server_exceptions=False).post("/v1/search", json={"query": "anything"})
    assert response.status_code == 500
    assert "ZeroDivisionError" in response.json()["error"]
