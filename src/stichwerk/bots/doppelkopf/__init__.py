"""Doppelkopf bots: ``heuristic`` (rules a club player would recognise) and ``search`` (PIMC)."""
