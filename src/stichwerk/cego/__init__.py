"""Cego (Badisches Tarock): the rules engine for every profile of ``shared/spec/RULINGS.md``.

Modules: ``cards`` (the 54-card deck as ints and bit sets), ``profiles`` (rules as frozen data),
``contracts`` (the ladder and the fixed games as a table), ``scoring`` (Fächer, Berg, settlements),
``state`` (the deal as a deterministic state machine), ``fast`` (a lean play-out path for bots),
``record`` (records and deal summaries) and ``api`` (the game's entry in the registry).
"""
