"""Print the OpenAPI document (HTTP routes plus the WebSocket frame schemas) as JSON.

``scripts/gen-contract.sh`` writes it to ``web/src/generated/openapi.json`` and makes the
TypeScript types from it; a test fails when either is stale.
"""

from __future__ import annotations

import json
from typing import Any

from .app import create_app


def openapi_document() -> dict[str, Any]:
    """The server's OpenAPI document, as the running server would serve it."""
    return create_app("sqlite://").openapi()


def main() -> None:
    """Write the document to standard output, keys sorted, so diffs stay small."""
    print(json.dumps(openapi_document(), indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
