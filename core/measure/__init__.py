"""Measuring trained evaluators: learning curves, solver-judged quality, replicated
comparisons and the plots drawn from them."""
