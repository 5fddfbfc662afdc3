"""Hooks that higher layers fill. Votes sends them and never imports who listens.

What resolving a matter does in the layers above is not a signal but an ordered list of steps
(``votes.resolution_steps``, listed in ``blognomic/enactment.py``).
"""

from django.dispatch import Signal

# Asked for a dynasty's GNDT values when a kind of matter filters players by them (`votes.matter_kind_rules`), with
# ``dynasty_id`` and ``at`` (None: now). A receiver returns a `votes.matter_kind_rules.GameValues`: every column in use
# with its kind and whether it is hidden, and each player's values in the columns that are not hidden.
gndt_values_requested = Signal()
