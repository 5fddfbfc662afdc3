"""Flows that write to several records at once: amendments to the Ruleset and the GNDT, the succession of
dynasties, the roster of players, the game as it was at a moment."""
