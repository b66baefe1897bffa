"""The shipped KubeRay manifests and Serve config: valid against KubeRay's own CRD schemas (KubeRay v1.7.0,
``tests/data/kuberay``: each CRD's ``v1`` openAPIV3Schema, made strict the way ``kubectl apply`` validates —
an unknown field is an error), ``serveConfigV2`` generated from ``deploy/serve/strata-serve.yaml``, API keys
required and mounted from a Secret, GPU embedding opt-in, a storage class and ``fsGroup`` everywhere."""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import os
from pathlib import Path

import jsonschema
import pytest
import yaml

from support import REPO

KUBERAY = REPO / "deploy" / "kuberay"
SERVE_YAML = REPO / "deploy" / "serve" / "strata-serve.yaml"
SCHEMAS = Path(__file__).parent / "data" / "kuberay"
KUBERAY_VERSION = "v1.7.0"


def _strict(schema: dict) -> dict:
    """``schema`` with unknown properties refused wherever the CRD lists the properties (what the API server's
    strict field validation does), and Kubernetes' int-or-string fields accepting both."""
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if ("properties" in node and "additionalProperties" not in node
                    and not node.get("x-kubernetes-preserve-unknown-fields")):
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def _validator(kind: str) -> jsonschema.Draft7Validator:
    data = json.loads(gzip.open(SCHEMAS / f"ray.io_{kind.lower()}s.v1.schema.json.gz", "rt").read())
    assert data["kind"] == kind and KUBERAY_VERSION in data["source"]
    return jsonschema.Draft7Validator(_strict(data["openAPIV3Schema"]))


def _manifests() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(KUBERAY.glob("*.yaml")):
        out += [(path.name, doc) for doc in yaml.safe_load_all(path.read_text()) if doc]
    return out


def _errors(kind: str, doc: dict) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator(kind).iter_errors(doc)]


def _pods(doc: dict) -> list[dict]:
    """The pod specs of a RayCluster's / RayService's head and worker groups."""
    spec = doc["spec"]["rayClusterConfig"] if doc["kind"] == "RayService" else doc["spec"]
    return [g["template"]["spec"] for g in [spec["headGroupSpec"], *spec["workerGroupSpecs"]]]


def test_every_ray_manifest_is_valid_against_kuberays_crd_schema():
    kinds = [(name, doc["kind"]) for name, doc in _manifests() if doc["apiVersion"] == "ray.io/v1"]
    assert sorted(k for _, k in kinds) == ["RayCluster", "RayJob", "RayService"]
    for name, doc in _manifests():
        if doc["apiVersion"] == "ray.io/v1":
            assert _errors(doc["kind"], doc) == [], name


def test_the_schema_check_can_fail():
    """The strict schema refuses a misspelt field and a wrong type: the check above is not vacuous."""
    service = next(doc for _, doc in _manifests() if doc["kind"] == "RayService")
    typo = copy.deepcopy(service)
    typo["spec"]["rayClusterConfig"]["enableInTreeAutoscalling"] = True
    assert any("enableInTreeAutoscalling" in e for e in _errors("RayService", typo))
    wrong = copy.deepcopy(service)
    wrong["spec"]["rayClusterConfig"]["workerGroupSpecs"][0]["maxReplicas"] = "four"
    assert any("maxReplicas" in e for e in _errors("RayService", wrong))
    pod = copy.deepcopy(service)
    _pods(pod)[0]["containers"][0]["volumeMounts"][0]["mountpath"] = "/data"
    assert _errors("RayService", pod)


def test_serve_config_v2_is_generated_from_the_serve_config():
    spec = importlib.util.spec_from_file_location("sync_serve_config", KUBERAY / "sync_serve_config.py")
    sync = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sync)
    rayservice = (KUBERAY / "rayservice.yaml").read_text()
    assert sync.synced(rayservice, SERVE_YAML.read_text()) == rayservice, \
        "rayservice.yaml is out of date: run python deploy/kuberay/sync_serve_config.py"
    service = next(doc for _, doc in _manifests() if doc["kind"] == "RayService")
    assert yaml.safe_load(service["spec"]["serveConfigV2"]) == yaml.safe_load(SERVE_YAML.read_text())
    edited = SERVE_YAML.read_text().replace("num_replicas: 1", "num_replicas: 2", 1)
    assert sync.synced(rayservice, edited) != rayservice  # a change to the Serve config shows up


