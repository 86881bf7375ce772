"""Session replay: turns, imported agent logs and the turn-by-turn simulation."""
