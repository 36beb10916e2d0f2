"""The Axiom game and state: turns, action ids, elimination and the end of the game.

Action ids (state-relative, bounded): cubes are ranked by their cell in sorted order (0..11).

* sceptre move: ``source_rank * 72 + target_rank * 6 + face`` (< 864);
* cube move: ``864 + ((source_rank * 12 + anchor_rank) * 6 + anchor_dir) * 18 + placement``,
  where the anchor is the lowest-ranked other cube next to the target cell, ``anchor_dir`` the
  direction from it to the target, and ``placement`` the index of the dome set in
  :data:`~.geometry.PLACEMENTS`.

The notation, not the id, is what records and people use; ids only need to be a bijection
within one state, which the conformance checks verify.
"""

from __future__ import annotations

import hashlib
import random
import re
from array import array
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from gameshelf.core import (
    TERMINAL,
    Game,
    GameSpec,
    IllegalMove,
    InvalidOption,
    InvalidPosition,
    State,
)

from .board import (
    SCEPTRE_ACTIONS,
    WIDTH,
    RuleOptions,
    around,
    cube_move_ids,
    eliminable,
    placement_problem,
    sceptre_blocker,
    sceptre_targets,
    tall_stop_problem,
    validate_board,
)
from .fast import (
    BIAS,
    STEP,
    XSHIFT,
    YMASK,
    YSHIFT,
    ZMASK,
    Packed,
    PSceptre,
    build_entries,
    cube_counts,
    cube_ids,
    lift,
    movable,
    pack,
    packable,
    place,
    sceptre_ids,
    source_ids,
    supports,
    unpack,
)
from .geometry import (
    PLACEMENT_INDEX,
    PLACEMENTS,
    Cell,
    format_cell,
    is_valid_mask,
    mirror_cell,
    mirror_mask,
    step,
)
from .notation import (
    BLACK,
    COLOR_NAMES,
    WHITE,
    Cubes,
    ParsedMove,
    Sceptre,
    dirs_to_mask,
    format_cube_move,
    format_listing,
    format_sceptre_move,
    parse_listing_line,
    parse_move,
)

CUBE_ACTIONS = 12 * 12 * 6 * len(PLACEMENTS)
NUM_ACTIONS = SCEPTRE_ACTIONS + CUBE_ACTIONS

#: Black's half of the standard start: (cell, dome mask, sceptre face or None).
STANDARD_SETUP = (
    "C(-1,0,1)x- z+; C(0,0,1)x- y-; C(1,0,1)x- z+; "
    "C(-1,0,2)x+; C(0,0,2)z-; C(1,0,2)x+; S(-1,0,2)z+; S(1,0,2)z+"
)

Move_ = tuple[int, Cell, Cell, int]
"""Internal move: ``(0, source cube, target cube, face)`` or ``(1, source, target, mask)``."""

RESULT_REASONS = ("capture", "self-capture", "no-move", "repetition", "ply-cap")
_HEADER_RE = re.compile(r"^\s*(to-move|ply|result|seen)\s*:\s*(.*?)\s*$", re.IGNORECASE)


def parse_setup(text: str) -> tuple[Cubes, list[Sceptre]]:
    """Black's half as ``C(x,y,z)domes; ...; S(x,y,z)face``, mirrored for White.

    Raises ``ValueError`` with the reason (the option machinery names the option).
    """
    if text.strip().lower() == "standard":
        text = STANDARD_SETUP
    cubes: Cubes = {}
    sceptres: list[Sceptre] = []
    for number, part in enumerate(text.split(";"), start=1):
        if not part.strip():
            continue
        piece = part.strip()
        line = f"(black) {piece[0]} {piece[1:]}" if piece[:1] in "CScs" else piece
        try:
            parsed = parse_listing_line(line, number)
        except InvalidPosition as exc:
            raise ValueError(f"setup item {piece!r}: {exc}") from None
        if parsed is None:
            continue
        mirror = mirror_cell(parsed.cell)
        if parsed.piece == "C":
            mask = dirs_to_mask(list(parsed.dirs))
            for cell, value in ((parsed.cell, mask), (mirror, WHITE << 6 | mirror_mask(mask))):
                if cell in cubes:
                    raise ValueError(f"two cubes in cell {format_cell(cell)}")
                cubes[cell] = value
        else:
            d = parsed.dirs[0]
            sceptres.append((BLACK, parsed.cell, d))
            sceptres.append((WHITE, mirror, mirror_mask(1 << d).bit_length() - 1))
    return cubes, sceptres


