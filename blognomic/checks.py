"""System checks of the site's own settings, run by ``manage.py check`` (``--deploy`` for production)."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register


@register(Tags.security, deploy=True)
def site_url_is_set(app_configs, **kwargs):
    """Every link in a mail starts with SITE_URL; left unset, mail would send players to this machine."""
    if getattr(settings, "SITE_URL_IS_DEFAULT", False):
        return [
            Warning(
                "SITE_URL is not set, so every link in a mail leads to " + settings.SITE_URL + ".",
                hint="Set SITE_URL to the site's public address, e.g. https://nomic.example.org.",
                id="blognomic.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def demo_clock_is_off(app_configs, **kwargs):
    """The demo's clock lets an admin move the game's time ahead: a real game must never have it."""
    if getattr(settings, "DEMO_CLOCK", False):
        return [
            Error(
                "DEMO_CLOCK is on: an admin could move the game's clock ahead, and every deadline with it.",
                hint="Unset DEMO_CLOCK: it is for the demo that `make run` serves, never for a real game.",
                id="blognomic.E001",
            )
        ]
    return []
