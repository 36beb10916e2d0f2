"""Self-play training (AlphaZero-style) and the ``master`` level that plays with it.

The generic parts name no game: the policy/value network (:mod:`.network`, equinox), the
learner and its replay buffer (:mod:`.train`), the loop with its Ray workers, checkpoints and
learning curve (:mod:`.loop`, :mod:`.checkpoint`, :mod:`.evaluate`), the PUCT tree over the real
engine (:mod:`.puct`) that ``master`` (:mod:`.master`) and the batched engine self-play
(:mod:`.treeplay`) share. What one game brings is its recipe (:mod:`.recipe`), registered
through the ``gameshelf.learners`` entry points and kept in the game's learning pack:
:mod:`.cage` (self-play on the JAX Cage with mctx) and :mod:`.axiom` (batched self-play on the
engine). The command is ``gameshelf learn GAME``; ``docs/learning.md`` describes the loop and
what it reached.

``master`` is one of each such game's bots (:mod:`.level`, added to the game's pack by its
``gameshelf.packs`` entry point), so it is known wherever the bots are. This package,
:mod:`.recipe`, :mod:`.level`, :mod:`.puct` and the learning packs' ``__init__`` import no
third-party package beyond NumPy; the other modules need the ``learn`` extra.
"""
