"""``{{ revision.summary|edit_summary:page }}``: a revision's summary as MediaWiki shows it in a history."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from ruleset.models import Page
from ruleset.structure import slugify
from ruleset.summaries import summary_parts

register = template.Library()


def section_anchor(page: Page, section: str) -> str:
    """Where a section's heading is on ``page``: the Ruleset anchors its rules ``rule-…``, other pages their
    headings ``wiki-…`` (``ruleset.structure``, ``ruleset.wikitext``)."""
    prefix = "rule" if page.is_ruleset else "wiki"
    return f"{prefix}-{slugify(section) or 'section'}"


@register.filter
def edit_summary(summary: str, page: Page) -> SafeString:
    """The summary, each ``/* Section */`` as an arrow link to the section (with ": " when text follows)."""
    pieces = []
    for part in summary_parts(summary):
        if not part.section:
            pieces.append(format_html("{}", part.text))
            continue
        link = format_html(
            '<a href="{}#{}" title="{}">→\u200e{}</a>',
            page.get_absolute_url(),
            section_anchor(page, part.section),
            page.title,
            part.section,
        )
        pieces.append(format_html('<span class="autocomment">{}{}</span>', link, ": " if part.followed else ""))
    return format_html_join("", "{}", ((piece,) for piece in pieces))
