"""``python manage.py start_dynasty NUMBER [--emperor NAME] [--players TERM] [--emperor-term TERM] --by ADMIN``:
begin the current dynasty by hand after an import, as the admin panel's page does."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from blognomic.flows.succession.services import DynastyOpening, SuccessionError, dynasty_start
from dynasties.models import User
from dynasties.parsing import InputError, parse_moment


class Command(BaseCommand):
    help = (
        "Begin the game's current dynasty (after an import): the running one ends and this one runs from now "
        "(or --at), already ascended."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("number", type=int, help="The dynasty's number, after every dynasty here.")
        parser.add_argument("--emperor", default="", help="The Emperor's name (a player). Omitted: a Metadynasty.")
        parser.add_argument("--players", default="Player", help="What players are called (default Player).")
        parser.add_argument("--players-plural", default="", help="Their plural, when adding an 's' is wrong.")
        parser.add_argument("--emperor-term", default="Emperor", help="What the Emperor is called.")
        parser.add_argument("--by", required=True, help="The admin beginning it (an account with is_admin).")
        parser.add_argument("--at", default="", help="When it began (ISO 8601, UTC unless zoned); default now.")

    def handle(self, *args, **options) -> None:
        by = User.objects.filter(username=options["by"]).first()
        if by is None:
            raise CommandError(f"There is no account called “{options['by']}”.")
        emperor = None
        if options["emperor"]:
            emperor = User.objects.filter(username=options["emperor"]).first()
            if emperor is None:
                raise CommandError(f"There is no player called “{options['emperor']}”.")
        at = timezone.now()
        if options["at"]:
            try:
                at = parse_moment(options["at"])
            except InputError as error:
                raise CommandError(f"--at: {error}") from None
        opening = DynastyOpening(
            number=options["number"],
            emperor=emperor,
            player_term=options["players"],
            player_term_plural=options["players_plural"],
            emperor_term=options["emperor_term"],
        )
        try:
            dynasty = dynasty_start(opening=opening, by=by, at=at)
        except SuccessionError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{dynasty.name} (Dynasty {dynasty.number}) began at {dynasty.started_at.isoformat()}.")
