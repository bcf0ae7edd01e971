"""mindgames package."""
