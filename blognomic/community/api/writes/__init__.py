"""The API's writes: each a Ninja router added to the API in ``views.py``, each operation calling the same
service as the browser's view, so every rule, limit, lock and secret holds whichever way a player comes in."""
