"""``manage.py run``: the development server with the beat schedule running inside it.

What ``make run`` serves. Without it nothing would send the periodic tasks under the embedded default,
so no matter would be flagged, no stale proposal marked and no GNDT effect applied.
"""

from whitenoise.runserver_nostatic.management.commands.runserver import Command as RunserverCommand

from blognomic.embedded_beat import EmbeddedBeat


class Command(RunserverCommand):
    help = "Serve the site and run the beat schedule (CELERY_BEAT_SCHEDULE) in a thread of the same process."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--no-beat", action="store_true", help="Serve only; run no periodic task.")

    def inner_run(self, *args, **options):
        # With the autoreloader this runs in the serving child only, so one schedule runs per site.
        if not options.get("no_beat"):
            EmbeddedBeat().start()
            self.stdout.write("Beat schedule running in-process (CELERY_BEAT_SCHEDULE).")
        super().inner_run(*args, **options)
