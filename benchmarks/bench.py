"""Side-by-side speed benchmark of a source checkout: the same program as ``gameshelf bench``.

    .venv/bin/python benchmarks/bench.py [--quick] [--json FILE] [--png FILE]

The benchmark lives in the package (:mod:`gameshelf.bench`), so an installed gameshelf runs it
too; this file only keeps the old path working.
"""

from __future__ import annotations

import sys

from gameshelf.bench import main

if __name__ == "__main__":
    sys.exit(main())
