"""``manage.py import_ruleset FILE`` loads a plain-text ruleset export into the structured Ruleset page.

The five seed rulesets are read from ``shared/seeds`` beside the project (none of their text is copied
here), and the sections and rule titles found are checked against the counts established by hand in
``tests/ruleset/test_seed_import.py``.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ruleset.models import Page, RuleChange
from ruleset.structure import UNNAMED_RULE_TITLE, parse_ruleset
from tests.factories import make_player
from tests.ruleset.test_seed_import import EXPECTED

pytestmark = pytest.mark.django_db

SEEDS = Path(__file__).resolve().parents[1] / ".." / "shared" / "seeds"


def run_import(*args: str) -> str:
    out = StringIO()
    call_command("import_ruleset", *args, stdout=out)
    return out.getvalue()


def test_all_five_seed_rulesets_import_through_the_command_with_their_sections_and_rules():
    """Each seed becomes the next revision of the Ruleset, with the sections and rule titles counted by hand."""
    names = sorted(EXPECTED)
    if not all((SEEDS / name).exists() for name in names):
        pytest.skip(f"seed rulesets not found at {SEEDS}")
    for number, name in enumerate(names, start=1):
        output = run_import(str(SEEDS / name), "--summary", f"Seed {name[:3]}")
        expected = EXPECTED[name]
        page = Page.objects.get(slug="ruleset")
        revision = page.current
        assert (revision.number, revision.summary, page.kind) == (number, f"Seed {name[:3]}", Page.RULESET)
        ruleset = parse_ruleset(revision.text)
        assert [section.title for section in ruleset.sections] == expected["sections"], name
        assert [len(section.rules) for section in ruleset.sections] == expected["rules_per_section"], name
        assert sum(rule.level > 3 for rule in ruleset.all_rules()) == expected["subrules"], name
        assert sum(rule.title == UNNAMED_RULE_TITLE for rule in ruleset.all_rules()) == expected["unnamed"], name
        assert {ref: ruleset.find(ref).title for ref in expected["titles"]} == expected["titles"], name
        assert f"Saved revision {number} of Ruleset" in output
        assert RuleChange.objects.filter(revision=revision).exists(), "each import records the rules it changed"


def test_the_command_records_the_author_given(tmp_path, t0):
    make_player("Kevan", joined_at=t0, admin=True)
    export = tmp_path / "ruleset.txt"
    export.write_text("Core Rules\n\nBasics\n\nPlay nicely.\n", encoding="utf-8")
    run_import(str(export), "--author", "Kevan")
    page = Page.objects.get(slug="ruleset")
    assert (page.current.author.username, page.current.summary) == ("Kevan", "Imported a plain-text ruleset")


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("Just a paragraph of prose.\n", (), "No ruleset section found"),
        ("Core Rules\n\nBasics\n\nPlay.\n", ("--author", "Nobody"), "No account named 'Nobody'"),
    ],
)
def test_the_command_fails_clearly_and_writes_nothing(tmp_path, content, args, message):
    export = tmp_path / "ruleset.txt"
    export.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        run_import(str(export), *args)
    assert not Page.objects.exists()


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        run_import(str(tmp_path / "missing.txt"))
