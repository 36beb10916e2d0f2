"""Print the OpenAPI document (HTTP routes, the WebSocket frame schemas and the games' view and
move types) as JSON.

``scripts/gen-contract.sh`` writes it to ``web/src/generated/openapi.json`` and makes the
TypeScript types from it; a test fails when either is stale.

The frames carry views and legal moves as JSON objects whatever the game; the browser's boards
read them as these games' own types (``AxiomView``, ``CageMove``, ...), which each game states
once as ``TypedDict``s and names in its registry entry (``view_type``, ``move_type``). A game
with no board of its own needs no type here: the generic board reads any view and any move.
"""

from __future__ import annotations

import functools
import json
import operator
import re
import types
import typing
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin

import typing_extensions
from pydantic import Field, TypeAdapter

from gameshelf.core.registry import available_games, game_entry

from .app import create_app

DISCRIMINATOR = "kind"
"""The field that tells the members of a union of structured moves apart."""


def type_prefix(game: str) -> str:
    """The start of a game's type names in TypeScript: its name's words capitalised and joined
    (``axiom`` gives ``Axiom``, ``tic_tac_toe`` gives ``TicTacToe``)."""
    return "".join(word.capitalize() for word in re.split(r"[^0-9A-Za-z]+", game))


def _discriminated(kind: Any) -> Any:
    """``kind``, marked as told apart by :data:`DISCRIMINATOR` when it is a union of
    ``TypedDict``s that each fix that field to literal values (the generated TypeScript then
    narrows on it, and the schema says so)."""
    members = get_args(kind) if get_origin(kind) in (Union, types.UnionType) else ()
    fixed = [
        typing.is_typeddict(member)
        and get_origin(typing.get_type_hints(member).get(DISCRIMINATOR)) is Literal
        for member in members
    ]
    if fixed and all(fixed):
        return Annotated[kind, Field(discriminator=DISCRIMINATOR)]
    return kind


def board_types() -> dict[str, Any]:
    """The types the browser's own boards read, by the name the generated TypeScript gives
    them (``<Game>View`` and ``<Game>Move``), for every registered game that names them, in
    the order of the games' names (the same games, the same document)."""
    found: dict[str, Any] = {}
    for game in available_games():
        entry = game_entry(game)
        named = {"View": entry.view_type, "Move": entry.move_type}
        for suffix, kind in named.items():
            if kind is None:
                continue
            name = type_prefix(game) + suffix
            if name in found:
                raise ValueError(f"two games' board types are both named {name}")
            found[name] = _discriminated(kind)
    return found


def pydantic_ready(kind: Any, made: dict[Any, Any] | None = None) -> Any:
    """``kind`` with every standard-library ``TypedDict`` in it remade as a
    ``typing_extensions.TypedDict`` of the same name, fields, optional keys and docstring.

    The games state their types with the standard library only; pydantic reads a ``TypedDict``
    only from ``typing_extensions`` before Python 3.12.
    """
    made = {} if made is None else made
    if typing.is_typeddict(kind):
        if kind not in made:
            # with postponed annotations the optional keys show only in the hints themselves
            hints = typing.get_type_hints(kind, include_extras=True)
            fields = {}
            for key, hint in hints.items():
                optional = key in kind.__optional_keys__ or get_origin(hint) is NotRequired
                if get_origin(hint) in (NotRequired, Required):
                    hint = get_args(hint)[0]
                ready = pydantic_ready(hint, made)
                fields[key] = NotRequired[ready] if optional else ready
            remade: Any = typing_extensions.TypedDict(kind.__name__, fields)  # type: ignore[misc]
            remade.__doc__ = kind.__doc__
            made[kind] = remade
        return made[kind]
    origin, args = get_origin(kind), get_args(kind)
    if origin is None or origin is Literal or not args:
        return kind
    if origin is Annotated:
        return Annotated[(pydantic_ready(args[0], made), *kind.__metadata__)]
    inner = tuple(pydantic_ready(arg, made) for arg in args)
    if origin in (Union, types.UnionType):
        return functools.reduce(operator.or_, inner)
    return origin[inner]


def board_schemas() -> dict[str, Any]:
    """JSON Schemas of :func:`board_types` (and the types they use), keyed for an OpenAPI
    ``components/schemas``; two different types of one name are refused."""
    schemas: dict[str, Any] = {}
    made: dict[Any, Any] = {}
    for name, kind in board_types().items():
        adapter: TypeAdapter[Any] = TypeAdapter(pydantic_ready(kind, made))
        schema = adapter.json_schema(ref_template="#/components/schemas/{model}")
        for used, used_schema in {**schema.pop("$defs", {}), name: schema}.items():
            if schemas.setdefault(used, used_schema) != used_schema:
                raise ValueError(f"two board types use different types named {used}")
    return schemas


def sendable_client_frames(components: dict[str, Any]) -> None:
    """Drop the defaults from the client frames' fields, in place, so that the generated types
    let the browser leave those fields out (openapi-typescript types a field with a default as
    always present, which is true of what the server sends, not of what it accepts)."""
    union = components.get("ClientFrame", {})
    for member in union.get("oneOf", union.get("anyOf", [])):
        frame = components[member["$ref"].rsplit("/", 1)[-1]]
        for field in frame.get("properties", {}).values():
            field.pop("default", None)


def openapi_document() -> dict[str, Any]:
    """The server's OpenAPI document, as the running server would serve it, with the boards'
    types added to its components and the client frames' optional fields left optional."""
    document = create_app("sqlite://").openapi()
    components = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in board_schemas().items():
        if name in components and components[name] != schema:
            raise ValueError(f"the board type {name} has the name of another schema")
        components[name] = schema
    sendable_client_frames(components)
    return document


def main() -> None:
    """Write the document to standard output, keys sorted, so diffs stay small."""
    print(json.dumps(openapi_document(), indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
