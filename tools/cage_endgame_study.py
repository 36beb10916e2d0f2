"""Exact Cage endgames, and how the 4-player end phase went in arena games (docs/agents.md).

Once at most one cubie is left to drop, the game goes on only by twists and flips until someone
makes a line or that cubie is dropped (which ends the game either way). The positions reachable
from there (board, player to move, forbidden move) number from a few thousand (a rigid cage:
full corner columns) to hundreds of thousands; up to :data:`MAX_STATES` the whole graph is built
and solved by retrograde analysis (a few seconds).

The solution assumes every player plays for their own result: their own line above a draw, a
draw above anyone else's line; a player with only losing moves picks the one worst for the
searching player (the paranoid tie-break of ``agents/cage_multi.py``). Positions from which
nobody can force a line are draws (play cycles until the repetition rule or the ply cap). The
solver knows no history: a forced line longer than the plies left is still called won.

    .venv/bin/gameshelf arena 'cage(players=4)' --agents hard,openspiel-mcts,medium,greedy \
        --games 48 --jobs 2 --out /tmp/c4
    .venv/bin/python -m tools.cage_endgame_study /tmp/c4/records

prints, per agent, how often the position it had to move in was won for ``hard``, drawn or won
for another player, and how often its move changed that.
"""

from __future__ import annotations

import argparse
from collections import Counter, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path

from gameshelf.core.record import load_record
from gameshelf.core.registry import load
from gameshelf.games.cage import CageState

MAX_STATES = 40_000
"""Above this many states the endgame is not solved (a cap on time and memory)."""

Outcome = tuple[float, ...]


def endgame_applies(state: CageState) -> bool:
    """Whether at most one cubie is left to drop (the endgame this module solves)."""
    return state.outcome is None and sum(state.left) <= 1


def node_key(state: CageState) -> Hashable:
    """A state's identity in the endgame graph: board, player to move and the forbidden move."""
    return (tuple(state.board), state.player, state.position_key()[2], tuple(state.left))


@dataclass
class EndgameSolution:
    """The solved endgame graph around one root position, for one searching player."""

    me: int
    values: dict[Hashable, Outcome] = field(default_factory=dict)
    """Each state's result under best play (see the module docstring)."""
    distance: dict[Hashable, int] = field(default_factory=dict)
    """Plies to the end of the game for decided states (draw by cycling: absent)."""

    def value(self, state: CageState) -> Outcome | None:
        """``state``'s solved result (the final one for a finished game), or None if the
        graph does not hold it."""
        if state.outcome is not None:
            return tuple(state.outcome)
        return self.values.get(node_key(state))

    def plies(self, state: CageState) -> int | None:
        """Plies to the decided end from ``state``; None where play cycles (a draw)."""
        if state.outcome is not None:
            return 0
        return self.distance.get(node_key(state))


def solve_endgame(root: CageState, me: int, max_states: int = MAX_STATES) -> EndgameSolution | None:
    """Solve every position reachable from ``root`` (which must satisfy
    :func:`endgame_applies`) for the searching player ``me``; None if there are more than
    ``max_states``."""
    graph = _build_graph(root, max_states)
    if graph is None:
        return None
    keys, movers, children = graph
    return _retrograde(me, keys, movers, children, (0.0,) * root.game.config.players)


def _build_graph(
    root: CageState, max_states: int
) -> tuple[list[Hashable], list[int], list[list[int | Outcome]]] | None:
    """Every non-final state reachable from ``root``, numbered breadth first: their keys,
    movers and moves (a state's number, or the result of a move that ends the game)."""
    keys: list[Hashable] = [node_key(root)]
    index: dict[Hashable, int] = {keys[0]: 0}
    states = [root]
    movers: list[int] = []
    children: list[list[int | Outcome]] = []
    for state in states:  # grows while it is walked: a breadth-first sweep
        moves: list[int | Outcome] = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.outcome is not None:
                moves.append(tuple(child.outcome))
                continue
            key = node_key(child)
            at = index.get(key)
            if at is None:
                if len(keys) >= max_states:
                    return None
                at = index[key] = len(keys)
                keys.append(key)
                states.append(child)
            moves.append(at)
        movers.append(state.player)
        children.append(moves)
    return keys, movers, children


