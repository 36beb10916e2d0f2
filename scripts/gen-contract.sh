#!/usr/bin/env bash
# Regenerate the wire contract the browser compiles against, from the server's pydantic models:
#   web/src/generated/openapi.json  the OpenAPI document (HTTP routes + WebSocket frame schemas)
#   web/src/generated/api.ts        TypeScript types made from it by openapi-typescript
# tests/server/test_contract.py fails when these are stale; run this after changing
# src/gameshelf/server/contract.py or a route.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
mkdir -p web/src/generated
"$python" -m gameshelf.server.export_contract > web/src/generated/openapi.json
(cd web && npx --no-install openapi-typescript src/generated/openapi.json -o src/generated/api.ts >/dev/null)
echo "gen-contract: wrote web/src/generated/openapi.json and web/src/generated/api.ts"
