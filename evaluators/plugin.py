"""Plugin registration (placeholder until this component lands)."""
