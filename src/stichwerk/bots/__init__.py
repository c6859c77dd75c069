"""Computer players. A bot sees one seat's view (``GameState.view(seat)``) and nothing else."""
