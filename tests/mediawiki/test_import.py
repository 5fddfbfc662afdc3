"""`python manage.py import_mediawiki FILE.xml`: a MediaWiki export (0.10 or 0.11) comes in with every
revision, its author, UTC time, summary and text; the Ruleset page becomes the structured Ruleset."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command

from blognomic.moving.mediawiki.importing import import_mediawiki
from blognomic.moving.mediawiki.reading import ExportError
from dynasties.models import User
from ruleset.lineage import ruleset_blame
from ruleset.models import Page, Revision, RuleChange
from tests.mediawiki.exports import RULESET_1, RULESET_2, RULESET_3, blognomic_wiki, export, page, revision

pytestmark = pytest.mark.django_db


def load(data: bytes, **kwargs):
    return import_mediawiki(io.BytesIO(data), **kwargs)


@pytest.mark.parametrize("version", ["0.10", "0.11"])
def test_every_revision_comes_with_author_time_summary_and_text(version):
    report = load(blognomic_wiki(version))
    ruleset = Page.objects.get(slug="ruleset")
    first, second = ruleset.revisions.order_by("number")
    assert (first.author.username, first.at, first.summary, first.text) == (
        "Kevan",
        datetime(2016, 7, 1, 10, tzinfo=UTC),
        "Start of the dynasty",
        RULESET_1,
    )
    assert second.author is None and second.summary == "" and second.text == RULESET_2, (
        "a deleted contributor and comment are kept as nobody and no summary"
    )
    assert ruleset.current_id == second.pk
    assert report.formats == {version}


def test_the_ruleset_page_becomes_the_structured_ruleset_with_its_rules_indexed():
    """'its rules recognised from the headings so blame, rule history and amendments work'."""
    load(blognomic_wiki())
    ruleset = Page.objects.get(slug="ruleset")
    assert ruleset.kind == Page.RULESET
    added = set(RuleChange.objects.filter(page=ruleset, kind=RuleChange.ADDED).values_list("title", flat=True))
    assert added == {"Ruleset and Gamestate", "Votes", "Lamps"}, "level-one sections, level-two rules"
    lamps = list(RuleChange.objects.filter(page=ruleset, anchor="rule-lamps").values_list("kind", flat=True))
    assert sorted(lamps) == ["added", "changed"]
    assert not Revision.objects.filter(page=ruleset, rules_indexed=False).exists()
    blame = ruleset_blame(ruleset)
    assert blame["rule-lamps"].revision.number == 2 and blame["rule-votes"].revision.number == 1


def test_snapshots_and_other_pages_become_wiki_pages_and_talk_and_user_pages_are_skipped():
    report = load(blognomic_wiki())
    snapshot = Page.objects.get(title="Ruleset 142")
    assert snapshot.kind == Page.RULESET and snapshot.protected and snapshot.slug == "ruleset-142"
    assert Page.objects.get(title="Dynasty History").kind == Page.ORDINARY
    assert not Page.objects.filter(title__in=["Talk:Ruleset", "User:Kevan"]).exists()
    text = "\n".join(report.lines())
    assert "'Talk:Ruleset': a talk page" in text and "'User:Kevan': a user page" in text


def test_talk_and_user_pages_come_when_asked_for():
    load(blognomic_wiki(), include_talk=True, include_user=True)
    assert Page.objects.filter(title__in=["Talk:Ruleset", "User:Kevan"]).count() == 2


def test_revisions_without_text_are_skipped_naming_the_element_and_line():
    report = load(blognomic_wiki())
    history = Page.objects.get(title="Dynasty History")
    assert history.revisions.count() == 2, "the table and the anonymous fix"
    reasons = "\n".join(report.skipped)
    assert "<revision> 31 of 'Dynasty History' has no <text>" in reasons
    assert "<revision> 32 of 'Dynasty History' has its text deleted" in reasons
    data = blognomic_wiki().decode()
    line = data[: data.index("<id>31</id>")].count("\n")  # the <revision> element opens the line before
    assert f"line {line}: <revision> 31 of 'Dynasty History' has no <text>" in reasons


def test_an_anonymous_edit_keeps_no_address():
    """An address is personal data and no account: the edit is kept without an author."""
    load(blognomic_wiki())
    fix = Revision.objects.get(text="Anon fix")
    assert fix.author is None
    assert not User.objects.filter(username="192.0.2.7").exists()


def test_contributors_become_accounts_without_passwords_one_per_person():
    """'Kevan' and 'kevan' are one person; nobody's password travels."""
    load(blognomic_wiki(), include_user=True)
    assert sorted(User.objects.values_list("username", flat=True)) == ["Clucky", "Kevan"]
    assert not any(user.has_usable_password() for user in User.objects.all())


