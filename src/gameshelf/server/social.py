"""The live frames around a game: chat, mutes and rematch offers (docs/server.md).

:mod:`gameshelf.server.live` hands these frames here; this module answers them through the
hub's :class:`~gameshelf.server.chat.ChatRooms` and :class:`~gameshelf.server.rematch.Rematches`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .contract import ChatFrame, ChatMessagesFrame, MutedFrame, MuteFrame, RematchOfferFrame

if TYPE_CHECKING:
    from .hub import Hub
    from .match import Match
    from .outbox import Client


def handles(frame: Any) -> bool:
    """Whether ``frame`` is one of the frames this module answers."""
    return isinstance(frame, ChatFrame | MuteFrame | RematchOfferFrame)


async def on_connect(hub: Hub, match: Match, client: Client) -> None:
    """After the welcome and state: the chat so far, and the rematch news of a finished game."""
    await hub.chat.history(match, client)
    if match.status == "finished":
        next_id = await hub.rematches.next_of(match.id)
        if next_id is not None or hub.rematches.offers.get(match.id):
            client.send(hub.rematches.frame(match, next_id))


async def dispatch(
    hub: Hub, match: Match, client: Client, frame: Any, request_id: str | int | None
) -> None:
    """Answer a chat, mute or rematch frame (a refusal is raised as a coded error)."""
    if isinstance(frame, ChatFrame):
        message = await hub.chat.say(match, client, frame.seat, frame.text)
        client.send(
            ChatMessagesFrame(type="chat", match=match.id, messages=[message], ack=request_id)
        )
    elif isinstance(frame, MuteFrame):
        muted = hub.chat.mute(match, client, list(frame.seats))
        client.send(MutedFrame(type="muted", seats=muted, ack=request_id))
    elif isinstance(frame, RematchOfferFrame):
        next_id = await hub.rematches.offer(match, client, frame.seat, frame.accept)
        reply = hub.rematches.frame(match, next_id)
        reply.ack = request_id
        client.send(reply)
