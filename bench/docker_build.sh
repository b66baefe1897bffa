#!/usr/bin/env bash
# Build the Strata image (deploy/docker/Dockerfile) from a clean export of HEAD, check it, and append a
# result row to bench/results/docker_build.jsonl.
#   bash bench/docker_build.sh cpu|gpu
# Needs a Docker engine with BuildKit (DOCKER_HOST may point at it) and the `docker` client.
# Knobs (environment):
#   RAY_IMAGE               base image (default rayproject/ray:2.60.0-py311; the gpu variant appends -gpu)
#   STRATA_TORCH_CPU_INDEX  PyTorch CPU index for the cpu variant's torch==2.13.0+cpu (default: PyTorch's)
#   OFFLINE_FRONTEND=1      drop the `# syntax=docker/dockerfile:1` line: the engine's built-in Dockerfile
#                           frontend is used, for engines that cannot pull docker/dockerfile from Docker Hub
#   DOCKER_BUILD_NETWORK    --network for the RUN steps (e.g. host, on an engine started with --bridge=none)
set -euo pipefail
VARIANT="${1:-cpu}"
cd "$(dirname "$0")/.."
REPO="$PWD"
COMMIT="$(git rev-parse --short HEAD)"; STARTED="$(date -u '+%Y-%m-%d %H:%M')"
RAY_IMAGE="${RAY_IMAGE:-rayproject/ray:2.60.0-py311}"
TAG="strata:$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')-$VARIANT"
ctx="$(mktemp -d)"; trap 'rm -rf "$ctx"' EXIT
git archive HEAD | tar -x -C "$ctx"   # what a fresh clone has: no .venv, no strata-data, no local edits
dockerfile="$ctx/deploy/docker/Dockerfile"
[ -n "${OFFLINE_FRONTEND:-}" ] && sed -i '1{/^# syntax=/d}' "$dockerfile"
args=(--progress plain -f "$dockerfile" --build-arg VARIANT="$VARIANT" --build-arg RAY_IMAGE="$RAY_IMAGE" -t "$TAG")
[ -n "${STRATA_TORCH_CPU_INDEX:-}" ] && args+=(--build-arg STRATA_TORCH_CPU_INDEX="$STRATA_TORCH_CPU_INDEX")
[ -n "${DOCKER_BUILD_NETWORK:-}" ] && args+=(--network "$DOCKER_BUILD_NETWORK")
[ -n "${DOCKER_NO_CACHE:-}" ] && args+=(--no-cache)   # every layer rebuilt (the uv download cache mount stays)
log="$(mktemp)"
start=$(date +%s)
if DOCKER_BUILDKIT=1 docker build "${args[@]}" "$ctx" >"$log" 2>&1; then ok=true; else ok=false; tail -40 "$log" >&2; fi
build_s=$(( $(date +%s) - start ))
checks="{}"
size_mb=null
if $ok; then
  size_mb=$(( $(docker image inspect -f '{{.Size}}' "$TAG") / 1000000 ))
  run=(docker run -i --rm ${DOCKER_BUILD_NETWORK:+--network "$DOCKER_BUILD_NETWORK"} "$TAG")
  # In the image: the models are installed and verified, the CLI embeds, nothing test-only is installed,
  # and the GPU variant's onnxruntime offers CUDA with the CUDA/cuDNN wheels loadable.
  checks=$("${run[@]}" python - <<'PY'
import importlib.util, json, subprocess
out = {}
show = subprocess.run(["strata", "models", "show"], capture_output=True, text=True)
out["models_show"] = show.returncode == 0 and '"dim": 384' in show.stdout
from cluster.config import load_config
from cluster.models.embedder import Embedder
from cluster.models.registry import resolve_embedder
cfg = load_config()
vectors = Embedder.load(resolve_embedder(cfg.models), cfg.embedder).embed(["hello world"])
out["embeds"] = list(vectors.shape) == [1, 384]
out["test_tools_absent"] = all(importlib.util.find_spec(m) is None for m in ("pytest", "mkdocs"))
import onnxruntime as ort
out["providers"] = ort.get_available_providers()
if "CUDAExecutionProvider" in out["providers"]:
    ort.preload_dlls()
    out["cuda_libraries"] = sorted({l.split()[-1].rsplit("/", 1)[-1] for l in open("/proc/self/maps")
                                    if "/nvidia/" in l and ".so" in l})
    import vllm, torch
    out["vllm"], out["torch"] = vllm.__version__, torch.__version__
print(json.dumps(out))
PY
  ) || checks='{"error": "the checks failed"}'
fi
python3 - "$VARIANT" "$RAY_IMAGE" "$ok" "$build_s" "$size_mb" "$checks" "${OFFLINE_FRONTEND:-}" "$COMMIT" "$STARTED" \
  "${DOCKER_NO_CACHE:-}" <<'PY'
import json, sys
variant, base, ok, build_s, size_mb, checks, offline, commit, started, no_cache = sys.argv[1:]
row = {"bench": "docker_build", "date": started, "commit": commit, "variant": variant, "layer_cache": not no_cache, "base_image": base, "built": ok == "true", "build_s": int(build_s),
       "image_mb": None if size_mb == "null" else int(size_mb), "checks": json.loads(checks),
       "frontend": "built-in (syntax line dropped)" if offline else "docker/dockerfile:1"}
with open("bench/results/docker_build.jsonl", "a") as f:
    f.write(json.dumps(row) + "\n")
print(json.dumps(row, indent=1))
PY
$ok
