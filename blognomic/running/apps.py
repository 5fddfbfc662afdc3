from django.apps import AppConfig


class RunningConfig(AppConfig):
    """Keeping the site running: the heartbeat of its periodic jobs, failed jobs, the demo's clock."""

    name = "blognomic.running"
    label = "running"
    verbose_name = "Running the site"
