#!/usr/bin/env bash
# Re-resolve the pinned dependency sets from pyproject.toml (Python 3.11, Linux x86_64).
set -euo pipefail
cd "$(dirname "$0")/.."
for variant in cpu gpu; do
  uv pip compile pyproject.toml --extra "$variant" --extra test --extra otlp --python-version 3.11 \
    --python-platform x86_64-manylinux_2_28 --no-header -q -o "requirements/$variant.lock"
done