def _retrograde(
    me: int,
    keys: list[Hashable],
    movers: list[int],
    children: list[list[int | Outcome]],
    draw: Outcome,
) -> EndgameSolution:
    """Resolve states from the final ones back: a state is decided as soon as one move gives
    its mover a line, or once every move is decided (then the mover's best, ties broken against
    ``me``); what is never decided is a draw."""
    count = len(keys)
    value: list[Outcome | None] = [None] * count
    distance = [0] * count
    best: list[tuple[Outcome, int] | None] = [None] * count
    pending = [0] * count
    parents: list[list[int]] = [[] for _ in range(count)]
    queue: deque[int] = deque()

    def better(mover: int, new: Outcome, old: Outcome) -> bool:
        if new[mover] != old[mover]:
            return new[mover] > old[mover]
        return new[me] < old[me]

    def offer(node: int, outcome: Outcome, plies: int) -> None:
        """A decided move of ``node``'s mover leads to ``outcome`` in ``plies``."""
        mover = movers[node]
        if outcome[mover] >= 1.0:
            value[node], distance[node] = outcome, plies
            queue.append(node)
            return
        known = best[node]
        if known is None or better(mover, outcome, known[0]):
            best[node] = (outcome, plies)

    for node, moves in enumerate(children):
        for move in moves:
            if isinstance(move, int):
                pending[node] += 1
                parents[move].append(node)
        for move in moves:
            if value[node] is None and not isinstance(move, int):
                offer(node, move, 1)
        if value[node] is None and pending[node] == 0:
            _settle(node, best, value, distance, queue)
    while queue:
        child = queue.popleft()
        outcome = value[child]
        assert outcome is not None
        for node in parents[child]:
            if value[node] is not None:
                continue
            offer(node, outcome, distance[child] + 1)
            if value[node] is None:
                pending[node] -= 1
                if pending[node] == 0:
                    _settle(node, best, value, distance, queue)
    solution = EndgameSolution(me)
    for node, key in enumerate(keys):
        outcome = value[node]
        if outcome is None:
            solution.values[key] = draw
        else:
            solution.values[key] = outcome
            solution.distance[key] = distance[node]
    return solution


def _settle(
    node: int,
    best: list[tuple[Outcome, int] | None],
    value: list[Outcome | None],
    distance: list[int],
    queue: deque[int],
) -> None:
    """Decide ``node`` by its best decided move, every move being decided."""
    known = best[node]
    assert known is not None
    value[node], distance[node] = known
    queue.append(node)


def _label(outcome: Outcome, me: int) -> str:
    if outcome[me] > 0:
        return "won for hard"
    return "won for another" if max(outcome) > 0 else "drawn"


def study(records: Path) -> Counter[tuple[str, ...]]:
    """For every record in ``records`` (an arena's ``records`` folder) whose game reached an
    end phase with only ``hard`` holding a cubie: per move of that phase, (agent, solved result
    before the move[, "->", after it where it changed]); ("end phases", "solved" | "too big")
    counts the phases."""
    tally: Counter[tuple[str, ...]] = Counter()
    for path in sorted(records.glob("*.json")):
        record = load_record(path)
        names = [player.split(" ")[0] for player in record.players]
        me = names.index("hard")
        state = load(record.game).new_initial_state()
        assert isinstance(state, CageState)
        solution: EndgameSolution | None = None
        for action in (move.action for move in record.moves):
            if endgame_applies(state) and state.left == _hand(state, me):
                if solution is None:
                    solution = solve_endgame(state, me)
                    tally[("end phases", "solved" if solution else "too big")] += 1
                    if solution is None:
                        break
                _count_move(tally, solution, state, action, names)
            state.apply_action(action)
    return tally


def _count_move(
    tally: Counter[tuple[str, ...]],
    solution: EndgameSolution,
    state: CageState,
    action: int,
    names: list[str],
) -> None:
    before = solution.value(state)
    child = state.clone()
    child.apply_action(action)
    after = solution.value(child)
    assert before is not None and after is not None  # the phase's graph holds every state
    entry = (names[state.player], _label(before, solution.me))
    tally[entry] += 1
    if _label(after, solution.me) != entry[1]:
        tally[(*entry, "->", _label(after, solution.me))] += 1


def _hand(state: CageState, player: int) -> list[int]:
    """``state.left`` with every colour but ``player``'s emptied."""
    own = set(state.game.config.colours[player])
    return [left if colour in own else 0 for colour, left in enumerate(state.left)]


def main(argv: list[str] | None = None) -> int:
    """Study the records of one arena run and print the tally, a line per kind of move."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("records", type=Path, help="an arena run's records folder")
    args = parser.parse_args(argv)
    if not args.records.is_dir():
        parser.error(f"records: {args.records} is not a folder")
    tally = study(args.records)
    for entry, count in sorted(tally.items()):
        print(f"{' '.join(entry)}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
