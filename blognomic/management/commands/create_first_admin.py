"""``python manage.py create_first_admin NAME EMAIL``: the site's first admin, without Django's admin."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from blognomic.community.accounts.first_admin import FirstAdminError, first_admin_create


class Command(BaseCommand):
    help = (
        "Make NAME the site's first admin (game admin and superuser) with EMAIL as its address, and mail it a "
        "link to set its password. Refused once any admin exists."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("name", help="The admin's name (an imported account of that name is promoted).")
        parser.add_argument("email", help="The admin's address; the link to set a password is mailed there.")

    def handle(self, *args, name: str, email: str, **options) -> None:
        try:
            user, link = first_admin_create(name=name, email=email, now=timezone.now())
        except FirstAdminError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"{user.username} is the site's admin. A mail to {user.email} holds the link to set a password; "
            f"should it not arrive, the same link (it works once):\n{link}"
        )
