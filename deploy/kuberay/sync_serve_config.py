"""Write deploy/serve/strata-serve.yaml into deploy/kuberay/rayservice.yaml as its ``serveConfigV2``.

The Serve config lives in one place; the RayService embeds a generated copy (its comments included, the
file's header left out). ``tests/test_kuberay.py`` fails while the two differ.

    python deploy/kuberay/sync_serve_config.py            # rewrite rayservice.yaml
    python deploy/kuberay/sync_serve_config.py --check    # exit 1 if it is out of date

>>> block = serve_config_block("# header\\n\\nproxy_location: EveryNode\\n# note\\napplications: []\\n")
>>> print(block)
  serveConfigV2: |
    proxy_location: EveryNode
    # note
    applications: []
<BLANKLINE>
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent
SERVE_CONFIG = DEPLOY / "serve" / "strata-serve.yaml"
RAYSERVICE = DEPLOY / "kuberay" / "rayservice.yaml"
BEGIN = "  # --- serveConfigV2: generated from deploy/serve/strata-serve.yaml by deploy/kuberay/sync_serve_config.py ---\n"
END = "  # --- end of generated serveConfigV2 ---\n"


def serve_config_block(serve_yaml: str) -> str:
    """``serveConfigV2: |`` with the Serve config's lines from its first setting on (indented 4 spaces)."""
    lines = serve_yaml.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() and not line.startswith("#"))
    body = "".join(f"    {line}".rstrip() + "\n" for line in lines[start:])
    return "  serveConfigV2: |\n" + body


def synced(rayservice_yaml: str, serve_yaml: str) -> str:
    """``rayservice_yaml`` with the text between the generated-block markers replaced."""
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(rayservice_yaml):
        raise ValueError(f"{RAYSERVICE} has no generated serveConfigV2 block (markers {BEGIN.strip()!r} … {END.strip()!r})")
    return pattern.sub(lambda _: BEGIN + serve_config_block(serve_yaml) + END, rayservice_yaml)


def main(argv: list[str]) -> int:
    current = RAYSERVICE.read_text()
    wanted = synced(current, SERVE_CONFIG.read_text())
    if "--check" in argv:
        if wanted != current:
            print(f"{RAYSERVICE} is out of date: run python deploy/kuberay/sync_serve_config.py", file=sys.stderr)
            return 1
        return 0
    if wanted != current:
        RAYSERVICE.write_text(wanted)
        print(f"updated {RAYSERVICE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
