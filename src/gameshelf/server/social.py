"""The live frames around a game: chat, mutes and rematch offers (docs/server.md).

:mod:`gameshelf.server.live` hands these frames here; this module answers them through the
hub's :class:`~gameshelf.server.chat.ChatRooms` and :class:`~gameshelf.server.rematch.Rematches`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .contract import ChatFrame, MuteFrame, RematchOfferFrame

if TYPE_CHECKING:
    from .hub import Client, Hub, Runtime


def handles(frame: Any) -> bool:
    """Whether ``frame`` is one of the frames this module answers."""
    return isinstance(frame, ChatFrame | MuteFrame | RematchOfferFrame)


async def on_connect(hub: Hub, runtime: Runtime, client: Client) -> None:
    """After the welcome and state: the chat so far, and the rematch news of a finished game."""
    await hub.chat.history(runtime, client)
    if runtime.status == "finished":
        next_id = await hub.rematches.next_of(runtime.id)
        if next_id is not None or hub.rematches.offers.get(runtime.id):
            client.offer(hub.rematches.frame(runtime, next_id))


async def dispatch(
    hub: Hub, runtime: Runtime, client: Client, frame: Any, request_id: str | int | None
) -> None:
    """Answer a chat, mute or rematch frame (a refusal is raised as a coded error)."""
    if isinstance(frame, ChatFrame):
        message = await hub.chat.say(runtime, client, frame.seat, frame.text)
        client.offer(
            {"type": "chat", "match": runtime.id, "messages": [message], "ack": request_id}
        )
    elif isinstance(frame, MuteFrame):
        muted = hub.chat.mute(runtime, client, list(frame.seats))
        client.offer({"type": "muted", "seats": muted, "ack": request_id})
    elif isinstance(frame, RematchOfferFrame):
        next_id = await hub.rematches.offer(runtime, client, frame.seat, frame.accept)
        reply = hub.rematches.frame(runtime, next_id)
        client.offer(reply | {"ack": request_id})
