"""Small template helpers for the blog."""

from datetime import UTC, timedelta
from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from dynasties.ages import age_in_words
from dynasties.clock import moment_plus
from dynasties.theming import DEFAULT_VOTE_LABELS
from votes.models import KIND_SLUGS

register = template.Library()

_SLUG_OF_KIND = {kind: slug for slug, kind in KIND_SLUGS.items()}


@register.filter
def category_url(kind: str) -> str:
    return reverse("category", args=[_SLUG_OF_KIND.get(kind, "posts")])


@register.simple_tag
def vote_icon(icon: str) -> str:
    """A vote icon's image. A tag, not an included template: a busy post draws a hundred of them, and each
    include cost as much as the rest of its comment's line."""
    return _vote_icon_html(icon)


@lru_cache(maxsize=64)
def _vote_icon_html(icon: str) -> str:
    """Made once per icon: finding its hashed name in the static manifest was a tenth of a busy post's calls."""
    return format_html(
        '<img class="vote-icon" src="{}" alt="{}" width="16" height="16">', static(f"img/vote/{icon}.svg"), icon.upper()
    )


@receiver(setting_changed)
def _static_files_moved(*, setting: str, **kwargs) -> None:
    if setting in ("STATIC_URL", "STORAGES"):
        _vote_icon_html.cache_clear()


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None


@register.filter
def param_value(value) -> str:
    """A rule parameter as people write it: yes/no, a number, or none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@register.filter(is_safe=True)
def bdi(name) -> str:
    """A name set apart from the text around it (``<bdi>``), so a right-to-left name cannot reorder the words
    after it ("by <name> · 3 hours ago"). Everywhere a person's name is shown in a page's body uses it."""
    return format_html("<bdi>{}</bdi>", name)


@register.filter(is_safe=True)
def bdi_join(names, separator: str = ", ") -> str:
    """A list of names, each set apart as ``bdi`` does, joined by ``separator``; empty for no names."""
    return format_html_join(separator, "<bdi>{}</bdi>", ((name,) for name in names or ()))


@register.filter
def minutes(duration) -> str:
    """A timedelta as "15 minutes" (or "1 minute")."""
    count = int(duration.total_seconds() // 60) if duration else 0
    return f"{count} minute{'' if count == 1 else 's'}"


@register.filter
def to_the_second(moment):
    """A moment from which something is allowed, shown to the second: a fraction rounds up, since at the
    whole second before it the action is not yet allowed."""
    if moment is None or not moment.microsecond:
        return moment
    return moment_plus(moment.replace(microsecond=0), timedelta(seconds=1))


@register.filter
def in_vote_names(text, look) -> str:
    """A tally's reason in the dynasty's names for the vote icons ("5 Aye reaches Quorum 4")."""
    return look.in_vote_names(text) if look is not None else text


@register.simple_tag
def vote_name(look, icon, fallback) -> str:
    """What the dynasty's theme calls a vote icon (“Aye” for FOR), or ``fallback`` where it renamed none."""
    if look is None or not icon:
        return fallback
    label = look.label(icon)
    return fallback if label == DEFAULT_VOTE_LABELS.get(icon, icon.upper()) else label


@register.filter
def age(hours, arg="") -> str:
    """An age given in hours, in words (``dynasties.ages``): ``{{ h|age }}`` "5 hours" or "3 days",
    ``{{ h|age:1 }}`` "12.4 hours" (one decimal while hours are shown), ``{{ h|age:"short" }}`` "12h" or "3d"."""
    if hours is None or hours == "":
        return ""
    text = str(arg)
    return age_in_words(float(hours), decimals=int(text) if text.isdigit() else 0, short=text == "short")


@register.filter
def machine_time(moment) -> str:
    """A moment for a ``datetime`` attribute: UTC to the whole second ("2016-07-25T12:00:00Z"). HTML allows at
    most three digits of a fraction of a second, and ``date:'c'`` writes six."""
    if not moment:
        return ""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
