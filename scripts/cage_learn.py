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
side first: about 18 minutes for 200 games at the defaults (6 games took 32 s).
"""

from __future__ import annotations

import sys
from typing import Any

from gameshelf.agents.cage_eval import LEARNED_PATH, TERMS, load_weights
from gameshelf.agents.cage_learn import Fit, duel, fit, self_play_job
from gameshelf.cli.learn import Learner, learner_main


def record(result: Fit) -> tuple[dict[str, Any], dict[str, Any]]:
    """The weights file's weights (logistic units) and the fit's own facts."""
    weights = dict(zip(TERMS, result.weights.vector(), strict=True))
    return weights, {"constant_cross_entropy": round(result.constant_cross_entropy, 4)}


# "hand" is the hand-written evaluator, which has no weights: None.
CAGE = Learner(self_play_job, fit, record, duel, load_weights, None, LEARNED_PATH, 600, 3000, 12000)

if __name__ == "__main__":
    sys.exit(learner_main(__doc__, CAGE))
