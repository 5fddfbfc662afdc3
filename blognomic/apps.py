"""The project's own app: the blog, and checks that apply to every model."""

from django.apps import AppConfig
from django.db.models.signals import pre_save


class BlognomicConfig(AppConfig):
    name = "blognomic"
    verbose_name = "BlogNomic"

    def ready(self) -> None:
        from blognomic.signals import refuse_nul_bytes

        pre_save.connect(refuse_nul_bytes, dispatch_uid="blognomic.refuse_nul_bytes")
