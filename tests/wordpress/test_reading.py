"""Reading a WordPress export (WXR 1.1 and 1.2) with a hardened, streaming parser: no database involved."""

from __future__ import annotations

import io

import pytest

from blognomic.moving.wordpress.reading import Channel, WxrError, WxrPost, parse_gmt, read_wxr
from tests.wordpress.wxr import C, P, author, export


def read(data: bytes) -> list:
    return list(read_wxr(io.BytesIO(data)))


def sample(version: str = "1.2") -> bytes:
    return export(
        [
            P(
                12,
                "Proposal: Quorum Matters",
                "Kevan",
                "2016-07-25 03:32:29",
                body="Add <em>this</em>.",
                name="quorum-matters",
                meta={"admin": "Enacted 1-0", "admin_user": "Kevan", "flavour": "Arr."},
                comments=[
                    C(40, "Kevan", "2016-07-25 04:00:00", vote="for", user_id=1, text="For."),
                    C(41, "A Passer-by", "2016-07-25 05:00:00", parent=40, text="Hello"),
                ],
            ),
            P(13, "Stormy Weather", "Kevan", "2016-07-26 00:00:00", category="Story Post"),
        ],
        authors=author(1, "Kevan", player=True),
        version=version,
    )


@pytest.mark.parametrize("version", ["1.1", "1.2"])
def test_versions_1_1_and_1_2_are_read(version):
    """DESIGN: the importer reads WordPress's WXR 1.1 and 1.2."""
    items = read(sample(version))
    assert isinstance(items[0], Channel) and items[0].version == version
    posts = items[1:]
    assert [p.id for p in posts] == [12, 13]


def test_an_item_carries_its_fields_meta_terms_and_comments():
    """Each post's title, body, author, post_date_gmt, category, post meta and comments with their meta."""
    channel, post, story = read(sample())
    assert channel.authors["Kevan"].meta == {"is_player": "1"}
    assert isinstance(post, WxrPost)
    assert (post.title, post.body, post.creator, post.posted_at, post.name) == (
        "Proposal: Quorum Matters",
        "Add <em>this</em>.",
        "Kevan",
        "2016-07-25 03:32:29",
        "quorum-matters",
    )
    assert post.meta == {"admin": "Enacted 1-0", "admin_user": "Kevan", "flavour": "Arr."}
    assert [(t.domain, t.nicename, t.name) for t in post.terms] == [("category", "proposal", "Proposal")]
    first, reply = post.comments
    assert (first.id, first.user_id, first.meta, first.text) == (40, 1, {"vote": "for"}, "For.")
    assert (reply.author, reply.parent, reply.user_id) == ("A Passer-by", 40, 0)
    assert story.terms[0].name == "Story Post"


def test_lines_name_where_each_item_and_comment_starts():
    """A skipped item's message names its line: the reader records where each item and comment starts."""
    data = sample()
    lines = data.decode().splitlines()
    _, post, story = read(data)
    assert lines[post.line - 1].strip() == "<item>"
    assert lines[post.comments[1].line - 1].strip() == "<wp:comment>"
    assert lines[story.line - 1].strip() == "<item>" and story.line > post.comments[1].line


def test_an_unknown_schema_version_is_refused_naming_the_element_and_line():
    """Item 7: "an unknown schema version ... refused ... with a message naming the element and its line"."""
    with pytest.raises(WxrError) as caught:
        read(sample("1.0"))
    assert caught.value.element == "wp:wxr_version"
    assert caught.value.line == sample("1.0").decode().splitlines().index("\t<wp:wxr_version>1.0</wp:wxr_version>") + 1
    assert "1.1 or 1.2" in str(caught.value)


def test_malformed_xml_is_refused_with_its_line():
    """Item 7: malformed XML is refused with the line it breaks on."""
    data = sample().replace(b"<title>Stormy Weather</title>", b"<title>Stormy Weather</titel>")
    with pytest.raises(WxrError) as caught:
        read(data)
    assert caught.value.line == data.decode().splitlines().index("\t\t<title>Stormy Weather</titel>") + 1
    assert "not well-formed" in str(caught.value)


BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE rss [
 <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<rss><channel><title>&c;</title></channel></rss>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<rss><channel><title>&secret;</title></channel></rss>
"""


@pytest.mark.parametrize("data", [BOMB, EXTERNAL], ids=["entity-expansion bomb", "external entity"])
def test_entity_bombs_and_external_entities_are_refused(data):
    """Item 7: "entity-expansion bombs and external entities (parse with a hardened parser)" are refused."""
    with pytest.raises(WxrError) as caught:
        read(data)
    assert caught.value.line == 2
    assert "not allowed" in str(caught.value)


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"", "no element found"),
        (b"<?xml version='1.0'?><feed></feed>", "not <rss>"),
        (b"<rss><channel><item><title>x</title></item></channel></rss>", "wp:wxr_version"),
        (b"<rss><channel><title>x</title></channel></rss>", "wp:wxr_version"),
    ],
)
def test_what_is_not_a_wordpress_export_is_refused(data, expected):
    with pytest.raises(WxrError, match=expected):
        read(data)


def test_items_are_yielded_while_the_file_is_still_being_read():
    """Item 7: the file is streamed; the first post comes before the last block is read."""
    posts = [P(i, f"Proposal: Number {i}", "Kevan", "2016-07-25 03:32:29", body="x" * 2000) for i in range(1, 200)]
    data = export(posts, authors=author(1, "Kevan"))
    seen: list[int] = []
    items = read_wxr(io.BytesIO(data), progress=seen.append)
    next(items), next(items)
    assert seen and seen[-1] < len(data)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2016-07-25 03:32:29", "2016-07-25T03:32:29+00:00"),
        ("0000-00-00 00:00:00", None),
        ("", None),
        ("yesterday", None),
        ("2016-02-30 00:00:00", None),
        ("٢٠١٦-07-25 03:32:29", None),
    ],
)
def test_gmt_dates(text, expected):
    moment = parse_gmt(text)
    assert (moment.isoformat() if moment else None) == expected
