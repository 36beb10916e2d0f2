"""The typed wire contract: every route answers a declared model, every frame on the wire is a
contract frame, and the browser's generated types are not stale."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.contract import SERVER_FRAMES
from gameshelf.server.export_contract import openapi_document

from .conftest import RunningServer

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "web" / "src" / "generated"
STALE = "stale: run scripts/gen-contract.sh and commit web/src/generated/"


def test_every_json_operation_declares_a_typed_answer() -> None:
    document = openapi_document()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            answers = [code for code in operation["responses"] if code.startswith("2")]
            assert answers, (method, path)
            for code in answers:
                schema = operation["responses"][code]["content"]["application/json"]["schema"]
                assert "$ref" in schema or "items" in schema, (method, path, schema)
    schemas = document["components"]["schemas"]
    assert {"ClientFrame", "ServerFrame", "StateFrame", "MoveFrame"} <= set(schemas)


def test_the_committed_openapi_document_is_current() -> None:
    committed = json.loads((GENERATED / "openapi.json").read_text(encoding="utf-8"))
    assert committed == openapi_document(), STALE


def test_the_generated_typescript_types_are_current(tmp_path: Path) -> None:
    tool = ROOT / "web" / "node_modules" / ".bin" / "openapi-typescript"
    assert tool.exists(), "web/node_modules is missing: run scripts/build-web.sh (npm ci) first"
    assert shutil.which("node"), "Node.js is needed to check the generated types"
    fresh = tmp_path / "api.ts"
    subprocess.run(
        [str(tool), str(GENERATED / "openapi.json"), "-o", str(fresh)],
        cwd=ROOT / "web",
        check=True,
        capture_output=True,
    )
    assert fresh.read_text() == (GENERATED / "api.ts").read_text(), STALE


def test_every_frame_a_client_receives_is_a_contract_frame(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    token = lobby.join(match["id"])["token"]
    with SeatClient(server.url, match["id"], [token]) as table:
        for _ in range(4):
            state = table.wait_for_turn(0)
            if state["status"] != "running":
                break
            table.move(0, state["seats"]["0"]["legal_moves"][0])
        table.request({"type": "ping"})
        table.request({"type": "move", "seat": 0, "move": "nonsense", "version": -1})
        table.request({"type": "sync"})
        assert len(table.received) > 6
        for frame in table.received:
            SERVER_FRAMES.validate_python(frame)
