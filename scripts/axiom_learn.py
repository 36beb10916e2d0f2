"""Learn the Axiom evaluation's weights from self-play, and measure them.

    .venv/bin/python scripts/axiom_learn.py train [--games 1200] [--nodes 1500] [--opening 4]
        [--jobs 2] [--out src/gameshelf/agents/data/axiom_weights.json] [--play-weights FILE|hand]
    .venv/bin/python scripts/axiom_learn.py duel [--weights FILE] [--against FILE|hand]
        [--games 200] [--nodes 2000] [--opening 4] [--jobs 2]

``train`` plays the self-play games (``--play-weights``: hand-written by default, or a weights
file to iterate from; ``--nodes`` a move, each opened by
``--opening`` seeded random plies), fits the weights (gameshelf.agents.axiom_learn) and writes
them with how they were made: about 28 minutes on two cores at the defaults. ``duel`` plays the
weights against other weights (default: the hand-written ones) on equal node budgets from the
same random openings, each opening once with each side: about 6 minutes for 200 games.
"""

from __future__ import annotations

import sys
from typing import Any

from gameshelf.agents.axiom_eval import DEFAULT_WEIGHTS, LEARNED_PATH, load_weights
from gameshelf.agents.axiom_learn import Fit, duel, fit, self_play_job
from gameshelf.cli.learn import Learner, learner_main


def record(result: Fit) -> tuple[dict[str, Any], dict[str, Any]]:
    """The weights file's weights (centi-cubes) and the fit's own facts."""
    weights = {t: getattr(result.weights, t) for t in result.weights.__dataclass_fields__}
    return weights, {
        "hand_written_cross_entropy": round(result.default_cross_entropy, 4),
        "centi_cubes_per_logistic_unit": round(result.scale, 1),
    }


AXIOM = Learner(
    self_play_job, fit, record, duel, load_weights, DEFAULT_WEIGHTS, LEARNED_PATH, 1200, 1500, 2000
)

if __name__ == "__main__":
    sys.exit(learner_main(__doc__, AXIOM))
