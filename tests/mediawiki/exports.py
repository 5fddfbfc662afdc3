"""MediaWiki exports written for the tests, in the shapes Special:Export and dumpBackup.php write.

The texts are made up; only the markup follows BlogNomic's wiki (level-one sections, a wrapping div,
templates, tables).
"""

from __future__ import annotations

HEADER = (
    (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-{v}/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="http://www.mediawiki.org/xml/export-{v}/ http://www.mediawiki.org/xml/export-{v}.xsd" '
        'version="{v}" xml:lang="en">\n'
    )
    + """  <siteinfo>
    <sitename>Test Nomic Wiki</sitename>
    <dbname>testwiki</dbname>
    <base>http://wiki.example/index.php/Main_Page</base>
    <generator>MediaWiki 1.39.17</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="-2" case="first-letter">Media</namespace>
      <namespace key="0" case="first-letter" />
      <namespace key="1" case="first-letter">Talk</namespace>
      <namespace key="2" case="first-letter">User</namespace>
      <namespace key="4" case="first-letter">Test Nomic Wiki</namespace>
      <namespace key="10" case="first-letter">Template</namespace>
    </namespaces>
  </siteinfo>
"""
)

RULESET_1 = """<div style="padding:8px;background:#ddd;">
{{TOCRight}}
= Core Rules =
== Ruleset and Gamestate ==
This is the Ruleset; all Keepers obey it.
== Votes ==
Each Keeper may vote '''FOR''' or '''AGAINST'''.
= Dynastic Rules =
== Lamps ==
Each Keeper has a [[Lamp Board|lamp]].
</div>"""

RULESET_2 = RULESET_1.replace("== Lamps ==\n", "== Lamps ==\n{{box|Lamp Meter|yellow}} ")
RULESET_3 = RULESET_2.replace("= Dynastic Rules =\n", "= Dynastic Rules =\n== Fog ==\nFog rolls in daily.\n")


def revision(
    rev_id: int,
    at: str,
    text: str | None,
    *,
    user: str | None = "Kevan",
    comment: str | None = "edit",
    deleted_user: bool = False,
    deleted_comment: bool = False,
    deleted_text: bool = False,
    ip: str | None = None,
) -> str:
    if deleted_user:
        who = '<contributor deleted="deleted" />'
    elif ip:
        who = f"<contributor><ip>{ip}</ip></contributor>"
    else:
        who = f"<contributor><username>{user}</username><id>{rev_id + 100}</id></contributor>"
    note = '<comment deleted="deleted" />' if deleted_comment else (f"<comment>{comment}</comment>" if comment else "")
    if deleted_text:
        body = '<text bytes="0" deleted="deleted" />'
    elif text is None:
        body = ""
    else:
        escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        body = f'<text bytes="{len(text.encode())}" xml:space="preserve">{escaped}</text>'
    return (
        f"    <revision>\n      <id>{rev_id}</id>\n      <timestamp>{at}</timestamp>\n      {who}\n"
        f"      {note}\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      {body}\n"
        f"      <sha1>x</sha1>\n    </revision>\n"
    )


def page(title: str, ns: int, page_id: int, *revisions: str) -> str:
    return (
        f"  <page>\n    <title>{title}</title>\n    <ns>{ns}</ns>\n    <id>{page_id}</id>\n"
        f"{''.join(revisions)}  </page>\n"
    )


def export(*pages: str, version: str = "0.11") -> bytes:
    return (HEADER.format(v=version) + "".join(pages) + "</mediawiki>\n").encode("utf-8")


def blognomic_wiki(version: str = "0.11", *, newer: bool = False) -> bytes:
    """A small wiki: the Ruleset's history split over two <page> elements, a snapshot, a history page,
    a talk page and a user page; ``newer`` adds one more Ruleset revision, as a later export would."""
    later = [revision(13, "2016-07-03T09:00:00Z", RULESET_3, user="Bucky", comment="Fog")] if newer else []
    return export(
        page(
            "Ruleset",
            0,
            1,
            revision(10, "2016-07-01T10:00:00Z", RULESET_1, comment="Start of the dynasty"),
            revision(11, "2016-07-02T11:30:00Z", RULESET_2, deleted_user=True, deleted_comment=True),
        ),
        page(
            "Ruleset 142",
            0,
            2,
            revision(20, "2016-06-30T00:00:00Z", "= Core Rules =\n== Old ==\nOld.", user="Clucky", comment="Snapshot"),
        ),
        page(
            "Dynasty History",
            0,
            3,
            revision(
                30, "2016-07-01T12:00:00Z", '{| class="wikitable"\n! # !! Emperor\n|-\n| 142 || Kevan\n|}', user="kevan"
            ),
            revision(31, "2016-07-01T12:05:00Z", None),
            revision(32, "2016-07-01T12:06:00Z", "x", deleted_text=True),
            revision(33, "2016-07-01T12:07:00Z", "Anon fix", ip="192.0.2.7"),
        ),
        page("Talk:Ruleset", 1, 4, revision(40, "2016-07-01T13:00:00Z", "Why?")),
        page("User:Kevan", 2, 5, revision(50, "2016-07-01T14:00:00Z", "Hi")),
        page("Ruleset", 0, 1, *later),
        version=version,
    )
