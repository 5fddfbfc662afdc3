"""``python manage.py demo``: load the demo game once; running it again changes nothing."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from blognomic.demo import ADMINS, DEMO_PASSWORD, EMPEROR, build_demo, demo_exists


class Command(BaseCommand):
    help = "Create the demo game (players, a dynasty, a ruleset, votes and a GNDT). Safe to run twice."

    def handle(self, *args, **options) -> None:
        if demo_exists():
            self.stdout.write("The demo game is already loaded; nothing changed.")
            return
        build_demo(now=timezone.now())
        self.stdout.write(self.style.SUCCESS(
            f"Demo game loaded. Log in as {EMPEROR} (the Harbourmaster), {ADMINS[0]} (an admin) or Cato "
            f"(a player); every demo password is '{DEMO_PASSWORD}'."
        ))
