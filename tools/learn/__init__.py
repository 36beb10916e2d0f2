"""Learning the evaluations' weights from self-play: Axiom's (:mod:`tools.learn.axiom`) and the
two-player Cage's (:mod:`tools.learn.cage`). Each rewrites a weights file the package ships
(``src/gameshelf/agents/data/*_weights.json``), which the levels read at run time."""
