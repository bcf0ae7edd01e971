"""Games between agents: one game as a task, matches, tournaments, openings, ratings,
reports, results files, replays and interactive sessions."""
