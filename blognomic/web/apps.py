from django.apps import AppConfig


class WebConfig(AppConfig):
    """Request plumbing: the page cache's versions when no Redis is configured."""

    name = "blognomic.web"
    label = "web"
    verbose_name = "Request plumbing"
