"""The structured Ruleset: sections, numbered rules and subrules, parsed from stored wiki markup.

A ruleset revision is stored as MediaWiki-like markup::

    == Core Rules ==
    === Ruleset and Gamestate ===
    Paragraph text.
    * bullet item
    ==== A subrule ====
    ===== A sub-subrule =====

Level 2 headings are sections, level 3 rules, level 4 subrules and level 5 sub-subrules; a text with
level-1 headings (BlogNomic's own wiki: ``= Core Rules =``) is read one level deeper. Numbers are
never stored: they follow from order (section ``n``, rule ``n.m``, subrule ``n.m.k``, sub-subrule
``n.m.k.l``), so adding or repealing a rule renumbers the ones after it, as the game's own rules expect.

Anchors are slugs of titles ("rule-ruleset-and-gamestate"), made unique in document order, so a link to
a rule survives renumbering.

``serialize_ruleset(parse_ruleset(text))`` gives the canonical form of ``text``, and parsing that canonical
form gives back an equal ``Ruleset``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

UNNAMED_RULE_TITLE = "Unnamed Rule"
"""Title given to a rule whose heading is empty (the 2015 and 2016 rulesets name such rules so)."""

MAX_DEPTH = 3
"""Rule levels below a section: rule, subrule, sub-subrule."""

_MOST_MARKS = 6
_RULE_NUMBER = re.compile(r"^(?:rule\s+)?(?P<number>\d+(?:\.\d+)+)\.?$", re.IGNORECASE)
_QUOTED_TITLE = re.compile(r"^(?:rule\s+)?[\"“”'‘’](?P<title>.+?)[\"“”'‘’]$", re.IGNORECASE)
_KEYWORD_RULE_TITLES = frozenset({"keywords", "glossary", "definitions", "keywords and definitions"})
_APPENDIX_SECTION = re.compile(r"appendix|glossary", re.IGNORECASE)
_SMALL_TERM_WORDS = 6
_TERM_SMALL_WORDS = frozenset({"a", "an", "and", "of", "or", "the", "to", "in", "on", "for", "by"})


@dataclass(frozen=True)
class Rule:
    """A rule, subrule or sub-subrule with its computed number and stable anchor."""

    number: str
    title: str
    body: str
    children: tuple[Rule, ...] = ()
    anchor: str = ""

    @property
    def level(self) -> int:
        """The heading level the rule is stored at: 3 for a rule, 4 for a subrule, 5 below that."""
        return self.number.count(".") + 2

    def walk(self) -> Iterator[Rule]:
        """This rule, then its descendants depth first, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    @property
    def own_text(self) -> str:
        """The title and body of this rule alone, without its subrules."""
        return f"{self.title}\n{self.body}" if self.body else self.title


@dataclass(frozen=True)
class Section:
    """A section of the ruleset (Core Rules, Dynastic Rules, Appendix...).

    ``intro`` holds text that stands between the section heading and its first rule, as the 2008
    Glossary section does.
    """

    number: int
    title: str
    rules: tuple[Rule, ...] = ()
    intro: str = ""
    anchor: str = ""

    def walk(self) -> Iterator[Rule]:
        """Every rule of the section and their subrules, in document order."""
        for rule in self.rules:
            yield from rule.walk()


@dataclass(frozen=True)
class TocEntry:
    """One line of the table of contents: a section (level 2) or a rule (level 3 to 5)."""

    number: str
    title: str
    anchor: str
    level: int