def _digest(cubes: Cubes, sceptres: list[Sceptre], to_move: int) -> str:
    """Repetition key: the position up to translation in x and y, with the side to move.

    Sorting cells sorts their translates the same way, so the cells are sorted as they are and
    shifted after.
    """
    if cubes:
        cells = sorted(cubes)
        mx = cells[0][0]
        my = min([c[1] for c in cells])
    else:
        cells = []
        mx = my = 0
    key = (
        to_move,
        [(x - mx, y - my, z, cubes[x, y, z]) for x, y, z in cells],
        [(s, x - mx, y - my, z, d) for s, (x, y, z), d in sorted(sceptres)],
    )
    return hashlib.blake2b(repr(key).encode(), digest_size=8).hexdigest()


RepKey = Any
"""A repetition key: a :func:`_digest` string (tuple path) or :func:`_packed_key` bytes."""


def _packed_key(cubes: Packed, cells: list[int], sceptres: list[PSceptre], to_move: int) -> RepKey:
    """The repetition key of a fast state: :func:`_digest`'s content as 64-bit ints, unhashed
    (bytes: compact to keep, exact to compare).

    ``cells`` are the packed cells in ascending order. :func:`_key_digest` turns it into the
    digest of the same position.
    """
    if cells:
        my = min([c >> YSHIFT & YMASK for c in cells])
        shift = (cells[0] >> XSHIFT << XSHIFT) + (my << YSHIFT)
    else:
        shift = BIAS
    codes = [to_move, len(cells)]
    codes += [(c - shift) << 8 | cubes[c] for c in cells]
    codes += sorted([s << 60 | (c - shift) << 3 | d for s, c, d in sceptres])
    return array("q", codes).tobytes()


def _key_digest(key: RepKey) -> str:
    """The :func:`_digest` string of a repetition key."""
    if isinstance(key, str):
        return key
    codes = array("q")
    codes.frombytes(key)
    to_move, count = codes[0], codes[1]

    def cell(code: int) -> tuple[int, int, int]:
        return (code >> XSHIFT, code >> YSHIFT & YMASK, code & ZMASK)

    content = (
        to_move,
        [(*cell(c >> 8), c & 255) for c in codes[2 : 2 + count]],
        [(s >> 60, *cell(s >> 3 & ((1 << 57) - 1)), s & 7) for s in codes[2 + count :]],
    )
    return hashlib.blake2b(repr(content).encode(), digest_size=8).hexdigest()


def _move_sceptre(
    pcubes: Packed,
    entries: dict[int, int],
    psceptres: list[PSceptre],
    mover: int,
    source: int,
    target: int,
    face: int,
) -> tuple[int, bool, tuple[int, str] | None]:
    """Move ``mover``'s sceptre from ``source`` to ``target`` on the packed board (shared by
    :meth:`AxiomState._apply_fast` and :meth:`AxiomState.random_rollout`).

    Returns the sceptre's index, whether the enemy cube it left was lifted (uncovered and no
    longer holding a sceptre), and the capture / self-capture outcome, if any.
    """
    index = next(i for i, (s, c, _) in enumerate(psceptres) if s == mover and c == source)
    psceptres[index] = (mover, target, face)
    holders = [s for i, (s, c, _) in enumerate(psceptres) if c == target and i != index]
    lifted = (
        pcubes[source] >> 6 != mover
        and pcubes[target] >> 6 == mover
        and source + 1 not in pcubes
        and all(c != source for _, c, _ in psceptres)
    )
    if lifted:
        del pcubes[source]
        lift(pcubes, entries, source)
    if 1 - mover in holders:
        return index, lifted, (mover, "capture")
    if mover in holders:
        return index, lifted, (1 - mover, "self-capture")
    return index, lifted, None


