"""The admin panel's blocks about the running site: what needs attention, at the top, and in the demo the
buttons that move its clock. The panel belongs to votes, which knows nothing of the site's jobs, so it loads
this library by name and the blocks are drawn here."""

from __future__ import annotations

from django import template
from django.utils import timezone

from blognomic.running import demo_clock
from blognomic.running.attention import needs_attention

register = template.Library()


@register.inclusion_tag("blognomic/_needs_attention.html", takes_context=True)
def needs_attention_block(context) -> dict:
    user = context["request"].user
    return {"attention": needs_attention(now=timezone.now()), "staff": user.is_staff}


@register.inclusion_tag("blognomic/_demo_clock.html", takes_context=True)
def demo_clock_control(context) -> dict:
    """In the demo only, the buttons that move its clock ahead."""
    if not demo_clock.installed():
        return {}
    ahead = demo_clock.ahead()
    return {
        "shown": True,
        "ahead": demo_clock.describe(ahead) if ahead else "",
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def demo_clock_note() -> str:
    """Beside the header's clock in the demo, once moved: how far ahead it runs."""
    ahead = demo_clock.ahead()
    return f"demo clock, {demo_clock.describe(ahead)} ahead" if ahead else ""
