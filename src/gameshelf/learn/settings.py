"""A run's settings: the network's shape, the learner's, the self-play search's and the loop's.

Plain dataclasses with no third-party import, so the command line reads its defaults here
without loading jax.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from gameshelf.core.errors import GameshelfError


class LearnError(GameshelfError):
    """A run that cannot start or go on as asked (its folder, its checkpoint, its cluster)."""

    code = "learn/bad-run"


@dataclass(frozen=True)
class NetConfig:
    """The network's shape: the seats it plays for and its width and depth."""

    players: int = 2
    hidden: int = 128
    blocks: int = 3

    @property
    def values(self) -> int:
        """The value head's outputs: the mover's value alone at two seats (the other seat's is
        its negation), else one value per seat, the mover's first and then round the table
        (at three or four seats one player's loss is not the others' shared win)."""
        return 1 if self.players == 2 else self.players


@dataclass(frozen=True)
class SearchConfig:
    """The self-play search: simulations per move, the actions a Gumbel root considers (mctx),
    and for a search tree in Python the leaves one tree sends to each batched evaluation
    (virtual loss keeps them apart) and the opening plies whose move is drawn by visits."""

    simulations: int = 32
    considered: int = 16
    leaves: int = 4
    sampled_plies: int = 16


@dataclass(frozen=True)
class TrainConfig:
    """The learner's settings."""

    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    batch_size: int = 256
    buffer_size: int = 50_000


@dataclass(frozen=True)
class RunSettings:
    """What a run learns with; kept in the checkpoint, so a resumed run goes on alike."""

    net: NetConfig = field(default_factory=NetConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    games_per_worker: int = 64
    plies_per_call: int = 16
    updates_per_call: int = 16
    eval_every: int = 2000
    eval_games: int = 6
    eval_opponents: tuple[str, ...] = ("greedy", "hard@0.25")
    eval_simulations: int = 64
    checkpoint_every: int = 500
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSettings:
        """Settings read back from :meth:`to_json`."""
        nested = {"net": NetConfig, "train": TrainConfig, "search": SearchConfig}
        values = {k: nested[k](**v) if k in nested else v for k, v in data.items()}
        values["eval_opponents"] = tuple(values["eval_opponents"])
        return cls(**values)


@dataclass(frozen=True)
class Progress:
    """Where a run stands, for a progress bar."""

    step: int
    steps: int
    games: int
    loss: float | None
