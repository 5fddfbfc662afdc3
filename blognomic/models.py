"""What the site keeps for itself: the heartbeat of its periodic jobs, and what enacted amendments applied."""

from datetime import timedelta

from django.conf import settings
from django.db import models


class Heartbeat(models.Model):
    """The last time a periodic job ran, so admins can see that Celery beat is alive."""

    name = models.CharField(max_length=100, unique=True)
    last_run_at = models.DateTimeField()
    runs = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.last_run_at:%Y-%m-%d %H:%M:%S}"


class AmendmentApplication(models.Model):
    """What enacting a matter did with its amendment: applied it (and what that wrote), or enacted without.

    Kept so the post page can show what was applied, the archive can carry it, and a reopened matter can
    have it reverted (as new revisions and updates; this record then says when and by whom).
    """

    post = models.ForeignKey("votes.Post", on_delete=models.CASCADE, related_name="amendment_applications")
    digest = models.CharField(max_length=64, help_text="The digest of the operations when it was enacted.")
    applied = models.BooleanField(help_text="False when the admin enacted the matter without applying it.")
    note = models.TextField(blank=True, help_text="Why it was not applied: the conflict the admin saw.")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    revisions = models.JSONField(default=list, blank=True, help_text="Wiki revisions it wrote, by id.")
    gndt = models.JSONField(
        default=dict, blank=True, help_text="The GNDT update and the columns and rows it added or removed, by id."
    )
    parameters = models.JSONField(
        default=list, blank=True, help_text="Core-rule parameters it changed: parameter, old and new value."
    )
    renames = models.JSONField(default=list, blank=True, help_text="Players it renamed: old and new name.")
    descriptions = models.JSONField(default=list, blank=True, help_text="What it did, in plain words.")
    reverted_at = models.DateTimeField(null=True, blank=True)
    reverted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.post_id} {'applied' if self.applied else 'not applied'} at {self.at:%Y-%m-%d %H:%M}"


class DemoClock(models.Model):
    """How far the demo's clock has been moved ahead of the real one (``blognomic.running.demo_clock``): one row,
    kept only where DEMO_CLOCK is on, so the demo keeps its time across restarts. It only grows."""

    ahead = models.DurationField(default=timedelta(0), help_text="How far ahead of the real clock the demo runs.")

    def __str__(self) -> str:
        return f"demo clock {self.ahead} ahead"


class ContentVersion(models.Model):
    """The site's content version when no Redis is configured: one row every write moves on, read by the
    page cache of every worker (see ``blognomic.web.freshness``)."""

    value = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"content version {self.value}"


class ReaderVersion(models.Model):
    """One account's own version when no Redis is configured: moved by what changes their pages alone (their
    read markers), and read with the content version by the page cache for each of their pages (see
    ``blognomic.web.freshness``). A counter, not a relation: a row outliving its account harms nothing."""

    account_id = models.BigIntegerField(primary_key=True)
    value = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"account {self.account_id}'s version {self.value}"


class WordPressItem(models.Model):
    """A post or comment imported from a WordPress export, by its id there: importing a newer export of the same
    blog adds only what this table does not hold yet."""

    POST = "post"
    COMMENT = "comment"

    kind = models.CharField(max_length=8, choices=[(POST, "Post"), (COMMENT, "Comment")])
    source_id = models.PositiveBigIntegerField(help_text="The wp:post_id or wp:comment_id in the export.")
    post = models.ForeignKey("votes.Post", on_delete=models.CASCADE, related_name="+")
    comment = models.ForeignKey("votes.Comment", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    reply_to = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="The wp:comment_id this comment replied to: comments here are not threaded, so it is kept here.",
    )
    good_flavour = models.BooleanField(
        default=False, help_text="The comment was marked good flavour (comment meta good_flavour) on the blog."
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "source_id"], name="wordpress_item_once")]

    def __str__(self) -> str:
        return f"WordPress {self.kind} {self.source_id}"


class JobFailure(models.Model):
    """A periodic or queued job that raised, kept so the admin panel can show it (written by a Celery signal,
    ``blognomic.running.jobs_watch``); the log has the traceback."""

    task = models.CharField(max_length=200, help_text="The job's task name.")
    task_id = models.CharField(max_length=255, blank=True, help_text="Celery's id of the run, as in the log.")
    at = models.DateTimeField(db_index=True)
    error = models.CharField(max_length=1000, help_text="What it raised.")

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.task} failed at {self.at:%Y-%m-%d %H:%M}"
