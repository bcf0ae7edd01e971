"""Ladders: fixed reference agents rated once on one Elo scale, how one is built, and
how a new agent is rated on it."""
