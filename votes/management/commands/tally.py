"""``python manage.py tally POST_ID [--at TIME] [--json]``: a matter's tally as it stood at a moment."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from dynasties.clock import NotATime, format_iso_time, parse_iso_time
from votes.judging import tally_report
from votes.models import Post

EXAMPLE_TIME = "2016-07-26T12:00:00Z"
UNKNOWN_POST = "No post with id {post_id!r}."
NOT_VOTABLE = "{post_id!r} is a {kind}, which is not a votable matter (only proposals, CfJs and DoVs are)."
BAD_TIME = "--at {value!r} is not an ISO 8601 time such as " + EXAMPLE_TIME + "."
NAIVE_TIME = "--at {value!r} has no time zone; add Z for UTC, as in " + EXAMPLE_TIME + "."
BEFORE_POST = "--at {at} is before {post_id!r} was posted ({posted_at}): there was no tally yet."


class Command(BaseCommand):
    help = "Show the tally of a votable matter (by its post id), now or as it stood at --at."

    def add_arguments(self, parser) -> None:
        parser.add_argument("post_id", help="The post's id (its slug), as in the archive.")
        parser.add_argument("--at", help=f"An ISO 8601 time with a time zone, such as {EXAMPLE_TIME}. Default: now.")
        parser.add_argument("--json", dest="as_json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, post_id: str, at: str | None, as_json: bool, **options) -> None:
        moment = _moment(at) if at is not None else timezone.now()
        post = Post.objects.select_related("author").filter(slug=post_id).first()
        if post is None:
            raise CommandError(UNKNOWN_POST.format(post_id=post_id))
        if not post.is_votable:
            raise CommandError(NOT_VOTABLE.format(post_id=post_id, kind=post.get_kind_display()))
        if moment < post.posted_at:
            raise CommandError(
                BEFORE_POST.format(
                    at=format_iso_time(moment), post_id=post_id, posted_at=format_iso_time(post.posted_at)
                )
            )
        report = tally_report(post, now=moment)
        if as_json:
            self.stdout.write(json.dumps(report, ensure_ascii=False))
            return
        self._write_text(post, report)

    def _write_text(self, post: Post, report: dict) -> None:
        self.stdout.write(f"{post.title} ({report['kind']}) at {report['at']}, profile {report['profile']}")
        self.stdout.write(
            f"Active players {report['active_players']}, Quorum {report['quorum']}, open {report['open_hours']} hours"
        )
        if not report["votes"]:
            self.stdout.write("  No votes.")
        for name, vote in report["votes"].items():
            self.stdout.write(f"  {name}: {vote.upper()}")
        self.stdout.write(
            f"FOR {report['for']}, AGAINST {report['against']}"
            + (", self-killed" if report["self_killed"] else "")
            + (", vetoed" if report["vetoed"] else "")
        )
        self.stdout.write(
            f"Can enact: {'yes' if report['can_enact'] else 'no'}; "
            f"can fail: {'yes' if report['can_fail'] else 'no'}; "
            f"oldest pending: {'yes' if report['is_oldest_pending'] else 'no'}"
        )
        for reason in report["reasons"]:
            self.stdout.write(f"  - {reason}")


def _moment(value: str):
    try:
        return parse_iso_time(value)
    except NotATime as error:
        raise CommandError((NAIVE_TIME if error.naive else BAD_TIME).format(value=value)) from None
