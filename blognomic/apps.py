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
        from gndt.services.matters import gndt_apply_resolution_effects, gndt_values_for_kinds
        from votes.signals import (
            declaration_enacted,
            gndt_values_requested,
            matter_enacted,
            resolution_effects_due,
        )

        watch_writes()
        pre_save.connect(refuse_nul_bytes, dispatch_uid="blognomic.refuse_nul_bytes")
        declaration_enacted.connect(dynasty_begin_from_declaration, dispatch_uid="succession-from-declaration")
        matter_enacted.connect(amendment_apply_on_enactment, dispatch_uid="amendments-on-enactment")
        # A dynasty's own kinds of matter filter voters by GNDT values, and its effects of resolving change them.
        gndt_values_requested.connect(gndt_values_for_kinds, dispatch_uid="gndt-values-for-kinds")
        resolution_effects_due.connect(gndt_apply_resolution_effects, dispatch_uid="gndt-resolution-effects")
