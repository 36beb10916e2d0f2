"""Self-play training for the two-player Cage and the ``master`` level that plays with it.

An AlphaZero-style loop on the JAX Cage (:mod:`gameshelf.rl.jax.cage`): a policy/value network
(:mod:`.network`, equinox), mctx's Gumbel MuZero search for batched self-play (:mod:`.selfplay`),
workers as Ray actors and an optax learner (:mod:`.loop`, :mod:`.train`), checkpoints and a
learning curve against the project's bots (:mod:`.checkpoint`, :mod:`.evaluate`). The command is
``gameshelf learn cage``; ``docs/learning.md`` describes the loop and what it reached.

The ``master`` bot is one of the Cage pack's bots (:mod:`.level`, named by the ``cage`` entry
point of ``gameshelf.packs``), so it is known wherever the bots are. This package and
:mod:`.level` import no third-party package; the modules above need the ``learn`` extra.
"""
