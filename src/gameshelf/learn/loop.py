"""The training loop: self-play workers as Ray actors, one learner, checkpoints and the curve.

The loop is the same for every game; the game's recipe (:mod:`.recipe`) gives the network's
shape and how a worker plays. Each worker (:class:`SelfPlayWorker`, one Ray actor, one CPU)
keeps its own batch of games going and, asked to play, takes the newest weights from Ray's
object store, plays ``plies_per_call`` moves in every game and returns the samples and move
lists of the games that ended. The learner
(this process) keeps one request in flight per worker: whenever one answers it stores the samples
in the replay buffer, takes ``updates_per_call`` gradient steps, puts the new weights in the object
store once, and sends the worker off again with them. Weights and games travel through Ray only.

Ray runs locally (one process per worker) unless ``address`` names a cluster; a Ray that is
already initialised (a test, a notebook) is used as it is. Every ``eval_every`` steps and at the
end the learner plays a short match against each evaluation opponent for the learning curve, and
every ``checkpoint_every`` steps and at the end it writes the checkpoint, the weights, the
curve's PNG and a summary into ``out``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from gameshelf.core.rng import derive_seed

from .checkpoint import CHECKPOINT, read_record, restore_learner, save_checkpoint
from .evaluate import CurvePoint, play_match, plot_curve
from .network import arrays_of, init_network, save_weights
from .recipe import recipe_named
from .samples import empty_samples
from .settings import LearnError, Progress, RunSettings
from .train import Learner, ReplayBuffer


class SelfPlayWorker:
    """One self-play worker: a batch of games kept going between calls (a Ray actor). It is
    sent the game's name and finds the recipe itself (for the settings' players), in its own
    process."""

    def __init__(
        self,
        game: str,
        settings: dict[str, Any],
        seed: int,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        run_settings = RunSettings.from_json(settings)
        recipe = recipe_named(game, run_settings.net.players)
        self.player = recipe.selfplay(run_settings, seed)
        self.clock = clock

    def play(self, weights: list[np.ndarray]) -> dict[str, Any]:
        """Play one call's moves with ``weights``; the finished games' samples and moves, the
        positions played and the seconds it took."""
        started = self.clock()
        samples, games, plies = self.player.play(weights)
        seconds = self.clock() - started
        return {"samples": samples, "games": games, "plies": plies, "seconds": seconds}


def _ray(address: str | None, workers: int) -> tuple[Any, bool]:
    """Ray, initialised; and whether this call started it (and so should shut it down)."""
    import ray

    if ray.is_initialized():
        return ray, False
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise LearnError(f"cannot start on {where}: {exc}") from None
    return ray, True


class Run:
    """One training run of the game called ``game`` at ``players`` (``None``: the game's default
    table) into ``out``: fresh, or resumed from the checkpoint there (at its players)."""

    def __init__(
        self,
        game: str,
        out: Path,
        steps: int,
        workers: int = 1,
        settings: RunSettings | None = None,
        resume: bool = False,
        address: str | None = None,
        clock: Callable[[], float] = time.perf_counter,
        players: int | None = None,
    ) -> None:
        if steps < 1:
            raise LearnError(f"--steps must be at least 1, not {steps}")
        if workers < 1:
            raise LearnError(f"--workers must be at least 1, not {workers}")
        if out.exists() and not out.is_dir():
            raise LearnError(f"--out {out} is a file; name a folder for the run")
        if not resume and (out / CHECKPOINT).exists():
            raise LearnError(
                f"{out} holds a run already: go on with --resume, or choose another --out"
            )
        self.recipe = recipe_named(game, players)
        self.out, self.steps, self.workers, self.address = out, steps, workers, address
        self.clock = clock
        if resume:
            self.record = read_record(out)
            if self.record.get("game", self.recipe.name) != self.recipe.name:
                raise LearnError(
                    f"the run in {out} learns {self.record['game']}, not {self.recipe.name}"
                )
            self.settings = RunSettings.from_json(self.record["settings"])
            seats = self.settings.net.players
            if players is not None and players != seats:
                raise LearnError(f"the run in {out} learns at {seats} players, not {players}")
            self.recipe = recipe_named(game, seats)
        else:
            self.settings = settings or self.recipe.defaults
            if self.settings.net.players != self.recipe.players:
                raise LearnError(
                    f"settings for {self.settings.net.players} players cannot learn "
                    f"{self.recipe.game}, played by {self.recipe.players}"
                )
            self.record = {
                "game": self.recipe.name,
                "settings": self.settings.to_json(),
                "step": 0,
                "games": 0,
                "samples": 0,
                "plies": 0,
                "curve": [],
            }
        self.resume = resume
        if self.record["step"] >= steps:
            raise LearnError(
                f"the checkpoint in {out} is at step {self.record['step']} already; "
                f"ask for more than {steps} steps"
            )
        recipe = self.recipe
        like = empty_samples(
            recipe.inputs, recipe.max_moves, len(recipe.heads), self.settings.net.values
        )
        self.buffer = ReplayBuffer(self.settings.train.buffer_size, like)
        self.rng = np.random.default_rng(derive_seed(self.settings.seed, "batches", self.step))
        self.last_loss: float | None = None
        self.session_plies = 0
        self.selfplay_seconds = 0.0
        """Self-play positions played in this session, and the seconds the workers spent
        playing them (summed over workers: positions a second of one worker)."""
        self.learner: Learner
        self.games: list[list[int]] = []
        """The moves of every game finished in this session (for checks and records)."""

    def new_learner(self) -> Learner:
        """The learner at the run's start: a fresh network, or the checkpoint's."""
        recipe = self.recipe
        net = init_network(self.settings.net, self.settings.seed, recipe.inputs, recipe.heads)
        learner = Learner(net, self.settings.train, recipe.heads)
        if self.resume:
            restore_learner(self.out, learner)
        return learner

    @property
    def step(self) -> int:
        """Training steps done (over every session of the run)."""
        return int(self.record["step"])

    @property
    def curve(self) -> list[CurvePoint]:
        """The learning curve so far."""
        return [CurvePoint(**point) for point in self.record["curve"]]

    def go(self, progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
        """Train to ``steps``; the summary written to ``out/summary.json``."""
        # Ray first: its local processes are started before JAX's threads exist.
        ray, started = _ray(self.address, self.workers)
        try:
            self.learner = self.new_learner()
            return self._train(ray, progress or (lambda _: None))
        finally:
            if started:
                ray.shutdown()

    def _train(self, ray: Any, progress: Callable[[Progress], None]) -> dict[str, Any]:
        settings = self.settings.to_json()
        actor = ray.remote(num_cpus=1)(SelfPlayWorker)
        workers = [
            actor.remote(
                self.recipe.name, settings, derive_seed(self.settings.seed, "worker", i, self.step)
            )
            for i in range(self.workers)
        ]
        started, first_step = self.clock(), self.step
        weights = ray.put(arrays_of(self.learner.net))
        pending = {worker.play.remote(weights): worker for worker in workers}
        if self.step == 0:
            self._evaluate()
        while self.step < self.steps:
            [ready], _ = ray.wait(list(pending), num_returns=1)
            worker = pending.pop(ready)
            self._store(ray.get(ready))
            if self.buffer.size >= self.settings.train.batch_size:
                self._learn(progress)
                weights = ray.put(arrays_of(self.learner.net))
            pending[worker.play.remote(weights)] = worker
            progress(Progress(self.step, self.steps, self.record["games"], self.last_loss))
        for worker in workers:
            ray.kill(worker)
        if not self.curve or self.curve[-1].step != self.step:
            self._evaluate()
        elapsed = self.clock() - started
        return self._write(self.step - first_step, elapsed)

    def _store(self, result: dict[str, Any]) -> None:
        self.buffer.add(result["samples"])
        self.games += result["games"]
        self.record["games"] += len(result["games"])
        self.record["samples"] += len(result["samples"].features)
        self.record["plies"] += result["plies"]
        self.session_plies += result["plies"]
        self.selfplay_seconds += result["seconds"]

    def _learn(self, progress: Callable[[Progress], None]) -> None:
        for _ in range(self.settings.updates_per_call):
            if self.step >= self.steps:
                return
            batch = self.buffer.sample(self.rng, self.settings.train.batch_size)
            self.last_loss = self.learner.update(batch)["loss"]
            self.record["step"] += 1
            if self.step % self.settings.eval_every == 0:
                self._evaluate()
            if self.step % self.settings.checkpoint_every == 0:
                save_checkpoint(self.out, self.learner, self.record)
            progress(Progress(self.step, self.steps, self.record["games"], self.last_loss))

    def _evaluate(self) -> None:
        if self.settings.eval_games < 1:
            return
        for opponent in self.settings.eval_opponents:
            point = play_match(
                self.recipe,
                self.learner.net,
                opponent,
                self.settings.eval_games,
                self.settings.eval_simulations,
                self.step,
                self.settings.seed,
            )
            self.record["curve"].append(point.as_dict())

    def _write(self, steps: int, elapsed: float) -> dict[str, Any]:
        """Checkpoint, weights (float16), curve and summary into ``out``; the summary."""
        save_checkpoint(self.out, self.learner, self.record)
        save_weights(self.learner.net, self.settings.net, self.out / "weights.npz", half=True)
        if self.curve:
            plot_curve(
                self.curve,
                self.out / "curve.png",
                self.settings.eval_simulations,
                self.recipe.title,
                self.recipe.players,
            )
        summary = {
            "game": self.recipe.name,
            "step": self.step,
            "games": self.record["games"],
            "samples": self.record["samples"],
            "plies": self.record["plies"],
            "workers": self.workers,
            "batch_size": self.settings.train.batch_size,
            "games_per_worker": self.settings.games_per_worker,
            "this_session": {
                "steps": steps,
                "seconds": round(elapsed, 1),
                "steps_per_second": round(steps / elapsed, 2) if elapsed > 0 else None,
                "positions_per_second": round(self.session_plies / elapsed, 1)
                if elapsed > 0
                else None,
                "positions_per_worker_second": round(self.session_plies / self.selfplay_seconds, 1)
                if self.selfplay_seconds > 0
                else None,
            },
            "curve": self.record["curve"],
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
        return summary
