"""``python manage.py demo``: load the demo game once; running it again changes nothing.

``--seed FILE`` loads instead a small game built on one of the seed rulesets (``blognomic.moving.seed_demos``).
"""

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from blognomic.moving.demo import ADMINS, DEMO_PASSWORD, EMPEROR, build_demo, demo_exists
from blognomic.moving.seed_demos.loading import ALREADY_LOADED, SeedDemoError, seed_choose, seed_demo_load


class Command(BaseCommand):
    help = (
        "Create the demo game (players, a dynasty, a ruleset, votes and a GNDT). Safe to run twice. With "
        "--seed, create a game built on one of the seed rulesets instead, into an empty database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--seed",
            metavar="FILE",
            help="a seed ruleset's file name (looked for in ../shared/seeds beside the project) or its path",
        )

    def handle(self, *args, seed: str | None = None, **options) -> None:
        if seed is not None:
            self._load_seed(seed)
            return
        if demo_exists():
            self.stdout.write("The demo game is already loaded; nothing changed.")
            return
        build_demo(now=timezone.now())
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo game loaded. Log in as {EMPEROR} (the Harbourmaster), {ADMINS[0]} (an admin) or Cato "
                f"(a player); every demo password is '{DEMO_PASSWORD}'."
            )
        )

    def _load_seed(self, argument: str) -> None:
        try:
            chosen = seed_choose(argument)
            loaded = seed_demo_load(chosen, now=timezone.now())
        except SeedDemoError as error:
            raise CommandError(str(error)) from None
        demo = chosen.demo
        if not loaded:
            self.stdout.write(ALREADY_LOADED.format(file=demo.file_name, label=demo.ruleset_label))
            return
        others = [name for name in demo.players if name != demo.emperor and name not in demo.admins]
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the demo of {demo.file_name} ({demo.ruleset_label}, the {demo.profile} rules): "
                f"{len(demo.players)} {demo.players_term}. Log in as {demo.emperor} "
                f"({demo.emperor_article}{demo.emperor_term}), "
                f"{demo.admins[0]} (an admin) or {others[0]}; every password is '{demo.password}'."
            )
        )
        if demo.characteristic_moves:
            self.stdout.write("To try: " + "; ".join(demo.characteristic_moves) + ".")
