"""The site as a whole: it fills the hooks the lower layers offer, installs the steps of resolving a matter,
and checks every model's text."""

from django.apps import AppConfig
from django.core.signals import request_finished
from django.db.models.signals import pre_save


class BlognomicConfig(AppConfig):
    name = "blognomic"
    verbose_name = "BlogNomic"

    def ready(self) -> None:
        # Models and signals can be imported only once the apps are loaded.
        from celery.signals import task_failure

        from blognomic import checks  # noqa: F401 - registers the site's system checks
        from blognomic.enactment import install_resolution_steps
        from blognomic.flows.api import matters  # noqa: F401 - declares the API's writes on matters
        from blognomic.running.jobs_watch import record_job_failure
        from blognomic.running.logs import forget_request_id
        from blognomic.signals import refuse_nul_bytes
        from blognomic.web.freshness import retire_pages_from_before, watch_writes
        from blognomic.web.sturdy_cache import redis_returned

        watch_writes()
        redis_returned.connect(retire_pages_from_before, dispatch_uid="blognomic.retire_pages_from_before")
        task_failure.connect(record_job_failure, dispatch_uid="blognomic.record_job_failure")
        request_finished.connect(forget_request_id, dispatch_uid="blognomic.forget_request_id")
        pre_save.connect(refuse_nul_bytes, dispatch_uid="blognomic.refuse_nul_bytes")
        # What enacting or failing a matter does, in order, and the GNDT's reader: see blognomic/enactment.py.
        install_resolution_steps()
