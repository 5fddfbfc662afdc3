"""Pages that belong to one account: their messages and notices.

Marked on the view, so that every answer for such a page, rendered afresh or served from the page cache,
tells browsers and proxies to keep no copy (``Cache-Control: private, no-store``, set by
``blognomic.web.private_pages``).
"""

from __future__ import annotations

PERSONAL_PAGE_ATTRIBUTE = "personal_page"


def personal_page(view):
    """Marks ``view`` (a function, or a callable such as a feed) as one account's own page."""
    setattr(view, PERSONAL_PAGE_ATTRIBUTE, True)
    return view


def is_personal_page(view) -> bool:
    return bool(getattr(view, PERSONAL_PAGE_ATTRIBUTE, False))
