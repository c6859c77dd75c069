"""Cego bots: what a seat knows (``knowledge``), a card-play policy on bit sets (``policy``),
sampled worlds and their outcomes (``world``), the rule-based player (``heuristic``) and the
determinized search player (``search``)."""
