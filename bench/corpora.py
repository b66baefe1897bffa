"""Real benchmark corpora from Debian documentation packages (apt-get download; no other network).

    python bench/corpora.py --tokens 1000000 --out /tmp/strata-bench/corpus-1m

downloads and unpacks the packages once into ``--cache`` and links a deterministic subset of
their files into ``--out`` until the estimated token count reaches ``--tokens``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pipelines.sources.units import BYTES_PER_TOKEN, text_bytes  # noqa: E402  (how ingest sizes files, too)

# package → (glob under the unpacked tree, ~tokens in total); heading-rich markup in four formats.
PACKAGES: dict[str, str] = {
    "python3.11-doc": "usr/share/doc/python3.11/html/_sources/**/*.rst.txt",
    "linux-doc-6.1": "usr/share/doc/linux-doc-6.1/Documentation/**/*.rst.gz",
    "perl-doc": "usr/share/perl/*/pod/*.pod",
    "postgresql-doc-15": "usr/share/doc/postgresql-doc-15/html/*.html",
}
CACHE = Path.home() / ".cache" / "strata-bench" / "debian"  # downloaded and unpacked packages, shared by the benches


def fetch(cache: Path, packages=None) -> Path:
    """Download and unpack every package (default :data:`PACKAGES`) into ``cache/root`` (skips what is
    already there)."""
    root = cache / "root"
    cache.mkdir(parents=True, exist_ok=True)
    for package in PACKAGES if packages is None else packages:
        marker = cache / f"{package}.unpacked"
        if marker.exists():
            continue
        debs = list(cache.glob(f"{package}_*.deb"))
        if not debs:
            subprocess.run(["apt-get", "download", "-q", package], cwd=cache, check=True)
            debs = list(cache.glob(f"{package}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root)], check=True)
        marker.touch()
    return root


def select(root: Path, tokens: int, out: Path) -> tuple[int, int]:
    """Link files round-robin across packages into ``out`` until ~``tokens``; returns (files, est. tokens)."""
    pools = [sorted(p for p in root.glob(pattern) if p.is_file()) for pattern in PACKAGES.values()]
    out.mkdir(parents=True, exist_ok=True)
    total = files = 0
    index = 0
    while total < tokens * BYTES_PER_TOKEN and any(index < len(pool) for pool in pools):
        for pool in pools:
            if index < len(pool) and total < tokens * BYTES_PER_TOKEN:
                src = pool[index]
                dst = out / src.relative_to(root)
                dst.parent.mkdir(parents=True, exist_ok=True)
                if not dst.exists():
                    os.symlink(src, dst)
                total += text_bytes(str(src), src.stat().st_size)
                files += 1
        index += 1
    return files, int(total / BYTES_PER_TOKEN)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cache", type=Path, default=CACHE)
    args = parser.parse_args()
    files, estimate = select(fetch(args.cache), args.tokens, args.out)
    print(f"{args.out}: {files} files, ~{estimate:,} tokens (estimated)")


if __name__ == "__main__":
    main()