@dataclass(frozen=True)
class Ruleset:
    """A whole ruleset: an optional preamble and its numbered sections."""

    sections: tuple[Section, ...] = ()
    preamble: str = ""
    section_level: int = 2
    """The heading level sections were written at: 2 here, 1 in BlogNomic's own wiki; serializing keeps it."""
    _by_number: dict[str, Rule] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for rule in self.all_rules():
            self._by_number.setdefault(rule.number, rule)

    def all_rules(self) -> Iterator[Rule]:
        """Every rule and subrule in document order."""
        for section in self.sections:
            yield from section.walk()

    def find(self, ref: str) -> Rule | None:
        """The rule that ``ref`` names, or None.

        ``ref`` may be a number ("1.4", "Rule 1.4", "rule 2.3.1"), an anchor ("rule-dynasties") or a
        title, bare or quoted ('Dynasties', '“Dynasties”', 'Rule "Dynasties"'), matched without regard to
        case. A title shared by several rules names the first of them.
        """
        ref = " ".join(ref.split())
        if not ref:
            return None
        number_match = _RULE_NUMBER.match(ref)
        if number_match:
            return self._by_number.get(number_match["number"])
        quoted_match = _QUOTED_TITLE.match(ref)
        wanted = (quoted_match["title"] if quoted_match else ref).casefold()
        for rule in self.all_rules():
            if rule.anchor == ref:
                return rule
        for rule in self.all_rules():
            if rule.title.casefold() == wanted:
                return rule
        return None

    def find_by_anchor(self, anchor: str) -> Rule | None:
        """The rule whose anchor is ``anchor``, or None."""
        return next((rule for rule in self.all_rules() if rule.anchor == anchor), None)

    def toc(self) -> tuple[TocEntry, ...]:
        """The table of contents, flat, in document order; ``level`` gives the nesting."""
        entries: list[TocEntry] = []
        for section in self.sections:
            entries.append(TocEntry(str(section.number), section.title, section.anchor, 2))
            entries.extend(TocEntry(rule.number, rule.title, rule.anchor, rule.level) for rule in section.walk())
        return tuple(entries)

    def glossary(self) -> dict[str, str]:
        """The keywords the ruleset defines, term → definition, in the order they appear.

        Terms come from the Appendix (or Glossary) section, its introduction and rules, and from any
        rule elsewhere titled "Keywords", "Glossary" or "Definitions":

        - definition lists (``; Term`` then ``: definition``), the 2015 and 2016 form;
        - items of the form "Term: definition";
        - sentences "Quorum is equal to …" or "Gamestate is defined as …", kept whole;
        - 'The "subject" of …' and 'References to a "week" …', the 2005 and 2008 forms.

        The first definition of a term wins.
        """
        terms: dict[str, str] = {}
        for text in self._glossary_texts():
            for term, definition in extract_definitions(text):
                terms.setdefault(term, definition)
        return terms

    def _glossary_texts(self) -> Iterator[str]:
        for section in self.sections:
            in_appendix = bool(_APPENDIX_SECTION.search(section.title))
            if in_appendix and section.intro:
                yield section.intro
            for rule in section.walk():
                if in_appendix or rule.title.casefold() in _KEYWORD_RULE_TITLES:
                    yield rule.body


# --- glossary extraction ---------------------------------------------------------------------------

_TERM_COLON = re.compile(r"^(?P<term>[A-Z][\w'’()/ -]{0,48}?)\s*:\s+(?P<definition>\S.*)$")
_TERM_IS = re.compile(r"^(?P<term>[A-Z][\w'’ -]{0,48}?)\s+(?:is|are)\s+(?:defined as|equal to|equivalent to)\b.*$")
_QUOTED_TERM_OF = re.compile(r"^The\s+[\"“](?P<term>[^\"”]{1,40})[\"”]\s+of\b.*$")
_REFERENCES_TO = re.compile(r"^References to\s+(?:an?\s+)?[\"“](?:an?\s+)?(?P<term>[^\"”]{1,40})[\"”].*$")


def extract_definitions(text: str) -> Iterator[tuple[str, str]]:
    """(term, definition) pairs found in one stretch of rule text; see ``Ruleset.glossary``."""
    pending_term: str | None = None
    pending_parts: list[str] = []
    for raw_line in text.split("\n"):
        line = raw_line.strip()
        if line.startswith(";"):
            if pending_term and pending_parts:
                yield pending_term, " ".join(pending_parts)
            term, _, inline_definition = line[1:].partition(" : ")
            pending_term, pending_parts = term.strip(), []
            if inline_definition.strip():
                pending_parts.append(inline_definition.strip())
            continue
        if line.startswith(":") and pending_term is not None:
            pending_parts.append(line.lstrip(":").strip())
            continue
        if pending_term and pending_parts:
            yield pending_term, " ".join(pending_parts)
        pending_term, pending_parts = None, []
        if line.startswith(":"):
            continue
        item = line.lstrip("*#").strip()
        definition = _sentence_definition(item)
        if definition:
            yield definition
    if pending_term and pending_parts:
        yield pending_term, " ".join(pending_parts)


def _sentence_definition(item: str) -> tuple[str, str] | None:
    colon = _TERM_COLON.match(item)
    if colon and _is_title_case_term(colon["term"]):
        return colon["term"].strip(), colon["definition"].strip()
    term_is = _TERM_IS.match(item)
    if term_is and _is_title_case_term(term_is["term"]):
        return term_is["term"].strip(), item
    for pattern in (_QUOTED_TERM_OF, _REFERENCES_TO):
        match = pattern.match(item)
        if match and len(match["term"].split()) <= _SMALL_TERM_WORDS:
            return match["term"].strip(), item
    return None


