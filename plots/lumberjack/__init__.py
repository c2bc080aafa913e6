"""lumberjack: the headline table (python3 -m plots lumberjack table-headline)."""
