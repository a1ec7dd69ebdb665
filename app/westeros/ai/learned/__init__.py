"""The learned evaluation (issue 15, point 2): the strong AI's score weights fitted to the
outcomes of fast AI-only games instead of set by hand.

- ``record``: plays the games (baseline and Standard seats, 3 to 6 players) and records, for
  every house in every round, the evaluation's features (``evaluation.features``) computed
  from that house's own view, labelled with the winner of the game;
- ``fit``: fits the weights by plain gradient descent on the evaluation's own win model, a
  softmax of the scores over the houses of a position (pure Python, no numeric libraries);
- ``model``: the model file ``westeros/ai/data/learned_weights.json`` and its weights;
- ``train``: the one command that does it all from a seed,
  ``python -m westeros.ai.learned.train --seed S --games N --out PATH``.

The Hard level with the learned evaluation is ``difficulty.HARD_LEARNED``."""