class AxiomGame(Game):
    """Axiom with its options fixed (built by the registry from a game string)."""

    def __init__(self, values: Mapping[str, Any], specs: tuple[Any, ...] = ()) -> None:
        self.options = RuleOptions.from_values(values)
        self.setup_text = str(values.get("setup", "standard"))
        try:
            cubes, sceptres = parse_setup(self.setup_text)
            validate_board(self.options, cubes, sceptres, finished=False)
        except (ValueError, InvalidPosition) as exc:
            raise InvalidOption(
                f"option setup={self.setup_text!r} is not a valid start: {exc}"
            ) from None
        self.setup = (cubes, sceptres)
        self.spec = GameSpec(
            name="axiom",
            title="Axiom",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            simultaneous=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.options.max_plies,
            rules_version="axiom-2008-1",
            options=specs,
            params=dict(values),
        )

    def new_initial_state(self, seed: int | None = None) -> AxiomState:
        """The agreed start (``setup``), Black to move."""
        cubes, sceptres = self.setup
        return AxiomState(self, dict(cubes), list(sceptres), BLACK)

    def state_from_position(self, text: str) -> AxiomState:
        """Read :meth:`AxiomState.position` text, or a bare listing (then Black to move)."""
        if not isinstance(text, str):
            raise InvalidPosition(f"a position must be text, not {type(text).__name__}")
        headers: dict[str, str] = {}
        body = []
        for line in text.splitlines():
            match = _HEADER_RE.match(line)
            if match:
                headers[match.group(1).lower()] = match.group(2)
                body.append("")  # keep line numbers of the listing for error messages
            else:
                body.append(line)
        to_move = _parse_color(headers.get("to-move", "black"))
        try:
            ply = int(headers.get("ply", "0"))
        except ValueError:
            raise InvalidPosition(f"ply {headers['ply']!r} is not an integer") from None
        if ply < 0:
            raise InvalidPosition(f"ply {ply} is negative")
        outcome = _parse_result(headers.get("result", "-"))
        state = self.from_listing("\n".join(body), to_move, outcome=outcome)
        state.ply = ply
        if "seen" in headers:
            state.seen = _parse_seen(headers["seen"])
        return state

    def from_listing(
        self, text: str, to_move: int, outcome: tuple[int, str] | None = None
    ) -> AxiomState:
        """A state from a play-by-email listing; :class:`InvalidPosition` names the bad line."""
        cubes: Cubes = {}
        sceptres: list[Sceptre] = []
        lines: dict[Cell, int] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            parsed = parse_listing_line(raw, number)
            if parsed is None:
                continue
            if parsed.piece == "C":
                if parsed.cell in cubes:
                    raise InvalidPosition(
                        f"line {number}: two cubes in one cell {format_cell(parsed.cell)} "
                        f"(also on line {lines[parsed.cell]})"
                    )
                mask = dirs_to_mask(list(parsed.dirs))
                if not is_valid_mask(mask):
                    raise InvalidPosition(
                        f"line {number}: a cube's two domes lie on adjacent faces, not opposite"
                    )
                cubes[parsed.cell] = parsed.color << 6 | mask
                lines[parsed.cell] = number
            else:
                sceptres.append((parsed.color, parsed.cell, parsed.dirs[0]))
        validate_board(self.options, cubes, sceptres, finished=outcome is not None)
        return AxiomState(self, cubes, sceptres, to_move, outcome=outcome)


@lru_cache(maxsize=1 << 16)
def _parse_move_cached(text: str) -> ParsedMove:
    return parse_move(text)


def _parse_color(text: str) -> int:
    low = text.strip().lower()
    if low not in COLOR_NAMES:
        raise InvalidPosition(f"side to move {text!r} must be black or white")
    return COLOR_NAMES.index(low)


def _parse_result(text: str) -> tuple[int, str] | None:
    words = text.split()
    if words in ([], ["-"]):
        return None
    winners = {"black-wins": BLACK, "white-wins": WHITE, "draw": -1}
    if len(words) != 2 or words[0] not in winners or words[1] not in RESULT_REASONS:
        raise InvalidPosition(
            f"result {text!r} must be '-' or 'black-wins|white-wins|draw REASON' with REASON one "
            f"of {', '.join(RESULT_REASONS)}"
        )
    return winners[words[0]], words[1]


def _parse_seen(text: str) -> dict[str, int]:
    seen = {}
    for word in text.split():
        key, _, count = word.partition(":")
        if not re.fullmatch(r"[0-9a-f]{16}", key) or not count.isdigit() or int(count) < 1:
            raise InvalidPosition(f"seen entry {word!r} must be HEX16:COUNT")
        seen[key] = int(count)
    return seen


@lru_cache(maxsize=1 << 16)
def _move_text(move: Move_) -> str:
    kind, source, target, extra = move
    if kind == 0:
        return format_sceptre_move(source, target, extra)
    return format_cube_move(source, target, extra)


class AxiomActionInfo(NamedTuple):
    """What one action id does, read in the position it belongs to (see
    :meth:`AxiomState.action_info`)."""

    kind: str
    """``"sceptre"`` or ``"cube"``."""
    source: Cell
    """The cube the sceptre leaves, or the cell the cube is lifted from."""
    target: Cell
    """The cube the sceptre goes to, or the cell the cube is placed in."""
    captures: bool
    """A sceptre move that ends on a cube holding an opposing sceptre: it wins."""
    self_capture: bool
    """A sceptre move that ends on a cube holding the mover's other sceptre: it loses."""


