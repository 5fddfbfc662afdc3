"""Template tags of the pages that update themselves (``blognomic.web.live``): ``{% live_part %}`` marks a part
that may change, ``{% live_poller %}`` asks for its changes, ``{% live_status %}`` is where a screen reader is told.

``{% live_part ID %}…{% live_says %}…{% endlive_part %}`` renders its content unchanged and notes it, with the
text after ``live_says`` (what a screen reader is told when that text changes; optional), as one part of the page;
``{% live_part ID when=CONDITION %}`` notes it only while the condition holds.
``{% live_poller URL_NAME ARG… live=CONDITION %}`` renders the poller for every part noted so far in this
response; with a false ``live`` it polls nothing (a resolved matter: nothing on its page changes any more).
"""

from __future__ import annotations

from html import unescape

from django import template
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.urls import reverse
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe

from blognomic.web import live as regions
from votes import horizon

register = template.Library()


class LivePartNode(Node):
    def __init__(
        self, part_id: FilterExpression, content: NodeList, says: NodeList | None, when: FilterExpression | None
    ) -> None:
        self.part_id = part_id
        self.when = when
        self.content = content
        self.says = says

    def render(self, context) -> str:
        html = self.content.render(context)
        request = context.get("request")
        if request is not None and (self.when is None or self.when.resolve(context)):
            said = ""
            if self.says is not None:
                said = " ".join(unescape(strip_tags(self.says.render(context))).split())
            regions.collected(request).parts.append(regions.Part(str(self.part_id.resolve(context)), html, said))
        return html


@register.tag
def live_part(parser: Parser, token: Token) -> LivePartNode:
    bits = token.split_contents()
    when = None
    if len(bits) == 3 and bits[2].startswith("when="):
        when = parser.compile_filter(bits.pop()[len("when=") :])
    if len(bits) != 2:
        raise template.TemplateSyntaxError(
            "live_part takes the id of the part's element, and optionally when=CONDITION (noted only when true)."
        )
    content = parser.parse(("live_says", "endlive_part"))
    says = None
    if parser.next_token().contents == "live_says":
        says = parser.parse(("endlive_part",))
        parser.delete_first_token()
    return LivePartNode(parser.compile_filter(bits[1]), content, says, when)


@register.simple_tag(takes_context=True)
def live_poller(context, url_name: str, *args, live: bool = True) -> str:
    request = context["request"]
    parts = regions.collected(request).parts
    moments = horizon.noted()
    until = min(moments, default=None)
    url = reverse(url_name, args=args) if live else None
    return mark_safe(regions.poller(url, since=regions.since_of(request), until=until, parts=parts))  # noqa: S308


@register.simple_tag
def live_status() -> str:
    return mark_safe(regions.status_line())  # noqa: S308
