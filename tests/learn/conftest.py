"""The learn tests' shared local Ray."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def local_ray() -> Iterator[None]:
    """One local Ray instance (one CPU) for the session; a run uses it as it finds it."""
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
