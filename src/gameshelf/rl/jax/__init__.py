"""Batch simulation in JAX (``pip install gameshelf[jax]``): :mod:`gameshelf.rl.jax.cage`."""