def test_importing_the_same_file_twice_changes_nothing():
    load(blognomic_wiki())
    before = list(Revision.objects.order_by("pk").values_list("pk", "page_id", "number", "text"))
    report = load(blognomic_wiki())
    assert list(Revision.objects.order_by("pk").values_list("pk", "page_id", "number", "text")) == before
    assert report.counts["revisions added"] == 0
    assert report.counts["revisions already here"] == len(before)


def test_a_newer_export_adds_only_what_is_new():
    load(blognomic_wiki())
    report = load(blognomic_wiki(newer=True))
    assert report.counts["revisions added"] == 1
    ruleset = Page.objects.get(slug="ruleset")
    assert ruleset.current.text == RULESET_3 and ruleset.current.author.username == "Bucky"
    assert RuleChange.objects.filter(revision=ruleset.current, anchor="rule-fog", kind="added").exists()


def test_revisions_given_out_of_order_are_numbered_as_they_happened():
    """A page's history split over several <page> elements, the older part last."""
    data = export(
        page("Lamp Board", 0, 7, revision(2, "2016-07-02T00:00:00Z", "two")),
        page("Lamp Board", 0, 7, revision(1, "2016-07-01T00:00:00Z", "one")),
    )
    load(data)
    board = Page.objects.get(title="Lamp Board")
    assert list(board.revisions.order_by("number").values_list("text", flat=True)) == ["one", "two"]
    assert board.current.text == "two"


def test_dry_run_writes_nothing_and_reports():
    report = load(blognomic_wiki(), dry_run=True)
    assert not Page.objects.exists() and not Revision.objects.exists() and not User.objects.exists()
    assert report.counts["revisions added"] == 5
    assert report.lines()[0] == "Dry run: nothing was written."


def test_unknown_templates_are_reported():
    data = export(page("Gamestate", 0, 8, revision(1, "2016-07-01T00:00:00Z", "{{Fogbank|3}} {{pill|Round|2|red}}")))
    report = load(data, dry_run=True)
    assert dict(report.unknown_templates) == {"Fogbank": 1}


GOOD = revision(1, "2016-07-01T00:00:00Z", "fine")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b"<mediawiki xmlns='http://www.mediawiki.org/xml/export-0.11/' version='0.11'><page>",
            "line 1: the file is not well-formed",
        ),
        (
            b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n'
            b"<mediawiki>&lol2;</mediawiki>",
            "document type declarations are refused",
        ),
        (b'<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><mediawiki>&x;</mediawiki>', "are refused"),
        (export(page("A", 0, 1, GOOD), version="0.12"), "not a MediaWiki export of a version read here"),
        (b"<html><body/></html>", "line 1: <html> is not a MediaWiki export"),
        (export(page("A", 0, 1, GOOD, revision(2, "yesterday", "x"))), "<timestamp> has 'yesterday'"),
        (
            export(page("A", 0, 1, GOOD)).replace(b"<id>1</id>", b"<id>99999999999999999999</id>", 1),
            "not a whole number",
        ),
    ],
)
def test_a_bad_file_is_refused_naming_the_element_and_line_and_nothing_is_written(data, message):
    with pytest.raises(ExportError, match=message):
        load(data)
    assert not Page.objects.exists() and not Revision.objects.exists() and not User.objects.exists()


def test_a_bad_file_after_good_pages_leaves_nothing_half_imported():
    data = blognomic_wiki().replace(b"</mediawiki>", b"<page><title>Broken</title><revision></page></mediawiki>")
    with pytest.raises(ExportError, match="line \\d+: the file is not well-formed XML"):
        load(data)
    assert not Page.objects.exists() and not User.objects.exists()


def test_the_command_prints_the_report_and_refuses_a_bad_file(tmp_path):
    good, bad, names = tmp_path / "wiki.xml", tmp_path / "bad.xml", tmp_path / "names.txt"
    good.write_bytes(blognomic_wiki())
    bad.write_bytes(b"<mediawiki")
    names.write_text("Kevan = Kevan the Great\nkevan = Kevan the Great\n")
    out = io.StringIO()
    call_command("import_mediawiki", str(good), "--dry-run", "--names", str(names), stdout=out)
    assert "revisions added: 5" in out.getvalue() and not Page.objects.exists()
    call_command("import_mediawiki", str(good), "--names", str(names), stdout=io.StringIO())
    assert Page.objects.get(slug="ruleset").revisions.order_by("number").first().author.username == "Kevan the Great"
    with pytest.raises(CommandError, match="Nothing was imported. line 1"):
        call_command("import_mediawiki", str(bad))
