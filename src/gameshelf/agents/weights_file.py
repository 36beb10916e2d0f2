"""Reading a learned evaluation's weights file (Axiom's and the two-player Cage's): the JSON
text, and a check that it weighs exactly the evaluation's terms.

The files are written by the maintainers' learning tools (``tools/learn``, outside the
package); the levels only read them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_weights_file(path: Path, label: str) -> Any:
    """The JSON of a weights file; ``ValueError`` naming it (``label``, e.g. ``Axiom weights
    file``) if it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{label} {path}: cannot be read as JSON ({exc})") from None


def check_terms(values: object, terms: Sequence[str], source: str) -> dict[str, Any]:
    """``values`` as a weights mapping with exactly ``terms`` as keys; ``ValueError`` naming
    ``source`` and what is wrong otherwise."""
    if not isinstance(values, dict):
        raise ValueError(f"{source}: no 'weights' object")
    unknown = sorted(set(values) - set(terms))
    missing = [term for term in terms if term not in values]
    if unknown or missing:
        raise ValueError(
            f"{source}: unknown terms {unknown}, missing terms {missing}; "
            f"the terms are {', '.join(terms)}"
        )
    return values
