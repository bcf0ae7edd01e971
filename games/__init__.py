"""Built-in games: American checkers and give-away on one draughts engine, and Kalah."""
