"""Learn the two-player Cage evaluation's weights from self-play, and measure them.

    .venv/bin/python scripts/cage_learn.py train [--games 600] [--nodes 3000] [--opening 4]
        [--jobs 2] [--out src/gameshelf/agents/data/cage_weights.json] [--play-weights FILE|hand]
    .venv/bin/python scripts/cage_learn.py duel [--weights FILE] [--against FILE|hand]
        [--games 200] [--nodes 12000] [--opening 4] [--jobs 2]

``train`` plays the self-play games of the Cage alpha-beta (``--play-weights``: the
hand-written evaluation by default, or a weights file to iterate from; ``--nodes`` a move, each
game opened by ``--opening`` seeded random plies), fits the weights
(gameshelf.agents.cage_learn) and writes them with how they were made: about 9 minutes on two
cores at the defaults. ``duel`` plays the weights against others (default: the hand-written
evaluation) on equal node budgets from the same random openings, each opening once with each
side first: about 6 minutes for 200 games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gameshelf.agents.cage_eval import LEARNED_PATH, TERMS, CageWeights, load_weights
from gameshelf.agents.cage_learn import duel, fit, self_play_job
from gameshelf.agents.learning import (
    duel_command,
    learner_main,
    self_play_jobs,
    self_play_rows,
    trained_facts,
    write_trained,
)


def weights_named(name: str) -> CageWeights | None:
    """``hand`` (None: the hand-written evaluation) or the weights of a file."""
    return None if name == "hand" else load_weights(Path(name))


def train(args: argparse.Namespace) -> int:
    players = weights_named(args.play_weights)
    result = fit(self_play_rows(self_play_job, self_play_jobs(args, players), args.jobs))
    data = {
        "weights": dict(zip(TERMS, result.weights.vector(), strict=True)),
        "trained": {
            **trained_facts(args, result.positions, result.cross_entropy),
            "constant_cross_entropy": round(result.constant_cross_entropy, 4),
        },
    }
    write_trained(args.out, data)
    return 0


if __name__ == "__main__":
    sys.exit(
        learner_main(
            __doc__,
            train,
            duel_command(duel, load_weights, weights_named),
            LEARNED_PATH,
            (600, 3000),
            12000,
        )
    )
