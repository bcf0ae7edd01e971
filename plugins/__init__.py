"""Built-in learners and searchers."""
