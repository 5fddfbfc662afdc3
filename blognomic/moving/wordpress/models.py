"""What a WordPress import remembers of the export it read. The table keeps the name it had when the site's root
held this model."""

from django.db import models


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
        db_table = "blognomic_wordpressitem"
        constraints = [models.UniqueConstraint(fields=["kind", "source_id"], name="wordpress_item_once")]

    def __str__(self) -> str:
        return f"WordPress {self.kind} {self.source_id}"
