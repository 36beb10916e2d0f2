"""What people are told about an AXIA table: notation examples and a rules summary that states
the table's options. The long form is ``docs/games/axia.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core.registry import NotationExample, RulesSection

NOTATION = (
    NotationExample("S07>R1", "put scoring card S07 in slot R1 (setup)"),
    NotationExample("redraw T03,T12", "give back cards from your hand (redraw none keeps them)"),
    NotationExample("T12@B2", "place territory card T12 on cell B2 of your territory"),
    NotationExample("take 2", "refill from face-up card 2 (deck: the top of the deck)"),
    NotationExample("P1>c4", "take die P1 and hit the beast on c4 (P1>- takes it without a hit)"),
    NotationExample("item I07", "play item I07"),
    NotationExample("end", "end your turn"),
)


def rules_summary(values: Mapping[str, Any]) -> tuple[RulesSection, ...]:
    """AXIA's rules in short, for these resolved option values."""
    return (
        RulesSection("Goal", _goal(int(values["players"]))),
        RulesSection("Setup", _setup(values)),
        RulesSection("Each round", _round(values)),
    )


def _goal(players: int) -> tuple[str, ...]:
    goal = (
        "Build a 3x3 territory of Territory cards (a 6x6 grid of beasts) over 8 rounds and "
        "score the most points from your Scoring cards and kept Items."
    )
    if players > 1:
        return (goal, f"{players} Slayers play.")
    return (
        goal,
        "Solo: your final score gives your rank (0-80 Apprentice, 81-110 Novice, 111-150 "
        "Slayer, 151-200 Elite, 201+ Legend).",
    )


def _setup(values: Mapping[str, Any]) -> tuple[str, ...]:
    if values["first_game"]:
        scoring = "First game: 6 Scoring cards are dealt and placed at random."
    elif values["prioritize_objectives"]:
        scoring = "Scoring cards are drafted: from 7, pick 1 and pass the rest left."
    else:
        scoring = "Place Scoring cards on your 3 Row slots (left) and 3 Column slots (top)."
    items = [
        scoring,
        "A Scoring card is active once every beast of one of its two linked lines is wounded "
        "or defeated.",
        "Place one of 4 dealt Territory cards; keep the other 3 in hand.",
    ]
    if values["explore_regions"]:
        items.append("You may give back cards of your starting hand once and draw again.")
    return tuple(items)


def _round(values: Mapping[str, Any]) -> tuple[str, ...]:
    items = [
        "Roll all dice (Physical P, Magic M).",
        "Place: everyone secretly chooses a hand card and an empty cell; the choices are "
        "revealed together.",
        "Refill: take a face-up card or the top of the deck.",
        "Hit, in snake order: take one die and hit a beast in your territory. A beast needing "
        "a Magic die can only be hit with one; Magic dice are wild. The first hit wounds, the "
        "second defeats; a critical hit (the die equals the printed number, or any hit on a "
        "beast with no number) defeats at once.",
        "A defeated beast's effect fires; you choose its targets. One Item may be played per turn.",
    ]
    if values["must_hit_if_possible"]:
        items.append("You may not take a die you cannot use while a usable die remains.")
    if values["rakya_effect"] == "none":
        items.append("A defeated Rakya has no effect.")
    return tuple(items)
