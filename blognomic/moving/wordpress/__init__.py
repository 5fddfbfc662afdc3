"""Moving a game in from WordPress: reading its export (WXR) and writing what it holds as this site's records."""
