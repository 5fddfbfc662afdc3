from django.apps import AppConfig


class CommitmentsConfig(AppConfig):
    """Sealed commitments: a text sealed now, its digest public at once, revealed and verified later."""

    name = "blognomic.community.commitments"
    label = "commitments"
    verbose_name = "Sealed commitments"