def test_the_serve_config_is_a_valid_ray_serve_config_that_requires_api_keys(monkeypatch):
    from ray.serve.schema import ServeDeploySchema

    from cluster.config import load_config

    config = yaml.safe_load(SERVE_YAML.read_text())
    ServeDeploySchema.model_validate(config)  # Ray's own schema of `serve deploy` files
    env = config["applications"][0]["runtime_env"]["env_vars"]
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    cfg = load_config()
    assert cfg.serve.auth == "required" and str(cfg.serve.keys_file) == "/etc/strata/keys/api-keys.json"
    assert config["http_options"]["host"] == "0.0.0.0"  # reachable from outside: hence the keys
    for deployment in config["applications"][0]["deployments"]:  # GPUs only when asked for
        assert "num_gpus" not in deployment.get("ray_actor_options", {}), deployment["name"]
    service = next(doc for _, doc in _manifests() if doc["kind"] == "RayService")
    keys_dir = str(cfg.serve.keys_file.parent)
    for pod in _pods(service):  # every pod that may run the ingress mounts the key Secret there, read-only
        volume = next(v for v in pod["volumes"] if v.get("secret", {}).get("secretName") == "strata-api-keys")
        mount = next(m for m in pod["containers"][0]["volumeMounts"] if m["name"] == volume["name"])
        assert mount["mountPath"] == keys_dir and mount["readOnly"] is True
        assert volume["secret"]["defaultMode"] == 0o440


def test_storage_class_fsgroup_and_gpu_embedding_opt_in():
    docs = _manifests()
    pvc = next(doc for _, doc in docs if doc["kind"] == "PersistentVolumeClaim")
    assert pvc["spec"]["storageClassName"] and pvc["spec"]["accessModes"] == ["ReadWriteMany"]
    for name, doc in docs:
        if doc["kind"] in ("RayCluster", "RayService"):
            for pod in _pods(doc):
                context = pod["securityContext"]
                assert context["fsGroup"] == 100 and context["runAsUser"] == 1000 and context["runAsNonRoot"], name
    cluster = next(doc for _, doc in docs if doc["kind"] == "RayCluster")
    head_env = {e["name"] for e in cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]["env"]}
    assert "STRATA_INGEST__EMBED_ACTOR_GPUS" not in head_env  # GPU embedding is opt-in
    for doc in (cluster, next(doc for _, doc in docs if doc["kind"] == "RayService")):
        groups = (doc["spec"].get("rayClusterConfig") or doc["spec"])["workerGroupSpecs"]
        gpu = [g for g in groups if "nvidia.com/gpu" in g["template"]["spec"]["containers"][0]["resources"]["limits"]]
        assert gpu and all(g["replicas"] == 0 and g["minReplicas"] == 0 for g in gpu)


def test_keys_from_a_mounted_secret_are_reread_when_the_kubelet_swaps_it(tmp_path):
    """A Secret volume: the file is a symlink through ``..data`` to a timestamped folder, and an update swaps
    ``..data`` atomically. The key store (serve.keys_file) sees the new keys, and the path is kept unresolved."""
    from cluster.config import absolute_paths, load_config
    from cluster.security.keys import KeyStore, key_store

    writer = KeyStore(tmp_path / "local")
    _, first = writer.create("acme", ["search"])
    mount = tmp_path / "mount"
    (mount / "..v1").mkdir(parents=True)
    (mount / "..v1" / "api-keys.json").write_bytes(writer.path.read_bytes())
    os.symlink("..v1", mount / "..data")
    os.symlink("..data/api-keys.json", mount / "api-keys.json")
    cfg = absolute_paths(load_config(storage={"data_dir": str(tmp_path / "idx")},
                                     serve={"keys_file": str(mount / "api-keys.json")}))
    assert cfg.serve.keys_file == mount / "api-keys.json"  # not resolved to ..v1
    store = key_store(cfg)
    assert store.verify(first).tenant == "acme"
    _, second = writer.create("beta", ["search"])  # `strata keys create`, then `kubectl apply` of the Secret
    (mount / "..v2").mkdir()
    (mount / "..v2" / "api-keys.json").write_bytes(writer.path.read_bytes())
    os.symlink("..v2", mount / "..data.tmp")
    os.replace(mount / "..data.tmp", mount / "..data")
    assert store.verify(second).tenant == "beta" and store.verify(first).tenant == "acme"

