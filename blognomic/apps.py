"""The site as a whole: it fills the hooks the lower layers offer, and checks every model's text."""

from django.apps import AppConfig
from django.db.models.signals import pre_save


class BlognomicConfig(AppConfig):
    name = "blognomic"
    verbose_name = "BlogNomic"

    def ready(self) -> None:
        from blognomic.amendments.services import amendment_apply_on_enactment
        from blognomic.freshness import watch_writes
        from blognomic.signals import refuse_nul_bytes
        from blognomic.succession.services import dynasty_begin_from_declaration
        from votes.signals import declaration_enacted, matter_enacted

        watch_writes()
        pre_save.connect(refuse_nul_bytes, dispatch_uid="blognomic.refuse_nul_bytes")
        declaration_enacted.connect(dynasty_begin_from_declaration, dispatch_uid="succession-from-declaration")
        matter_enacted.connect(amendment_apply_on_enactment, dispatch_uid="amendments-on-enactment")
