"""Axiom's learning pack: its recipe and Axiom's bots with ``master``.

There is no JAX Axiom (its move generator, dome and cube placements on a growing structure, is
the engines' largest part), so Axiom learns by batched self-play over the compiled engine
(:mod:`gameshelf.learn.treeplay`): many games a worker, each with its own PUCT tree, their
leaves valued in one network call. The network reads the RL encoder's Axiom observation and
scores a move by the three parts of its fixed id (:mod:`.codec`). The ``axiom`` entry points of
``gameshelf.learners`` and ``gameshelf.packs`` name :data:`.recipe.RECIPE` and :func:`.pack.pack`.
This module imports nothing: the pack is read wherever the bots are, with or without NumPy,
which the recipe's observation sizes need.
"""
