"""Time-based work on votable matters, as idempotent services with the time passed in.

Each returns a report of what it did (or, with ``dry_run``, would do). Running one twice, or late, does
nothing more than running it once on time: flags are set once and notices carry unique keys.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction

from dynasties.beat import JobReport
from dynasties.models import Game
from dynasties.notify import Notice, admins_now, notify_many
from dynasties.webhooks import webhook_queue_many
from votes import engine
from votes.engine_inputs import electorate_of
from votes.judging import iter_resolvable_matters, judge_posts
from votes.models import Kind, Post
from votes.services import VoteError, matter_resolve
from votes.state import game_state

# Posts flagged per query.
FLAG_BATCH = 1000


def flag_resolvable_matters(*, now: datetime, dry_run: bool = False) -> JobReport:
    """Mark pending matters the moment they become enactable or failable, and tell the admins once.

    The flags, notices and webhook events are written together, a few queries for the whole run, so a run
    that finds hundreds of matters at once (after an import or an outage) is as quick as one that finds one.
    """
    state = game_state(now)
    posts = list(Post.objects.pending().select_related("author"))
    judgements = judge_posts(posts, state=state, now=now)
    report = JobReport()
    flagged: dict[str, list[int]] = {"enactable_since": [], "failable_since": []}
    notices: list[Notice] = []
    events: list[tuple[str, dict]] = []
    for post in posts:
        judgement = judgements[post.pk]
        for flag, legal, verb in (
            ("enactable_since", judgement.can_enact, "enacted"),
            ("failable_since", judgement.can_fail, "failed"),
        ):
            if not legal or getattr(post, flag) is not None:
                continue
            report.done.append(f"{post.slug}: may now be {verb}")
            flagged[flag].append(post.pk)
            key = f"{flag}:{post.pk}"
            notices.append(Notice(key=key, text=f"“{post.title}” may now be {verb}.", url=post.get_absolute_url()))
            events.append(
                (
                    key,
                    {
                        "event": "matter_resolvable",
                        "title": post.title,
                        "kind": post.kind,
                        "may_be": verb,
                        "url": settings.SITE_URL.rstrip("/") + post.get_absolute_url(),
                        "at": now.isoformat(),
                    },
                )
            )
    if dry_run or not notices:
        return report
    # One transaction, so the run moves the content version once however many matters it flags.
    with transaction.atomic():
        for flag, pks in flagged.items():
            for start in range(0, len(pks), FLAG_BATCH):
                Post.objects.filter(pk__in=pks[start : start + FLAG_BATCH], **{f"{flag}__isnull": True}).update(
                    **{flag: now}
                )
        notify_many(users=admins_now(now), notices=notices, now=now, kind="resolvable")
        webhook_queue_many(events=events, now=now)
    return report


def proposals_mark_stale(*, now: datetime, dry_run: bool = False) -> JobReport:
    """2016: a proposal pending more than seven days is skipped as “oldest” and any admin may fail it.

    The flags and the admins' notices are written together in one transaction, a few queries whatever the
    number of proposals, so a first run over an imported archive moves the content version once, not once per
    proposal; a run that finds none new writes nothing.
    """
    profile = Game.load().rules_profile()
    report = JobReport()
    candidates = Post.objects.pending().filter(kind=Kind.PROPOSAL, stale_since__isnull=True).order_by("posted_at", "pk")
    stale = [
        post
        for post in candidates.only("pk", "slug", "title", "posted_at")
        if engine.is_stale(post.posted_at, profile=profile, now=now)
    ]
    report.done.extend(f"{post.slug}: pending more than seven days" for post in stale)
    if dry_run or not stale:
        return report
    notices = [
        Notice(
            key=f"stale:{post.pk}",
            url=post.get_absolute_url(),
            text=f"“{post.title}” has been pending more than seven days; any admin may fail it.",
        )
        for post in stale
    ]
    with transaction.atomic():
        pks = [post.pk for post in stale]
        for start in range(0, len(pks), FLAG_BATCH):
            Post.objects.filter(pk__in=pks[start : start + FLAG_BATCH], stale_since__isnull=True).update(
                stale_since=now
            )
        notify_many(users=admins_now(now), notices=notices, now=now)
    return report


class _PendingJudgements:
    """The judgements of the pending matters, kept across the resolutions of one auto-resolve run.

    A judgement depends only on the matter's own votes and age, the moment, the rules profile and who may
    vote (the roster, the Emperor, the hiatus). Resolving one matter changes no other matter's votes, so a
    judgement stays valid while the profile and the electorate do; when a resolution changes either (a rule
    change enacted, a Declaration of Victory ending the dynasty or its hiatus, a player leaving), every
    pending matter is judged again. A matter of the dynasty's own kind is always judged again, since its
    electorate may follow GNDT values that a resolution's effects change. The queue (which proposal is the
    oldest) and the hiatus's limits are not judgements: they are applied afresh to each state.
    """

    def __init__(self) -> None:
        self.basis: tuple | None = None
        self.judgements: dict[int, engine.Judgement] = {}

    def of(self, state, *, now: datetime) -> dict[int, engine.Judgement]:
        basis = (state.game.rules_profile(), electorate_of(state))
        if basis != self.basis:
            self.basis, self.judgements = basis, {}
        unjudged = [post for post in state.pending if post.pk not in self.judgements or post.matter_kind_id is not None]
        self.judgements.update(judge_posts(unjudged, state=state, now=now))
        return {post.pk: self.judgements[post.pk] for post in state.pending}


def matters_auto_resolve(*, now: datetime, dry_run: bool = False) -> JobReport:
    """When the game allows it, resolve every matter that is legal to resolve now, as the system: exactly what
    the admin panel offers (both ask ``judging.iter_resolvable_matters``), enacting where both are legal.

    Each matter is judged once per run, not once per resolution (see ``_PendingJudgements``), so a run that
    finds many matters to resolve costs about as much judging as one that finds one.
    """
    report = JobReport()
    if not Game.load().auto_resolve:
        return report
    judged = _PendingJudgements()
    # Resolving one matter can make the next proposal the oldest, so look again after each.
    for _ in range(100):
        state = game_state(now)
        first = next(iter_resolvable_matters(state, now=now, judgements=judged.of(state, now=now)), None)
        if first is None:
            break
        post, action = first
        report.done.append(f"{post.slug}: {action}")
        if dry_run:
            break
        try:
            matter_resolve(post=post, admin=None, action=action, now=now)
        except VoteError as error:
            report.done.append(f"{post.slug}: refused ({error})")
            break
    return report
