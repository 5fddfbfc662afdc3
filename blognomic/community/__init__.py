"""What players do beside the game itself: accounts, private messages, sealed commitments, search, statistics and
the API."""
