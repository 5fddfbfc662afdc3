"""What the site keeps for itself: the heartbeat of its periodic jobs."""

from django.db import models


class Heartbeat(models.Model):
    """The last time a periodic job ran, so admins can see that Celery beat is alive."""

    name = models.CharField(max_length=100, unique=True)
    last_run_at = models.DateTimeField()
    runs = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.last_run_at:%Y-%m-%d %H:%M:%S}"

