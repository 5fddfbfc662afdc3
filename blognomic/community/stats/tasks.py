"""The statistics' own task: counting afresh after a change, queued by the first reader who finds the figures
behind (see ``selectors.shown_statistics``)."""

from celery import shared_task

from blognomic.community.stats.selectors import count_afresh


@shared_task
def count_statistics() -> str:
    return count_afresh()
