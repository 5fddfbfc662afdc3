"""The page cache's versions when no Redis is configured (see ``blognomic.web.freshness``). The tables keep the
names they had when the site's root held these models."""

from django.db import models


class ContentVersion(models.Model):
    """The site's content version when no Redis is configured: one row every write moves on, read by the
    page cache of every worker (see ``blognomic.web.freshness``)."""

    value = models.BigIntegerField(default=0)

    class Meta:
        db_table = "blognomic_contentversion"

    def __str__(self) -> str:
        return f"content version {self.value}"


class ReaderVersion(models.Model):
    """One account's own version when no Redis is configured: moved by what changes their pages alone (their
    read markers), and read with the content version by the page cache for each of their pages (see
    ``blognomic.web.freshness``). A counter, not a relation: a row outliving its account harms nothing."""

    account_id = models.BigIntegerField(primary_key=True)
    value = models.BigIntegerField(default=0)

    class Meta:
        db_table = "blognomic_readerversion"

    def __str__(self) -> str:
        return f"account {self.account_id}'s version {self.value}"
