"""Run arena games as Ray tasks (on a cluster given by address, or a local Ray instance).

If Ray is already initialised (a test, a notebook), that instance is used as it is;
otherwise ``ray.init`` connects to ``address`` or starts a local instance with ``jobs`` CPUs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gameshelf.extras import install_hint

from .match import MatchSpec, play_to_data
from .results import ArenaError


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - ray is in the dev extra
        raise ArenaError(f"--backend ray needs Ray: {install_hint('arena')}") from exc
    return ray


def run_on_ray(specs: list[MatchSpec], address: str | None, jobs: int) -> Iterator[dict[str, Any]]:
    """Submit every game as a task and yield each result as it finishes."""
    ray = _ray()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
    task = ray.remote(play_to_data)
    pending = [task.remote(spec) for spec in specs]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            yield ray.get(ref)
