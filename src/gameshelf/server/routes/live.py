"""The WebSocket route of live play; the session itself is in :mod:`gameshelf.server.live`."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..deps import client_address
from ..errors import ServerError
from ..guard import SocketCounter
from ..live import CLOSE_TRY_LATER, error_frame, serve_socket

router = APIRouter()


@router.websocket("/ws/matches/{match_id}")
async def live(websocket: WebSocket, match_id: str) -> None:
    """Live play of one match (frames: ``contract.ClientFrame`` / ``contract.ServerFrame``)."""
    address = client_address(websocket)
    sockets: SocketCounter = websocket.app.state.sockets
    settings = websocket.app.state.settings
    if not sockets.acquire(address):
        await websocket.accept()  # so the client reads a reason, not a bare 403
        busy = ServerError(
            "server/busy", f"at most {settings.sockets_per_address} connections per address"
        )
        await websocket.send_json(error_frame(busy).model_dump(mode="json", exclude_unset=True))
        await websocket.close(code=CLOSE_TRY_LATER)
        return
    try:
        await websocket.accept()
        await serve_socket(websocket.app.state.hub, websocket, match_id, settings, address)
    finally:
        sockets.release(address)
