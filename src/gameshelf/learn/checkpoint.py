"""Checkpoints: everything a run needs to go on where it stopped.

One ``checkpoint.npz`` in the run's folder holds the network, the optimiser's state, and a JSON
record of the run (its settings, the training step, the evaluation points of the learning curve
and the games played so far). It is written to a temporary name and renamed, so a run killed
mid-write leaves the previous checkpoint whole. The replay buffer is not kept: a resumed run
refills it from fresh self-play with the resumed network, which costs a few seconds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .network import arrays_of, with_arrays
from .settings import LearnError
from .train import Learner

CHECKPOINT = "checkpoint.npz"


def save_checkpoint(folder: Path, learner: Learner, record: dict[str, Any]) -> Path:
    """Write ``learner``'s network and optimiser state and the JSON-able ``record``."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {f"net_{i:03d}": a for i, a in enumerate(arrays_of(learner.net))}
    arrays |= {f"opt_{i:03d}": a for i, a in enumerate(arrays_of(learner.opt_state))}
    path = folder / CHECKPOINT
    partial = folder / (CHECKPOINT + ".partial")
    with partial.open("wb") as out:
        arrays["record"] = np.asarray(json.dumps(record))
        np.savez(out, **arrays)
    partial.replace(path)
    return path


def read_record(folder: Path) -> dict[str, Any]:
    """The run record of the checkpoint in ``folder``; :class:`LearnError` naming what is
    missing or unreadable."""
    path = folder / CHECKPOINT
    if not path.is_file():
        raise LearnError(f"no checkpoint to resume in {folder} (no {CHECKPOINT})")
    try:
        with np.load(path) as data:
            record: dict[str, Any] = json.loads(str(data["record"]))
    except (OSError, ValueError, KeyError) as exc:
        raise LearnError(f"checkpoint {path}: cannot be read ({exc})") from None
    return record


def restore_learner(folder: Path, learner: Learner) -> None:
    """Load the network and optimiser state of ``folder``'s checkpoint into ``learner``
    (built with the checkpoint's settings)."""
    path = folder / CHECKPOINT
    with np.load(path) as data:
        net = [data[k] for k in sorted(data.files) if k.startswith("net_")]
        opt = [data[k] for k in sorted(data.files) if k.startswith("opt_")]
    learner.net = with_arrays(learner.net, net, f"checkpoint {path} (network)")
    learner.opt_state = with_arrays(learner.opt_state, opt, f"checkpoint {path} (optimiser)")
