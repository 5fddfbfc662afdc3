"""Checking rendered HTML the way a browser would read it: tags, attributes and decoded URLs."""

from __future__ import annotations

import re
from html.parser import HTMLParser

SCRIPT_SCHEMES = re.compile(r"^(javascript|vbscript|data|file):", re.IGNORECASE)
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "background", "poster", "srcset"}
DANGEROUS_TAGS = {"script", "iframe", "object", "embed", "style", "link", "meta", "base", "form", "svg", "math"}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in DANGEROUS_TAGS:
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{tag} {name}=")
            if name in URL_ATTRIBUTES and value is not None:
                # Browsers ignore control characters and spaces inside a scheme.
                squeezed = re.sub(r"[\x00-\x20]", "", value)
                if SCRIPT_SCHEMES.match(squeezed):
                    self.problems.append(f"{tag} {name}={value!r}")

    handle_startendtag = handle_starttag


def assert_no_script(html: str) -> None:
    assert "<script" not in html.lower(), html
    collector = _Collector()
    collector.feed(html)
    collector.close()
    assert not collector.problems, (collector.problems, html)
