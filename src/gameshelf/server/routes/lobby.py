"""What the lobby offers: games, bots, card sets, and the server's health."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from gameshelf import __version__
from gameshelf.agents.catalogue import agent_catalogue
from gameshelf.core.registry import game_entry, load, offered_games

from ..contract import AgentInfo, GameFactsInfo, GameInfo, Health, OptionInfo
from ..deps import get_hub, get_settings
from ..hub import Hub
from ..settings import ServerSettings
from ..vetting import network_option, vet_network_game

router = APIRouter(tags=["lobby"])


@router.get("/healthz")
async def health(hub: Annotated[Hub, Depends(get_hub)]) -> Health:
    """Liveness check, with how many matches this process holds and drives."""
    owned = None if hub.cluster is None else len(hub.cluster.owned)
    return Health(
        status="ok",
        version=__version__,
        matches_in_memory=len(hub.registry.matches),
        matches_owned=owned,
    )


@router.get("/api/games")
async def games(hub: Annotated[Hub, Depends(get_hub)]) -> list[GameInfo]:
    """Every game with its options, as this server takes them (a card set by name only), and
    its facts (title, seats, notation, rules summary) at the default options; the featured
    games first (a lobby starts from the first), then the others by name."""
    infos = []
    for name in offered_games():
        entry = game_entry(name)
        options = []
        for o in entry.options:
            default, allowed, doc = network_option(o, hub.catalog, entry.name)
            options.append(
                OptionInfo(
                    name=o.name,
                    default=default,
                    allowed=allowed,
                    doc=doc,
                    choices=list(o.choices) or None,
                )
            )
        facts = GameFactsInfo.of(entry.facts(load(entry.name)))
        infos.append(
            GameInfo(
                name=entry.name,
                title=entry.title,
                summary=entry.summary,
                options=options,
                facts=facts,
            )
        )
    return infos


@router.get("/api/card-sets")
async def card_sets(hub: Annotated[Hub, Depends(get_hub)]) -> list[str]:
    """The AXIA card sets this server accepts for ``cards=`` (never a file path)."""
    return hub.catalog.names()


@router.get("/api/agents")
async def agents(
    hub: Annotated[Hub, Depends(get_hub)],
    settings: Annotated[ServerSettings, Depends(get_settings)],
    game: Annotated[str | None, Query(max_length=512)] = None,
) -> list[AgentInfo]:
    """Bots that can take a seat, weakest first; with ``game``, only those fit for it."""
    loaded = None
    if game is not None:
        vetted = await asyncio.to_thread(vet_network_game, game, hub.catalog, settings.max_plies)
        loaded = vetted.game
    infos = await asyncio.to_thread(agent_catalogue, loaded)
    return [
        AgentInfo(name=i.name, strength=i.strength, summary=i.summary, level=i.level) for i in infos
    ]
