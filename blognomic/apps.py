from django.apps import AppConfig


class BlognomicConfig(AppConfig):
    """The site as a whole. It fills the hooks the lower layers offer."""

    name = "blognomic"

    def ready(self) -> None:
        from blognomic.amendments.services import amendment_apply_on_enactment
        from blognomic.succession.services import dynasty_begin_from_declaration
        from votes.signals import declaration_enacted, matter_enacted

        declaration_enacted.connect(dynasty_begin_from_declaration, dispatch_uid="succession-from-declaration")
        matter_enacted.connect(amendment_apply_on_enactment, dispatch_uid="amendments-on-enactment")
