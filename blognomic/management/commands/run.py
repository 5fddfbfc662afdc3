"""``manage.py run``: the development server with the beat schedule running inside it.

What ``make run`` serves. Without it nothing would send the periodic tasks under the embedded default,
so no matter would be flagged, no stale proposal marked and no GNDT effect applied. With ``DEMO_CLOCK`` on (as
``make run`` sets it) it installs the demo's clock, which the admin panel moves ahead
(``blognomic.running.demo_clock``).
"""

from django.conf import settings
from django.db import DatabaseError
from whitenoise.runserver_nostatic.management.commands.runserver import Command as RunserverCommand

from blognomic.celery import app as celery_app
from blognomic.running import demo_clock
from blognomic.running.embedded_beat import EmbeddedBeat


class Command(RunserverCommand):
    help = "Serve the site and run the beat schedule (CELERY_BEAT_SCHEDULE) in a thread of the same process."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--no-beat", action="store_true", help="Serve only; run no periodic task.")
        parser.add_argument(
            "--debug-pages",
            action="store_true",
            help="Answer a missing page or an error with Django's debug page, not the site's own.",
        )

    def get_handler(self, *args, **options):
        handler = super().get_handler(*args, **options)
        if not options.get("debug_pages"):
            # The demo is someone's first look at the site: a wrong address gets the site's own 404 and an error
            # its 500 page (the traceback still goes to the console). Switched off only once the handler is
            # built, so static files are still served from the source folders as under DEBUG.
            settings.DEBUG = False
        return handler

    def inner_run(self, *args, **options):
        if settings.DEMO_CLOCK:
            # Before the handler is built, while DEBUG still says this is not a real game (see get_handler).
            try:
                demo_clock.install()
            except DatabaseError:
                self.stderr.write("Demo clock off: its table is missing, so run `manage.py migrate` first.")
            else:
                ahead = demo_clock.describe(demo_clock.ahead())
                self.stdout.write(f"Demo clock on, {ahead} ahead of the real one: the admin panel moves it.")
        # With the autoreloader this runs in the serving child only, so one schedule runs per site.
        if not options.get("no_beat"):
            EmbeddedBeat(app=celery_app).start()
            settings.HEALTH_CHECKS_BEAT = True  # this process runs beat, so /healthz/ may expect it
            self.stdout.write("Beat schedule running in-process (CELERY_BEAT_SCHEDULE).")
        super().inner_run(*args, **options)
