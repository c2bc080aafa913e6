"""privatree: the appendix accuracy tables (python3 -m plots privatree table-appendix)."""
