"""What keeping the site running records: the heartbeat of its periodic jobs, the jobs that failed, and the
demo's clock. The tables keep the names they had when the site's root held these models."""

from datetime import timedelta

from django.db import models


class Heartbeat(models.Model):
    """The last time a periodic job ran, so admins can see that Celery beat is alive."""

    name = models.CharField(max_length=100, unique=True)
    last_run_at = models.DateTimeField()
    runs = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "blognomic_heartbeat"

    def __str__(self) -> str:
        return f"{self.name} at {self.last_run_at:%Y-%m-%d %H:%M:%S}"


class JobFailure(models.Model):
    """A periodic or queued job that raised, kept so the admin panel can show it (written by a Celery signal,
    ``blognomic.running.jobs_watch``); the log has the traceback."""

    task = models.CharField(max_length=200, help_text="The job's task name.")
    task_id = models.CharField(max_length=255, blank=True, help_text="Celery's id of the run, as in the log.")
    at = models.DateTimeField(db_index=True)
    error = models.CharField(max_length=1000, help_text="What it raised.")

    class Meta:
        db_table = "blognomic_jobfailure"
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.task} failed at {self.at:%Y-%m-%d %H:%M}"


class DemoClock(models.Model):
    """How far the demo's clock has been moved ahead of the real one (``blognomic.running.demo_clock``): one row,
    kept only where DEMO_CLOCK is on, so the demo keeps its time across restarts. It only grows."""

    ahead = models.DurationField(default=timedelta(0), help_text="How far ahead of the real clock the demo runs.")

    class Meta:
        db_table = "blognomic_democlock"

    def __str__(self) -> str:
        return f"demo clock {self.ahead} ahead"
