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
