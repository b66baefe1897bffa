"""The Serve app's reservations sized from the cluster, refused at once when they cannot be placed."""

from __future__ import annotations

import doctest

import pytest

from cluster.config import load_config
from serving import resources
from serving.resources import ResourceShortfall, check_fits, plan_reservations


def test_the_defaults_fit_two_cpus_without_an_llm_deployment():
    plan = plan_reservations(load_config(), {"CPU": 2.0})
    assert {r.deployment for r in plan} == {"StrataIngress", "QueryEmbedder", "HybridRetriever", "AwarenessExpander",
                                            "Reranker"}
    assert sum(r.total_cpus for r in plan) == pytest.approx(1.2)
    check_fits(plan, {"CPU": 2.0})


def test_the_llm_writer_takes_what_is_left_on_cpu_and_one_cpu_on_gpu_hosts():
    cfg = load_config(answer={"writer": {"kind": "llm"}})
    writer = {r.deployment: r for r in plan_reservations(cfg, {"CPU": 2.0})}["LLMWriter"]
    assert writer.cpus == pytest.approx(0.8)
    check_fits(plan_reservations(cfg, {"CPU": 2.0}), {"CPU": 2.0})
    gpu = load_config(answer={"writer": {"gpus": 1}})
    assert gpu.answer.writer_kind == "llm"
    plan = {r.deployment: r for r in plan_reservations(gpu, {"CPU": 8.0, "GPU": 1.0})}
    assert plan["LLMWriter"].cpus == 1.0 and plan["LLMWriter"].gpus == 1.0


def test_a_shortfall_names_the_deployments_and_settings():
    cfg = load_config(answer={"writer": {"kind": "llm", "cpus": 1.5}})
    with pytest.raises(ResourceShortfall) as info:
        check_fits(plan_reservations(cfg, {"CPU": 2.0}), {"CPU": 2.0})
    message = str(info.value)
    assert "needs 2.70 CPUs but the cluster has 2.00 (short by 0.70)" in message
    assert "answer.writer.cpus" in message and "serve.retriever_replicas" in message
    gpu = load_config(answer={"writer": {"gpus": 2}})
    with pytest.raises(ResourceShortfall, match="GPUs but the cluster has 0.00"):
        check_fits(plan_reservations(gpu, {"CPU": 8.0}), {"CPU": 8.0})


def test_replica_resources_are_reserved_per_replica_and_checked():
    cfg = load_config(serve={"replica_resources": {"strata_worker": 0.1}}, answer={"enabled": False})
    plan = plan_reservations(cfg, {"CPU": 2.0, "strata_worker": 2.0})
    assert all(r.resources == {"strata_worker": 0.1} for r in plan)
    check_fits(plan, {"CPU": 2.0, "strata_worker": 0.5})  # 5 replicas × 0.1
    with pytest.raises(ResourceShortfall, match=r"needs 0.50 of the custom resource 'strata_worker'.* has 0.40"):
        check_fits(plan, {"CPU": 2.0, "strata_worker": 0.4})
    with pytest.raises(ResourceShortfall, match="serve.replica_resources"):
        check_fits(plan, {"CPU": 2.0})


def test_doctests_of_the_answer_and_resource_modules():
    from serving.answer import extractive, span

    for module in (resources, extractive, span):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_serve_detach_without_a_cluster_is_refused(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from cli.main import main

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "serve", "--detach"])
    assert result.exit_code != 0 and "long-lived Ray cluster" in result.output


def test_an_autoscaling_cluster_gets_a_warning_not_a_refusal():
    """With Ray's autoscaler the replicas that do not fit yet make it add nodes: the shortfall is a warning
    (naming the same deployments), and serve.resource_check = refuse / warn force either behaviour."""
    from serving.app import build_application

    cfg = load_config(answer={"writer": {"kind": "llm", "cpus": 4.0}})
    plan = plan_reservations(cfg, {"CPU": 2.0})
    warned = check_fits(plan, {"CPU": 2.0}, autoscaling=True)
    assert len(warned) == 1 and "needs 5.20 CPUs but the cluster has 2.00 now" in warned[0]
    assert "LLMWriter 1 × 4.00 (answer.writer.cpus)" in warned[0] and "autoscaler" in warned[0]
    with pytest.raises(ResourceShortfall, match="needs 5.20 CPUs"):
        build_application(cfg, {"CPU": 2.0})  # resource_check = auto on a given (fixed) cluster: refused
    cfg.serve.resource_check = "warn"
    assert build_application(cfg, {"CPU": 2.0}) is not None


def test_the_autoscaler_is_detected_on_the_connected_cluster(ray_session):
    """The embedded local Ray is fixed (its monitor reports over Ray's read-only provider): refused at once, as
    before. Once the cluster's autoscaler reports the node types of a KubeRay cluster (what the monitor
    writes to the GCS there), the same configuration deploys with a warning."""
    import json
    import time

    from ray._private import ray_constants
    from ray.experimental.internal_kv import _internal_kv_get, _internal_kv_put

    from serving.app import build_application
    from serving.resources import autoscaler_running

    def report() -> dict:
        return json.loads(_internal_kv_get(ray_constants.DEBUG_AUTOSCALING_STATUS) or b"{}")

    deadline = time.monotonic() + 120  # the local monitor's first report with nodes (seconds after start)
    while not report().get("autoscaler_report") and time.monotonic() < deadline:
        time.sleep(0.5)
    local = report()
    assert local["autoscaler_report"]["active_nodes"], local  # a report exists here too: the read-only provider's
    cfg = load_config(answer={"writer": {"kind": "llm", "cpus": 64.0}})
    assert autoscaler_running() is False
    with pytest.raises(ResourceShortfall, match="LLMWriter 1 × 64.00"):
        build_application(cfg)
    kuberay = {**local, "autoscaler_report": {**local["autoscaler_report"], "active_nodes": {"headgroup": 1},
                                              "pending_launches": {"cpu-workers": 1}}}
    # the local monitor rewrites its report every few seconds: write KubeRay's just before each check
    _internal_kv_put(ray_constants.DEBUG_AUTOSCALING_STATUS, json.dumps(kuberay), overwrite=True)
    try:
        assert autoscaler_running() is True
        _internal_kv_put(ray_constants.DEBUG_AUTOSCALING_STATUS, json.dumps(kuberay), overwrite=True)
        assert build_application(cfg) is not None
        cfg.serve.resource_check = "refuse"
        _internal_kv_put(ray_constants.DEBUG_AUTOSCALING_STATUS, json.dumps(kuberay), overwrite=True)
        with pytest.raises(ResourceShortfall):
            build_application(cfg)
    finally:
        _internal_kv_put(ray_constants.DEBUG_AUTOSCALING_STATUS, json.dumps(local), overwrite=True)
    assert autoscaler_running() is False


def test_a_role_on_an_openai_server_has_no_llm_deployment():
    cfg = load_config(answer={"writer": {"kind": "openai", "base_url": "http://127.0.0.1:9/v1"},
                              "verifier": {"kind": "llm", "model": "smollm2-135m-instruct"}})
    assert cfg.answer.writer_kind == "llm"
    names = [r.deployment for r in plan_reservations(cfg, {"CPU": 2.0})]
    assert "LLMWriter" not in names and names[-1] == "LLMVerifier"
    with pytest.raises(ValueError, match=r"answer.writer.kind = 'openai' needs answer.writer.base_url"):
        load_config(answer={"writer": {"kind": "openai"}})