def _is_title_case_term(term: str) -> bool:
    """Whether an unquoted phrase reads as a defined term ("Appropriate Icons"), not a clause."""
    words = term.split()
    if not words or len(words) > _SMALL_TERM_WORDS:
        return False
    return all(word[0].isupper() or word.lower() in _TERM_SMALL_WORDS for word in words)


# --- parsing ---------------------------------------------------------------------------------------


def slugify(title: str) -> str:
    """A lowercase, hyphenated slug of ``title``; accents are dropped, other letters kept."""
    ascii_form = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    candidate = ascii_form if re.search(r"\w", ascii_form) else unicodedata.normalize("NFKC", title)
    candidate = re.sub(r"['’‘`]", "", candidate.lower())
    candidate = re.sub(r"[^\w\s-]", " ", candidate)
    return re.sub(r"[-\s_]+", "-", candidate).strip("-")


class _AnchorRegistry:
    """Hands out anchors unique within one document: the second "Dice" rule gets "rule-dice-2"."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        # The first suffix still worth trying for each base: anchors are only ever added, so a suffix found
        # taken stays taken, and a thousand rules of one title cost a thousand steps, not half a million.
        self._next_suffix: dict[str, int] = {}

    def claim(self, prefix: str, title: str) -> str:
        base = f"{prefix}-{slugify(title) or 'untitled'}"
        anchor, suffix = base, self._next_suffix.get(base, 2)
        if anchor in self._used:
            anchor = f"{base}-{suffix}"
            while anchor in self._used:
                suffix += 1
                anchor = f"{base}-{suffix}"
            self._next_suffix[base] = suffix + 1
        self._used.add(anchor)
        return anchor


@dataclass
class _DraftRule:
    level: int
    title: str
    body_lines: list[str] = field(default_factory=list)
    children: list[_DraftRule] = field(default_factory=list)


@dataclass
class _DraftSection:
    title: str
    intro_lines: list[str] = field(default_factory=list)
    rules: list[_DraftRule] = field(default_factory=list)


def parse_ruleset(text: str) -> Ruleset:
    """Parse stored ruleset markup into a numbered ``Ruleset``.

    Text before the first section heading is the preamble (a rule heading there stays plain text, since
    a rule belongs to a section). A subrule heading with no rule above it in its section is read as a
    rule, and headings deeper than level 5 as sub-subrules.
    """
    preamble_lines: list[str] = []
    sections: list[_DraftSection] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    # BlogNomic's wiki writes sections as level-one headings ("= Core Rules =") and rules one level
    # down; such a text is read one level deeper, so its sections are sections and its rules rules.
    headings = [_match_heading(line, fewest=1) for line in lines]
    shift = 1 if any(heading is not None and heading[0] == 1 for heading in headings) else 0
    for line, heading in zip(lines, headings, strict=True):
        level, title = (heading[0] + shift, heading[1]) if heading else (0, "")
        if level == 2:
            sections.append(_DraftSection(title=title))
        elif level > 2 and sections:
            _attach_rule(sections[-1], min(level, 2 + MAX_DEPTH), title)
        elif sections:
            _current_text_lines(sections[-1]).append(line)
        else:
            preamble_lines.append(line)
    anchors = _AnchorRegistry()
    section_anchors = _AnchorRegistry()
    return Ruleset(
        sections=tuple(
            _freeze_section(draft, number, anchors, section_anchors) for number, draft in enumerate(sections, start=1)
        ),
        preamble=normalize_block(preamble_lines),
        section_level=2 - shift,
    )


def is_heading_line(line: str) -> bool:
    """Whether ``parse_ruleset`` reads ``line`` as a section or rule heading."""
    return _match_heading(line) is not None


def heading_level(line: str) -> int:
    """The level ``parse_ruleset`` reads ``line`` at: 2 for a section, 3 to 6 for rules, 0 for no heading."""
    heading = _match_heading(line)
    return heading[0] if heading else 0


def _match_heading(line: str, *, fewest: int = 2) -> tuple[int, str] | None:
    """(level, title) when ``line`` is a heading: ``fewest`` to 6 "=" signs, the title, as many "=" signs again.

    Spaces and tabs around the title and at the end are dropped; the most marks that open and close the
    line win ("=== A ====" is a level-3 heading titled "A ="). Read with string methods rather than a
    regular expression: a pattern with a lazy title between runs of spaces backtracks in cubic time on a
    long line of spaces, and a stored Ruleset is parsed on every edit.
    """
    # A line made only of "=" signs is a divider someone typed, not an empty heading.
    if not line.startswith("=" * fewest) or not line.strip().strip("="):
        return None
    closed = line.rstrip(" \t")
    opening = len(line) - len(line.lstrip("="))
    for marks in range(min(opening, _MOST_MARKS), fewest - 1, -1):
        if len(closed) >= 2 * marks and closed.endswith("=" * marks):
            return marks, closed[marks : len(closed) - marks].strip(" \t")
    return None


def _attach_rule(section: _DraftSection, level: int, title: str) -> None:
    siblings = section.rules
    parent_level = 3
    while level > parent_level and siblings:
        parent = siblings[-1]
        siblings = parent.children
        parent_level += 1
    siblings.append(_DraftRule(level=parent_level, title=title))


def _current_text_lines(section: _DraftSection) -> list[str]:
    if not section.rules:
        return section.intro_lines
    rule = section.rules[-1]
    while rule.children:
        rule = rule.children[-1]
    return rule.body_lines


def _freeze_section(
    draft: _DraftSection, number: int, anchors: _AnchorRegistry, section_anchors: _AnchorRegistry
) -> Section:
    title = draft.title.strip()
    return Section(
        number=number,
        title=title,
        rules=tuple(
            _freeze_rule(rule, f"{number}.{position}", anchors) for position, rule in enumerate(draft.rules, start=1)
        ),
        intro=normalize_block(draft.intro_lines),
        anchor=section_anchors.claim("section", title),
    )


def _freeze_rule(draft: _DraftRule, number: str, anchors: _AnchorRegistry) -> Rule:
    title = draft.title.strip() or UNNAMED_RULE_TITLE
    anchor = anchors.claim("rule", title)
    return Rule(
        number=number,
        title=title,
        body=normalize_block(draft.body_lines),
        children=tuple(
            _freeze_rule(child, f"{number}.{position}", anchors)
            for position, child in enumerate(draft.children, start=1)
        ),
        anchor=anchor,
    )


def normalize_block(lines: list[str]) -> str:
    """Lines as canonical body text: trailing spaces and outer blank lines dropped, blank runs collapsed."""
    kept: list[str] = []
    for line in lines:
        line = line.rstrip()
        if not line and (not kept or not kept[-1]):
            continue
        kept.append(line)
    while kept and not kept[-1]:
        kept.pop()
    return "\n".join(kept)


# --- serializing -----------------------------------------------------------------------------------


def serialize_ruleset(ruleset: Ruleset) -> str:
    """The canonical markup of ``ruleset``; numbers and anchors are not written, they are recomputed."""
    blocks: list[str] = []
    if ruleset.preamble:
        blocks.append(ruleset.preamble)
    top = ruleset.section_level
    for section in ruleset.sections:
        blocks.append(_with_body(f"{'=' * top} {section.title} {'=' * top}", section.intro))
        for rule in section.rules:
            blocks.extend(_serialize_rule(rule, level=top + 1, deepest=top + MAX_DEPTH))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _serialize_rule(rule: Rule, level: int, deepest: int = 2 + MAX_DEPTH) -> Iterator[str]:
    marks = "=" * level
    yield _with_body(f"{marks} {rule.title} {marks}", rule.body)
    for child in rule.children:
        yield from _serialize_rule(child, level=min(level + 1, deepest), deepest=deepest)


def _with_body(heading: str, body: str) -> str:
    return f"{heading}\n{body}" if body else heading


# --- comparing revisions ---------------------------------------------------------------------------


def rule_texts(text: str) -> dict[str, str]:
    """Each rule's own text (title and body, without subrules), keyed by anchor.

    Numbers are left out on purpose: comparing two revisions' ``rule_texts`` then shows which rules a
    revision really changed, not every rule that was merely renumbered.
    """
    return {rule.anchor: rule.own_text for rule in parse_ruleset(text).all_rules()}


def changed_rule_anchors(old_text: str, new_text: str) -> set[str]:
    """Anchors of rules added, removed or changed between two revisions' markup."""
    old, new = rule_texts(old_text), rule_texts(new_text)
    return {anchor for anchor in old.keys() | new.keys() if old.get(anchor) != new.get(anchor)}
