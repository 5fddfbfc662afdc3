"""What enacted amendments applied. The table keeps the name it had when the site's root held this model."""

from django.conf import settings
from django.db import models


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
        db_table = "blognomic_amendmentapplication"
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.post_id} {'applied' if self.applied else 'not applied'} at {self.at:%Y-%m-%d %H:%M}"
