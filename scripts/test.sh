#!/usr/bin/env bash
# Install (idempotent) and run the test suite: bash scripts/test.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
unset RAY_ADDRESS
exec .venv/bin/python -m pytest "$@"