class AxiomState(State):
    """An Axiom position: cubes, sceptres, side to move, ply count and repetition counts.

    Public fields (read-only for callers; change the state only through actions):

    * ``to_move`` — 0 (Black) or 1 (White), the side whose turn it is (also after the end);
    * ``ply`` — plies played since the start (or as loaded);
    * ``cubes`` — cell ``(x, y, z)`` → cube code ``colour << 6 | dome mask``;
    * ``sceptres`` — list of ``(owner, cell of its cube, face direction)``.

    :meth:`moves_of` and :meth:`action_info` let a bot look at either side's moves.
    """

    game: AxiomGame

    def __init__(
        self,
        game: AxiomGame,
        cubes: Cubes,
        sceptres: list[Sceptre],
        to_move: int,
        outcome: tuple[int, str] | None = None,
    ) -> None:
        self.game = game
        self.cubes = cubes
        self.sceptres = sceptres
        self.to_move = to_move
        self.ply = 0
        self.outcome = outcome
        self._history: list[int] = []
        self._owned = True
        self._legal: list[int] | None = None
        self._rank: tuple[list[Cell], dict[Cell, int]] | None = None
        # the fast path (see .fast): packed twins of cubes and sceptres, kept in step with them
        self._fast = bool(cubes) and supports(game.options, game.options.max_plies)
        self._fast = self._fast and packable(cubes)
        self._pcubes: Packed = {}
        self._psceptres: list[PSceptre] = []
        self._pcells: list[int] = []
        self._pentries: dict[int, int] = {}
        if self._fast:
            self._pcubes = {pack(cell): value for cell, value in cubes.items()}
            self._psceptres = [(s, pack(cell), d) for s, cell, d in sceptres]
            self._pcells = sorted(self._pcubes)
            self._pentries = build_entries(self._pcubes)
        # repetition counts by key (see _rep_key) and, for a loaded position, by digest
        self._seen_keys: dict[RepKey, int] = {self._rep_key(): 1}
        self._seen_hex: dict[str, int] = {}

    # --- repetition counts ----------------------------------------------------------------
    @property
    def seen(self) -> dict[str, int]:
        """How often each position (its 16-hex-digit digest) has occurred."""
        counts = dict(self._seen_hex)
        for key, count in self._seen_keys.items():
            digest = _key_digest(key)
            counts[digest] = counts.get(digest, 0) + count
        return counts

    @seen.setter
    def seen(self, counts: dict[str, int]) -> None:
        self._seen_hex = dict(counts)
        self._seen_keys = {}
        self._owned = False  # the old key dict may be shared; the next move copies

    def _rep_key(self) -> RepKey:
        if self._fast:
            return _packed_key(self._pcubes, self._pcells, self._psceptres, self.to_move)
        return _digest(self.cubes, self.sceptres, self.to_move)

    # --- move generation ------------------------------------------------------------------
    def _ranks(self) -> tuple[list[Cell], dict[Cell, int]]:
        if self._rank is None:
            cells = sorted(self.cubes)
            self._rank = (cells, {cell: index for index, cell in enumerate(cells)})
        return self._rank

    def _anchor(self, source: Cell, target: Cell, rank: dict[Cell, int]) -> int:
        """``anchor_rank * 6 + anchor_dir`` of a cube move's target cell (-1: no neighbour)."""
        best = -1
        get = rank.get
        for d, q in enumerate(around(target)):
            r = get(q)
            if r is not None and q != source:
                code = r * 6 + (d ^ 1)
                if best < 0 or code < best:
                    best = code
        return best

    def _encode(self, move: Move_, rank: dict[Cell, int]) -> int:
        kind, source, target, extra = move
        if kind == 0:
            return rank[source] * 72 + rank[target] * 6 + extra
        anchor = self._anchor(source, target, rank)
        return SCEPTRE_ACTIONS + (
            (rank[source] * 72 + anchor) * len(PLACEMENTS) + PLACEMENT_INDEX[extra]
        )

    def _decode(self, action: int) -> Move_ | None:
        cells, _ = self._ranks()
        count = len(cells)
        if 0 <= action < SCEPTRE_ACTIONS:
            s, t = action // 72, action // 6 % 12
            if s >= count or t >= count:
                return None
            return (0, cells[s], cells[t], action % 6)
        rest = action - SCEPTRE_ACTIONS
        if not 0 <= rest < CUBE_ACTIONS:
            return None
        rest, placement = divmod(rest, len(PLACEMENTS))
        rest, anchor_dir = divmod(rest, 6)
        source, anchor = divmod(rest, 12)
        if source >= count or anchor >= count:
            return None
        return (1, cells[source], step(cells[anchor], anchor_dir), PLACEMENTS[placement])

    def _decodable(self, action: int) -> bool:
        """Whether :meth:`_decode` would name a move (without decoding it)."""
        count = len(self._pcells)
        if 0 <= action < SCEPTRE_ACTIONS:
            return action // 72 < count and action // 6 % 12 < count
        rest = action - SCEPTRE_ACTIONS
        if not 0 <= rest < CUBE_ACTIONS:
            return False
        rest //= 6 * WIDTH
        return rest // 12 < count and rest % 12 < count

    def moves_of(self, player: int) -> list[int]:
        """The action ids ``player`` (0 or 1) would have if it were ``player``'s turn here,
        ascending; for the player to move this equals :meth:`legal_actions`.

        The ids decode in this position (:meth:`action_info`, :meth:`action_to_string` of the
        cells they name). A finished game has no moves for either side.
        """
        if player not in (BLACK, WHITE):
            raise ValueError(f"player {player!r} must be 0 (black) or 1 (white)")
        if player == self.to_move:
            return list(self._legal_ids())
        if self.outcome is not None:
            return []
        return self._generate(player)

    def action_info(self, action: int) -> AxiomActionInfo:
        """What ``action`` (an id of :meth:`legal_actions` or :meth:`moves_of`) does here.

        The mover is the owner of the piece it moves; ``IllegalMove`` when the id names no
        move of a piece in this position.
        """
        move = self._decode(action) if isinstance(action, int) else None
        if move is None:
            raise IllegalMove(f"action {action!r} names no move in this position")
        kind, source, target, _ = move
        if kind == 1:
            return AxiomActionInfo("cube", source, target, False, False)
        owners = [s for s, c, _ in self.sceptres if c == source]
        if not owners:
            raise IllegalMove(f"action {action}: no sceptre stands on {format_cell(source)}")
        mover = owners[0]
        there = [s for s, c, _ in self.sceptres if c == target] if target != source else []
        return AxiomActionInfo("sceptre", source, target, 1 - mover in there, mover in there)

    def _generate(self, me: int | None = None) -> list[int]:
        """Every legal action id of ``me`` (default: the side to move), ascending."""
        opts = self.game.options
        if me is None:
            me = self.to_move
        if self._fast:
            pcubes, pcells, psceptres = self._pcubes, self._pcells, self._psceptres
            prank = {cell: index for index, cell in enumerate(pcells)}
            ids, risky = sceptre_ids(opts, pcubes, psceptres, me, prank)
            sources, air = movable(pcubes, pcells, psceptres, me)
            ids += cube_ids(opts, pcubes, self._pentries, prank, sources, air)
            if risky and not ids:
                ids = risky
            ids.sort()
            return ids
        return self._generate_on_tuples(me)

    def _generate_on_tuples(self, me: int | None = None) -> list[int]:
        """:meth:`_generate` through :mod:`.board` (the options the fast path lacks; tests)."""
        opts = self.game.options
        cubes, sceptres = self.cubes, self.sceptres
        if me is None:
            me = self.to_move
        cells, rank = self._ranks()
        ids: list[int] = []
        risky: list[int] = []  # sceptre moves onto a cube holding another own sceptre
        forced = opts.self_capture == "only_if_forced"
        own = {c for s, c, _ in sceptres if s == me} if forced else set()
        for index, (color, cell, _) in enumerate(sceptres):
            if color == me:
                base = rank[cell] * 72
                for target, face in sceptre_targets(opts, cubes, sceptres, index):
                    action = base + rank[target] * 6 + face
                    if forced and target in own and target != cell:
                        risky.append(action)
                    else:
                        ids.append(action)
        ids.extend(cube_move_ids(opts, cubes, sceptres, me, cells))
        if risky and not ids:
            ids = risky
        ids.sort()
        return ids

    def _is_self_capture(self, move: Move_) -> bool:
        if move[0] != 0:
            return False
        return any(c == move[2] and s == self.to_move and c != move[1] for s, c, _ in self.sceptres)

    def _legal_ids(self) -> list[int]:
        if self._legal is None:
            if self.outcome is not None:
                self._legal = []
            else:
                self._legal = self._generate()
        return self._legal

    # --- protocol primitives --------------------------------------------------------------
    def current_player(self) -> int:
        """0 (Black) or 1 (White), or ``TERMINAL``."""
        return TERMINAL if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        return list(self._legal_ids())

    def is_terminal(self) -> bool:
        """Over by capture, self-capture, repetition, ply cap, or no legal move."""
        return self.outcome is not None or not self._legal_ids()

    def returns(self) -> list[float]:
        """+1 / -1 for the winner / loser, 0 each for a draw or an unfinished game."""
        winner = self.winner()
        if winner is None or winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == BLACK else [-1.0, 1.0]

    def winner(self) -> int | None:
        """``None`` while the game runs, ``-1`` for a draw, else the winning colour."""
        if self.outcome is not None:
            return self.outcome[0]
        if self._legal_ids():
            return None
        return -1 if self.game.options.no_move_result == "draw" else 1 - self.to_move

    def end_reason(self) -> str | None:
        """Why the game ended (one of ``RESULT_REASONS``), or ``None``."""
        if self.outcome is not None:
            return self.outcome[1]
        return None if self._legal_ids() else "no-move"

    def apply_action(self, action: int) -> None:
        """Apply a legal action id (unchecked)."""
        move = None
        if self._fast:
            if not self._decodable(action):
                raise IllegalMove(f"action {action} is not a move here")
        else:
            move = self._decode(action)
            if move is None:
                raise IllegalMove(f"action {action} is not a move here")
        if not self._owned:
            self._seen_keys = dict(self._seen_keys)
            self._history = list(self._history)
            self._owned = True
        if move is None:
            self._apply_fast(action)
        else:
            self._apply(move)
        self._history.append(action)

    def _apply_fast(self, action: int) -> None:
        """:meth:`_apply` on the packed board (the action decoded on packed cells)."""
        cells = self._pcells
        pcubes = self._pcubes
        mover = self.to_move
        if action < SCEPTRE_ACTIONS:
            source, target, face = cells[action // 72], cells[action // 6 % 12], action % 6
            index, lifted, self.outcome = _move_sceptre(
                pcubes, self._pentries, self._psceptres, mover, source, target, face
            )
            self.sceptres[index] = (mover, unpack(target), face)
            if lifted:
                del self.cubes[unpack(source)]
                self._pcells = sorted(pcubes)
        else:
            rest, placement = divmod(action - SCEPTRE_ACTIONS, WIDTH)
            rest, anchor_dir = divmod(rest, 6)
            source_rank, anchor = divmod(rest, 12)
            source = cells[source_rank]
            target = cells[anchor] + STEP[anchor_dir]
            value = pcubes.pop(source)
            lift(pcubes, self._pentries, source)
            pcubes[target] = value = (value & ~63) | PLACEMENTS[placement]
            place(pcubes, self._pentries, target, value)
            del self.cubes[unpack(source)]
            self.cubes[unpack(target)] = value
            self._pcells = sorted(pcubes)
        self.to_move = 1 - mover
        self.ply += 1
        self._legal = None
        self._rank = None
        if self.outcome is None:
            self._count_position()

    def _count_position(self) -> None:
        """Count the position just reached; draw by repetition or the ply cap."""
        opts = self.game.options
        key = self._rep_key()
        self._seen_keys[key] = count = self._seen_keys.get(key, 0) + 1
        if self._seen_hex:
            count += self._seen_hex.get(_key_digest(key), 0)
        if opts.repetition_draw and count >= opts.repetition_draw:
            self.outcome = (-1, "repetition")
        elif self.ply >= opts.max_plies:
            self.outcome = (-1, "ply-cap")

    def _apply(self, move: Move_) -> None:
        opts = self.game.options
        kind, source, target, extra = move
        mover = self.to_move
        if kind == 0:
            index = next(
                i for i, (s, c, _) in enumerate(self.sceptres) if s == mover and c == source
            )
            self.sceptres[index] = (mover, target, extra)
            holders = [s for i, (s, c, _) in enumerate(self.sceptres) if c == target and i != index]
            if (
                self.cubes[source] >> 6 != mover
                and self.cubes[target] >> 6 == mover
                and eliminable(opts, self.cubes, self.sceptres, source)
            ):
                del self.cubes[source]
            if 1 - mover in holders:
                self.outcome = (mover, "capture")
            elif mover in holders:
                self.outcome = (1 - mover, "self-capture")
        else:
            value = self.cubes.pop(source)
            self.cubes[target] = (value & ~63) | extra
        self.to_move = 1 - mover
        self.ply += 1
        self._legal = None
        self._rank = None
        if self.outcome is None:
            self._count_position()

    def clone(self) -> AxiomState:
        """An independent copy (dicts and lists copied; tuples shared)."""
        copy = AxiomState.__new__(AxiomState)
        copy.game = self.game
        copy.cubes = dict(self.cubes)
        copy.sceptres = list(self.sceptres)
        copy.to_move = self.to_move
        copy.ply = self.ply
        copy.outcome = self.outcome
        copy._fast = self._fast
        copy._pcubes = dict(self._pcubes)
        copy._psceptres = list(self._psceptres)
        copy._pcells = self._pcells  # replaced, never changed in place
        copy._pentries = dict(self._pentries)
        # the repetition counts and the history are shared until one side moves (copy on write)
        copy._seen_keys = self._seen_keys
        copy._seen_hex = self._seen_hex
        copy._history = self._history
        copy._owned = self._owned = False
        copy._legal = self._legal
        copy._rank = self._rank
        return copy

    def random_rollout(self, rng: random.Random, max_plies: int) -> int:
        """Play uniformly random legal moves in place for at most ``max_plies`` plies or until
        the game ends; return the plies played.

        Draws exactly as the generic loop ``legal = state.legal_actions();
        state.apply_action(legal[rng.randrange(len(legal))])`` (or ``rng.choice(legal)``)
        does: one ``randrange(len(legal))`` a ply, the same move, the same end state. On the
        fast path it counts the moves instead of listing them and lists only the chosen
        cube's moves (see :func:`.fast.cube_counts`).
        """
        if not self._fast:
            plies = 0
            while plies < max_plies and not self.is_terminal():
                legal = self._legal_ids()
                self.apply_action(legal[rng.randrange(len(legal))])
                plies += 1
            return plies
        if self.outcome is not None or max_plies <= 0:
            return 0
        if not self._owned:
            self._seen_keys = dict(self._seen_keys)
            self._history = list(self._history)
            self._owned = True
        opts = self.game.options
        pcubes, psceptres, history = self._pcubes, self._psceptres, self._history
        entries = self._pentries
        seen, seen_hex = self._seen_keys, self._seen_hex
        repetition, ply_cap = opts.repetition_draw, opts.max_plies
        randrange = rng.randrange
        cells = self._pcells
        prank = {cell: index for index, cell in enumerate(cells)}
        me = self.to_move
        plies = 0
        outcome = None
        while plies < max_plies:
            ids, risky = sceptre_ids(opts, pcubes, psceptres, me, prank)
            sources, air = movable(pcubes, cells, psceptres, me)
            counts = cube_counts(opts, entries, sources, air) if sources else []
            total = len(ids) + sum(counts)
            if not total:
                if not risky:
                    break  # no legal move: the game is over
                ids, total = risky, len(risky)
            pick = randrange(total)
            if pick < len(ids):
                ids.sort()
                action = ids[pick]
                source, target, face = cells[action // 72], cells[action // 6 % 12], action % 6
                _, lifted, outcome = _move_sceptre(
                    pcubes, entries, psceptres, me, source, target, face
                )
                if lifted:
                    cells = sorted(pcubes)
                    prank = {cell: index for index, cell in enumerate(cells)}
            else:
                pick -= len(ids)
                at = 0
                while pick >= counts[at]:
                    pick -= counts[at]
                    at += 1
                chosen = sources[at]
                action = source_ids(opts, entries, prank, chosen, air)[pick]
                code, placement = divmod(action - SCEPTRE_ACTIONS, WIDTH)
                code %= 72
                value = pcubes.pop(chosen[0])
                lift(pcubes, entries, chosen[0])
                target = cells[code // 6] + STEP[code % 6]
                pcubes[target] = value = (value & ~63) | PLACEMENTS[placement]
                place(pcubes, entries, target, value)
                cells = sorted(pcubes)
                prank = {cell: index for index, cell in enumerate(cells)}
            history.append(action)
            me = 1 - me
            plies += 1
            if outcome is not None:
                break
            key = _packed_key(pcubes, cells, psceptres, me)
            seen[key] = count = seen.get(key, 0) + 1
            if seen_hex:
                count += seen_hex.get(_key_digest(key), 0)
            if repetition and count >= repetition:
                outcome = (-1, "repetition")
                break
            if self.ply + plies >= ply_cap:
                outcome = (-1, "ply-cap")
                break
        # write the packed board back to the public fields
        self._pcells = cells
        self.to_move = me
        self.ply += plies
        self.outcome = outcome
        self._legal = None
        self._rank = None
        self.cubes.clear()
        self.cubes.update({unpack(cell): pcubes[cell] for cell in cells})
        self.sceptres[:] = [(s, unpack(c), d) for s, c, d in psceptres]
        return plies

    def history(self) -> list[int]:
        """Action ids applied since this state's game began (or since it was loaded)."""
        return list(self._history)

    # --- notation -------------------------------------------------------------------------
    def move_text(self, move: Move_) -> str:
        """Notation of an internal move."""
        return _move_text(move)

    def action_to_string(self, action: int) -> str:
        """``S(..) S(..)f`` or ``C(..) C(..)d1 d2``."""
        move = self._decode(action)
        if move is None:
            raise IllegalMove(f"action {action} names no move in this position")
        return self.move_text(move)

    def parse_action(self, text: str) -> int:
        """The action id of ``text``; :class:`InvalidMove` when it is not Axiom notation."""
        parsed = _parse_move_cached(text) if isinstance(text, str) else parse_move(text)
        if parsed.source not in self.cubes:
            raise IllegalMove(f"move {text!r}: there is no cube at {format_cell(parsed.source)}")
        _, rank = self._ranks()
        if parsed.piece == "S":
            if parsed.target not in self.cubes:
                raise IllegalMove(
                    f"move {text!r}: there is no cube at {format_cell(parsed.target)}"
                )
            return self._encode((0, parsed.source, parsed.target, parsed.dirs[0]), rank)
        mask = dirs_to_mask(list(parsed.dirs))
        if not is_valid_mask(mask):
            raise IllegalMove(f"move {text!r}: no cube has domes on opposite faces")
        if parsed.target == parsed.source:
            raise IllegalMove(f"move {text!r}: a cube cannot be re-orientated in the same place")
        anchor = self._anchor(parsed.source, parsed.target, rank)
        if anchor < 0:
            reason = placement_problem(
                self.game.options,
                self.cubes,
                self.sceptres,
                self.to_move,
                parsed.source,
                parsed.target,
                mask,
            )
            raise IllegalMove(f"move {text!r} is illegal: {reason}")
        return SCEPTRE_ACTIONS + (
            (rank[parsed.source] * 72 + anchor) * len(PLACEMENTS) + PLACEMENT_INDEX[mask]
        )

    def explain_illegal(self, action: int, text: str) -> str:
        """A precise reason why ``action`` is not legal here."""
        move = self._decode(action)
        if move is None:
            return f"move {text!r} names no move in this position"
        _, rank = self._ranks()
        text = self.move_text(move)
        canonical = (
            self._encode(move, rank)
            if move[0] == 0 or self._anchor(move[1], move[2], rank) >= 0
            else action
        )
        if canonical != action and canonical in self._legal_ids():
            return f"action {action} is not the id of {text!r} here; its id is {canonical}"
        return f"move {text!r} is illegal: {self._reason(move)}"

    def _reason(self, move: Move_) -> str:
        opts = self.game.options
        kind, source, target, extra = move
        mover = COLOR_NAMES[self.to_move]
        if kind == 1:
            problem = placement_problem(
                opts, self.cubes, self.sceptres, self.to_move, source, target, extra
            )
            return problem or "self-capture is allowed only when no other move exists"
        if not any(s == self.to_move and c == source for s, c, _ in self.sceptres):
            return f"no {mover} sceptre stands on the cube at {format_cell(source)}"
        problem = sceptre_blocker(opts, self.cubes, self.sceptres, (target, extra))
        if problem:
            return problem
        if self._is_self_capture(move) and opts.self_capture == "only_if_forced":
            return "self-capture is allowed only when no other move exists"
        index = next(
            i for i, (s, c, _) in enumerate(self.sceptres) if s == self.to_move and c == source
        )
        face = (target, extra)
        if opts.tall and face in sceptre_targets(
            opts, self.cubes, self.sceptres, index, passing=True
        ):
            return "it may pass there but not stop: " + tall_stop_problem(
                self.cubes, self.sceptres, index, face
            )
        return (
            "no straight lateral or diagonal path of open recesses leads there "
            "(a dome, a sceptre, the table or a squeeze is in the way, or the face is not clear)"
        )

    # --- text forms -----------------------------------------------------------------------
    def position(self) -> str:
        """Headers (side to move, ply, result, repetition counts) and the listing."""
        if self.outcome is None:
            result = "-"
        else:
            winner, reason = self.outcome
            who = "draw" if winner < 0 else f"{COLOR_NAMES[winner]}-wins"
            result = f"{who} {reason}"
        seen = " ".join(f"{k}:{v}" for k, v in sorted(self.seen.items()))
        lines = [
            f"to-move: {COLOR_NAMES[self.to_move]}",
            f"ply: {self.ply}",
            f"result: {result}",
            f"seen: {seen}",
            *format_listing(self.cubes, self.sceptres),
        ]
        return "\n".join(lines) + "\n"

    def listing(self) -> str:
        """Only the play-by-email listing (no headers)."""
        return "\n".join(format_listing(self.cubes, self.sceptres)) + "\n"

    def describe_player(self, player: int) -> str:
        """``black`` / ``white`` for 0 / 1."""
        if player in (BLACK, WHITE):
            return COLOR_NAMES[player]
        return super().describe_player(player)

    def result_text(self) -> str:
        """E.g. ``black wins (capture)`` or ``draw (repetition)``."""
        if not self.is_terminal():
            return f"in progress, {COLOR_NAMES[self.to_move]} to move"
        winner = self.winner()
        who = "draw" if winner is None or winner < 0 else f"{COLOR_NAMES[winner]} wins"
        return f"{who} ({self.end_reason()})"

    def view(self, player: int | None) -> dict[str, Any]:
        """Cubes, sceptres, side to move, ply and result as JSON-able data (see :mod:`.view`);
        the same for every player (no hidden information)."""
        from .view import build_view

        return build_view(self, player)

    def render(self, color: bool = False) -> str:
        """Layer-by-layer terminal picture."""
        from .render import render_text

        return render_text(self, color=color)
