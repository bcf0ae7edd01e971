"""Built-in evaluator models: material, linear, mlp, phased, staged."""
