"""Hooks that higher layers fill. Votes sends them and never imports who listens."""

from django.dispatch import Signal

# Sent inside the enactment's transaction when a Declaration of Victory is enacted, before the resolution is
# recorded, with ``declaration`` (the Post) and ``now``. A receiver that raises rolls the enactment back.
declaration_enacted = Signal()
