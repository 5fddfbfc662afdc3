"""``python manage.py tally POST_ID [--at TIME] [--json]``: a matter's tally as it stood at a moment."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from blognomic.archive.fields import ArchiveError, format_time, parse_time
from blognomic.models import Post
from votes.selectors import tally_report


class Command(BaseCommand):
    help = "Show the tally of a votable matter (by its post id), now or as it stood at --at."

    def add_arguments(self, parser) -> None:
        parser.add_argument("post_id", help="The post's id (its slug), as in the archive.")
        parser.add_argument("--at", help="An ISO 8601 time such as 2016-07-26T12:00:00Z; default now.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, post_id: str, at: str | None, json: bool, **options) -> None:
        try:
            moment = parse_time(at, "--at") if at else timezone.now()
        except ArchiveError as error:
            raise CommandError(str(error)) from None
        post = Post.objects.select_related("author").filter(slug=post_id).first()
        if post is None:
            raise CommandError(f"No post with id {post_id!r}.")
        if not post.is_votable:
            raise CommandError(f"{post_id!r} is a {post.get_kind_display()}, which is not a votable matter.")
        if moment < post.posted_at:
            raise CommandError(f"{post_id!r} was posted at {format_time(post.posted_at)}, after --at.")
        report = tally_report(post, now=moment)
        if json:
            self.stdout.write(_json_dumps(report))
            return
        self.stdout.write(f"{post.title} ({report['kind']}) at {report['at']}, profile {report['profile']}")
        self.stdout.write(
            f"Active players {report['active_players']}, Quorum {report['quorum']}, open {report['open_hours']} h"
        )
        for name, vote in report["votes"].items():
            self.stdout.write(f"  {name}: {vote.upper()}")
        self.stdout.write(f"FOR {report['for']}, AGAINST {report['against']}"
                          + (", self-killed" if report["self_killed"] else "")
                          + (", vetoed" if report["vetoed"] else ""))
        self.stdout.write(f"Can enact: {'yes' if report['can_enact'] else 'no'}; "
                          f"can fail: {'yes' if report['can_fail'] else 'no'}; "
                          f"oldest pending: {'yes' if report['is_oldest_pending'] else 'no'}")
        for reason in report["reasons"]:
            self.stdout.write(f"  - {reason}")


def _json_dumps(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False)
