"""Small WordPress exports written by the format's rules (RSS 2.0 with WordPress's namespaces), for tests.

Every text is made up here; none comes from a real blog.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

HEAD = """<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0"
	xmlns:excerpt="http://wordpress.org/export/{version}/excerpt/"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:wp="http://wordpress.org/export/{version}/"
>
<channel>
	<title>A Test Nomic</title>
	<link>https://nomic.example</link>
	<description>Testing</description>
	<language>en-GB</language>
	<wp:wxr_version>{version}</wp:wxr_version>
	<wp:base_site_url>https://nomic.example</wp:base_site_url>
	<wp:base_blog_url>https://nomic.example</wp:base_blog_url>
"""
CATEGORIES = """	<wp:category>
		<wp:term_id>3</wp:term_id>
		<wp:category_nicename><![CDATA[proposal]]></wp:category_nicename>
		<wp:category_parent><![CDATA[]]></wp:category_parent>
		<wp:cat_name><![CDATA[Proposal]]></wp:cat_name>
	</wp:category>
	<generator>https://wordpress.org/?v=6.4</generator>
"""


def cdata(text: str) -> str:
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def meta(tag: str, pairs: dict[str, str]) -> str:
    return "".join(
        f"\t\t<wp:{tag}>\n\t\t\t<wp:meta_key>{cdata(k)}</wp:meta_key>\n"
        f"\t\t\t<wp:meta_value>{cdata(v)}</wp:meta_value>\n\t\t</wp:{tag}>\n"
        for k, v in pairs.items()
    )


@dataclass
class C:
    id: int
    author: str
    at: str
    text: str = "A comment."
    vote: str | None = None
    user_id: int = 0
    parent: int = 0
    approved: str = "1"
    type: str = ""
    good_flavour: str | None = None

    def xml(self) -> str:
        pairs = {}
        if self.vote is not None:
            pairs["vote"] = self.vote
        if self.good_flavour is not None:
            pairs["good_flavour"] = self.good_flavour
        return (
            "\t\t<wp:comment>\n"
            f"\t\t\t<wp:comment_id>{self.id}</wp:comment_id>\n"
            f"\t\t\t<wp:comment_author>{cdata(self.author)}</wp:comment_author>\n"
            "\t\t\t<wp:comment_author_email><![CDATA[]]></wp:comment_author_email>\n"
            "\t\t\t<wp:comment_author_url></wp:comment_author_url>\n"
            "\t\t\t<wp:comment_author_IP><![CDATA[]]></wp:comment_author_IP>\n"
            f"\t\t\t<wp:comment_date>{cdata(self.at)}</wp:comment_date>\n"
            f"\t\t\t<wp:comment_date_gmt>{cdata(self.at)}</wp:comment_date_gmt>\n"
            f"\t\t\t<wp:comment_content>{cdata(self.text)}</wp:comment_content>\n"
            f"\t\t\t<wp:comment_approved>{cdata(self.approved)}</wp:comment_approved>\n"
            f"\t\t\t<wp:comment_type>{cdata(self.type)}</wp:comment_type>\n"
            f"\t\t\t<wp:comment_parent>{self.parent}</wp:comment_parent>\n"
            f"\t\t\t<wp:comment_user_id>{self.user_id}</wp:comment_user_id>\n"
            + meta("commentmeta", pairs)
            + "\t\t</wp:comment>\n"
        )


@dataclass
class P:
    id: int
    title: str
    author: str
    at: str | None
    category: str = "Proposal"
    nicename: str = ""
    body: str = "Add a rule."
    name: str = ""
    status: str = "publish"
    type: str = "post"
    meta: dict[str, str] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    comments: list[C] = field(default_factory=list)
    modified: str | None = None

    def xml(self) -> str:
        nicename = self.nicename or self.category.lower().replace(" ", "-")
        date = "" if self.at is None else f"\t\t<wp:post_date_gmt>{cdata(self.at)}</wp:post_date_gmt>\n"
        modified = (
            ""
            if self.modified is None
            else (f"\t\t<wp:post_modified_gmt>{cdata(self.modified)}</wp:post_modified_gmt>\n")
        )
        tags = "".join(
            f'\t\t<category domain="post_tag" nicename="{escape(t.lower())}">{cdata(t)}</category>\n' for t in self.tags
        )
        return (
            "\t<item>\n"
            f"\t\t<title>{escape(self.title)}</title>\n"
            f"\t\t<link>https://nomic.example/?p={self.id}</link>\n"
            "\t\t<pubDate>Mon, 25 Jul 2016 03:32:29 +0000</pubDate>\n"
            f"\t\t<dc:creator>{cdata(self.author)}</dc:creator>\n"
            f'\t\t<guid isPermaLink="false">https://nomic.example/?p={self.id}</guid>\n'
            "\t\t<description></description>\n"
            f"\t\t<content:encoded>{cdata(self.body)}</content:encoded>\n"
            "\t\t<excerpt:encoded><![CDATA[]]></excerpt:encoded>\n"
            f"\t\t<wp:post_id>{self.id}</wp:post_id>\n"
            f"\t\t<wp:post_date>{cdata(self.at or '')}</wp:post_date>\n"
            + date
            + modified
            + "\t\t<wp:comment_status><![CDATA[open]]></wp:comment_status>\n"
            "\t\t<wp:ping_status><![CDATA[open]]></wp:ping_status>\n"
            f"\t\t<wp:post_name>{cdata(self.name)}</wp:post_name>\n"
            f"\t\t<wp:status>{cdata(self.status)}</wp:status>\n"
            "\t\t<wp:post_parent>0</wp:post_parent>\n"
            "\t\t<wp:menu_order>0</wp:menu_order>\n"
            f"\t\t<wp:post_type>{cdata(self.type)}</wp:post_type>\n"
            "\t\t<wp:post_password><![CDATA[]]></wp:post_password>\n"
            "\t\t<wp:is_sticky>0</wp:is_sticky>\n"
            f'\t\t<category domain="category" nicename="{escape(nicename)}">{cdata(self.category)}</category>\n'
            + tags
            + meta("postmeta", self.meta)
            + "".join(c.xml() for c in self.comments)
            + "\t</item>\n"
        )


def author(id: int, login: str, *, player: bool | None = None, display: str | None = None) -> str:
    extra = "" if player is None else meta("usermeta", {"is_player": "1" if player else "0"})
    return (
        "\t<wp:author>\n"
        f"\t\t<wp:author_id>{id}</wp:author_id>\n"
        f"\t\t<wp:author_login>{cdata(login)}</wp:author_login>\n"
        f"\t\t<wp:author_email>{cdata(login.lower().replace(' ', '') + '@nomic.example')}</wp:author_email>\n"
        f"\t\t<wp:author_display_name>{cdata(display or login)}</wp:author_display_name>\n"
        "\t\t<wp:author_first_name><![CDATA[]]></wp:author_first_name>\n"
        "\t\t<wp:author_last_name><![CDATA[]]></wp:author_last_name>\n" + extra + "\t</wp:author>\n"
    )


def export(posts: list[P], *, authors: str = "", version: str = "1.2") -> bytes:
    return (
        HEAD.format(version=version) + authors + CATEGORIES + "".join(p.xml() for p in posts) + "</channel>\n</rss>\n"
    ).encode("utf-8")
