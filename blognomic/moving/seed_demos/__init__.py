"""Playable seeds: ``python manage.py demo --seed FILE`` loads a small game built on one seed ruleset.

Each seed has a module of its own (``families``, ``zahndorf``, ``saloon``, ``hackers``, ``hunters``) that
describes its game as data; ``building`` lays it down through the real services, and ``loading`` chooses
the seed from the command's argument and decides whether the database may take it.
"""
