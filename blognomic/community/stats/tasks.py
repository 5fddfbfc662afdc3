"""The statistics' own task: counting afresh after a change, queued by the first reader who finds the figures
behind (see ``selectors.shown_statistics``)."""

from celery import shared_task

from blognomic.community.stats.selectors import count_afresh


@shared_task(bind=True)
def count_statistics(self) -> str:
    # Run in-process (no worker), the reader waits for the count, so there is no worker's time to spare.
    return count_afresh(rest=not self.request.is_eager)
