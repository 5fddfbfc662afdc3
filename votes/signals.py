"""Hooks that higher layers fill. Votes sends them and never imports who listens."""

from django.dispatch import Signal

# Sent inside the enactment's transaction when a Declaration of Victory is enacted, before the resolution is
# recorded, with ``declaration`` (the Post) and ``now``. A receiver that raises rolls the enactment back.
declaration_enacted = Signal()

# Sent inside the enactment's transaction when a Proposal or Call for Judgement is enacted, after its status and
# resolution are recorded, with ``post``, ``by`` (the admin, or None for the system), ``now`` and
# ``apply_amendment`` (False when the admin chose to enact without applying the post's amendment). A receiver
# that raises ``EnactmentRefused`` rolls the enactment back and its message is shown to the admin.
matter_enacted = Signal()


class EnactmentRefused(Exception):
    """A receiver of ``matter_enacted`` could not carry out the enactment; nothing of it is kept."""


# Asked for a dynasty's GNDT values when a kind of matter filters players by them (`votes.kinds`), with
# ``dynasty_id`` and ``at`` (None: now). A receiver returns a `votes.kinds.GameValues`: every column in use
# with its kind and whether it is hidden, and each player's values in the columns that are not hidden.
gndt_values_requested = Signal()

# Sent inside a resolution's transaction, after the matter's status and resolution are recorded, with
# ``post``, ``deltas`` (a list of `votes.effects.CellDelta`), ``by`` (the admin, or None), ``now`` and
# ``outcome`` (enacted, failed, vetoed, self-killed), when the dynasty's effects change the GNDT. A receiver
# that raises ``EnactmentRefused`` rolls the whole resolution back and its message is shown to the admin.
resolution_effects_due = Signal()
