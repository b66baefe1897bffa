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
