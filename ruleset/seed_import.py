"""Convert a plain-text export of the MediaWiki ruleset page into the stored ruleset markup.

Such an export (the five seed rulesets are examples) keeps the words but loses the markup: headings
become bare lines, bullets become "  • " and heading levels are gone. The heuristics below were worked
out from the five seeds:

- **Page chrome** ("From BlogNomic Wiki", "Revision as of …", "Jump to navigation …", the banner and page
  title above them) is dropped, and so is a MediaWiki footer ("Retrieved from …", "Categories: …").
- **A heading** is a line standing alone between blank lines that reads like a title: at most
  ``MAX_TITLE_WORDS`` words, no colon, no closing punctuation unless the line is in Title Case ("The Good,
  The Bad, and The Ugly."), mostly capitalised words.
- **Section headings** are the known names: Core Rules, Dynastic Rules, Special Case, Appendix, Glossary.
- **Lost headings.** Some exports print a heading as an empty line (it was a link on the wiki), so a
  run of N blank lines marks N-1 headings that were there. Such a rule is titled "Unnamed Rule", the
  name the 2015 ruleset gives a rule without a name; one with no text at all is dropped.
- **Missing sections.** The Appendix or Glossary is recognised by its opening words ("This is always at
  the end of the Ruleset…", "A keyword defined by a rule supersedes…") and named as the ruleset's first
  rule calls it ("Section Three contains the glossary"). A 2005-style ruleset without sections is split
  where its first rule says the core ends ("Rules 1-10 are the …").
- **Nesting** is not printed, so it is inferred in two cases only: a heading with no text of its own
  is followed by its subrules, up to the end of the section ("Clarifications" in the Appendix); and a
  rule that introduces a list of its subrules (its text ends with a colon or speaks of "sub rules to
  this rule") is followed by short, alike, single-paragraph subrules (ship classes, schools).
- **Lists.** "  • " bullets become "* " (deeper indents "** "), indented "1." items "# ", and a
  glossary printed as alternating term and definition lines becomes a definition list ("; term",
  ": definition").
- **Mojibake** such as "â€™" is repaired where the bytes decode cleanly as UTF-8.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ruleset.structure import UNNAMED_RULE_TITLE, is_heading_line

NO_SECTION_ERROR = (
    "No ruleset section found: expected headings such as 'Core Rules', 'Dynastic Rules' or 'Appendix', "
    "or a first rule saying which rules are core."
)

MAX_TITLE_WORDS = 8
MAX_TITLE_CHARS = 60
MIN_WORDS_OF_PUNCTUATED_TITLE = 3
MAX_TERM_WORDS = 6
MAX_TERM_CHARS = 40
MIN_DEFINITION_LIST_LINES = 4
SUBRULE_LENGTH_FACTOR = 3
"""An inferred list of subrules stops at the first entry this many times longer than the first entry."""

CHROME_SCAN_LINES = 25

_SMALL_WORDS = frozenset("a an and as at by for from in into is of on or the to with nor but vs".split())
_SECTION_TITLE = re.compile(
    r"^(?:core\s+rules?|dynastic\s+rules?|special\s+case(?:\s+rules?)?|appendix|glossary"
    r"|section\s+(?:one|two|three|four|five|\d+)\b.*)$",
    re.IGNORECASE,
)
_CHROME_LINE = re.compile(
    r"^(?:From BlogNomic Wiki|From Wikipedia.*|Jump to:? navigation.*|Revision as of .*|\(diff\) .*"
    r"|\(Redirected from .*\)|Returning players!.*)$",
    re.IGNORECASE,
)
_PAGE_TITLE = re.compile(r"^(?:BlogNomic\s+)?Ruleset(?:\s+\d+)?$", re.IGNORECASE)
_FOOTER_LINE = re.compile(
    r"^(?:Retrieved from\b.*|Categories?:.*|Navigation menu|This page was last (?:edited|modified)\b.*"
    r"|Privacy policy|About BlogNomic Wiki|Disclaimers|Powered by MediaWiki|Personal tools)$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^(?P<indent>\s*)[•·▪◦‣](?:\s+|$)(?P<text>.*)$")
_INDENTED_BULLET = re.compile(r"^(?P<indent>\s+)[*\-–](?:\s+|$)(?P<text>.*)$")
_INDENTED_NUMBER = re.compile(r"^(?P<indent>\s+)\d+[.)]\s+(?P<text>.*)$")
_CORE_RULE_COUNT = re.compile(r"\bRules\s+1\s*[-–]\s*(?P<last>\d+)\s+are\s+the\b", re.IGNORECASE)
_APPENDIX_NAME = re.compile(r"\bSection Three contains the (?P<name>glossary|appendix)\b", re.IGNORECASE)
_GLOSSARY_OPENING = re.compile(r"^This (?:Rule )?is always at the end of the Ruleset\b", re.IGNORECASE)
_KEYWORDS_OPENING = re.compile(r"^A keyword defined by a rule supersedes\b", re.IGNORECASE)
_LISTS_SUBRULES = re.compile(r"\bsub[- ]?rules?\s+(?:to|of)\s+this\s+rule\b", re.IGNORECASE)
_MOJIBAKE_RUN = re.compile(
    "[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]{1,3}"
)
_CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# --- the intermediate document ---------------------------------------------------------------------


@dataclass
class _Block:
    """A run of non-blank lines, with the number of blank lines that came before it."""

    lines: list[str]
    blank_lines_before: int

    @property
    def is_single_line(self) -> bool:
        return len(self.lines) == 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class _SectionMark:
    title: str


@dataclass
class _SectionIntro:
    """Text between a section heading and the section's first rule."""

    blocks: list[_Block]


@dataclass
class _RuleDraft:
    title: str | None
    blocks: list[_Block] = field(default_factory=list)
    children: list[_RuleDraft] = field(default_factory=list)

    @property
    def first_text(self) -> str:
        return self.blocks[0].lines[0].strip() if self.blocks else ""


_Item = _SectionMark | _SectionIntro | _RuleDraft


# --- entry point -----------------------------------------------------------------------------------


def convert_plaintext_export(text: str) -> str:
    """The stored ruleset markup for a plain-text export of the ruleset wiki page.

    Raises ``ValueError`` (``NO_SECTION_ERROR``) when the text has no section heading and no other sign
    of where a section begins, as an empty text or ordinary prose has not.
    """
    lines = _clean_lines(text)
    lines = _drop_footer(_drop_chrome(lines))
    preamble, items = _read_items(_split_blocks(lines))
    ruleset_intro = _first_rule_text(items)
    items = _name_missing_appendix(items, ruleset_intro)
    items = _split_core_and_dynastic(items, ruleset_intro)
    if not any(isinstance(item, _SectionMark) for item in items):
        raise ValueError(NO_SECTION_ERROR)
    sections = _group_sections(items)
    for section in sections:
        section.rules = _nest_subrules(section.rules)
        section.rules = _drop_empty_unnamed(section.rules)
    return _render_markup(preamble, sections)


# --- cleaning --------------------------------------------------------------------------------------


def _clean_lines(text: str) -> list[str]:
    text = text.replace("\ufeff", "").replace("\r\n", "\n").replace("\r", "\n")
    text = repair_mojibake(text)
    text = _CONTROL_CHARACTERS.sub("", text.replace("\t", "    ").replace("\u00a0", " "))
    return [line.rstrip() for line in text.split("\n")]


def repair_mojibake(text: str) -> str:
    """Undo UTF-8 read as Windows-1252 ("â€™" → "’"), run by run, wherever a run decodes cleanly."""

    def repair(match: re.Match[str]) -> str:
        run = match.group()
        for encoding in ("cp1252", "latin-1"):
            try:
                return run.encode(encoding).decode("utf-8")
            except (UnicodeEncodeError, UnicodeDecodeError):
                continue
        return run

    return _MOJIBAKE_RUN.sub(repair, text)


def _drop_chrome(lines: list[str]) -> list[str]:
    scanned = 0
    last_chrome = -1
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        scanned += 1
        if scanned > CHROME_SCAN_LINES:
            break
        if _CHROME_LINE.match(line.strip()):
            last_chrome = index
    lines = lines[last_chrome + 1 :]
    first_text = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first_text is not None and _PAGE_TITLE.match(lines[first_text].strip()):
        lines = lines[first_text + 1 :]
    return lines


def _drop_footer(lines: list[str]) -> list[str]:
    for index, line in enumerate(lines):
        if _FOOTER_LINE.match(line.strip()):
            return lines[:index]
    return lines


def _split_blocks(lines: list[str]) -> list[_Block]:
    blocks: list[_Block] = []
    current: list[str] = []
    blanks = 0
    seen_text = False
    for line in lines:
        if line.strip():
            current.append(line)
            continue
        if current:
            blocks.append(_Block(current, blanks if seen_text else 0))
            current, blanks, seen_text = [], 0, True
        blanks += 1
    if current:
        blocks.append(_Block(current, blanks if seen_text else 0))
    return blocks


# --- headings --------------------------------------------------------------------------------------


def looks_like_title(line: str) -> bool:
    """Whether a line standing alone reads as a rule or section title rather than a sentence.

    A title ending in a full stop must be three or more words, all capitalised ("The Good, The Bad,
    and The Ugly."), since short sentences ("Speed 1.") look like titles otherwise.
    """
    if not line or line[0].isspace():
        return False
    text = line.strip()
    words = text.split()
    if not words or len(words) > MAX_TITLE_WORDS or len(text) > MAX_TITLE_CHARS:
        return False
    if ":" in text or "://" in text or text.startswith(("•", "-", "*", "(", "[")):
        return False
    first_letter = next((char for char in text if char.isalnum()), "")
    if not first_letter or not (first_letter.isupper() or first_letter.isdigit()):
        return False
    if text[-1] in ",;-–—":
        return False
    capitalised = [word for word in words if _is_capitalised(word)]
    significant = [word for word in words if word.lower().strip(".,!?") not in _SMALL_WORDS]
    if text[-1] in ".!?":
        return len(significant) >= MIN_WORDS_OF_PUNCTUATED_TITLE and len(capitalised) >= len(significant)
    return 2 * len(capitalised) >= len(significant)


def _is_capitalised(word: str) -> bool:
    first = next((char for char in word if char.isalnum()), "")
    return bool(first) and (first.isupper() or first.isdigit())


def _is_section_title(line: str) -> bool:
    return bool(_SECTION_TITLE.match(line.strip()))


def _read_items(blocks: list[_Block]) -> tuple[list[_Block], list[_Item]]:
    """Headings and text in order; text before the first heading is the preamble."""
    preamble: list[_Block] = []
    items: list[_Item] = []
    for block in blocks:
        lost_headings = max(0, block.blank_lines_before - 1)
        items.extend(_RuleDraft(title=None) for _ in range(lost_headings))
        if block.is_single_line and looks_like_title(block.lines[0]):
            title = " ".join(block.lines[0].split())
            items.append(_SectionMark(title) if _is_section_title(title) else _RuleDraft(title=title))
        elif items:
            _last_text_holder(items).append(block)
        else:
            preamble.append(block)
    return preamble, items


def _last_text_holder(items: list[_Item]) -> list[_Block]:
    last = items[-1]
    if isinstance(last, _SectionMark):
        intro = _SectionIntro([])
        items.append(intro)
        return intro.blocks
    return last.blocks


def _first_rule_text(items: list[_Item]) -> str:
    for item in items:
        if isinstance(item, _RuleDraft) and item.blocks:
            return item.blocks[0].text
    return ""


# --- missing sections ------------------------------------------------------------------------------


def _name_missing_appendix(items: list[_Item], ruleset_intro: str) -> list[_Item]:
    """Start the Appendix or Glossary section where its opening words show it, if no heading does."""
    if any(isinstance(item, _SectionMark) and _is_appendix(item.title) for item in items):
        return items
    for index, item in enumerate(items):
        if not isinstance(item, _RuleDraft):
            continue
        if _GLOSSARY_OPENING.match(item.first_text):
            name = _appendix_name(ruleset_intro, default="Glossary")
            if item.title is None:
                return [*items[:index], _SectionMark(name), _SectionIntro(item.blocks), *items[index + 1 :]]
            return [*items[:index], _SectionMark(name), *items[index:]]
        if _KEYWORDS_OPENING.match(item.first_text):
            name = _appendix_name(ruleset_intro, default="Appendix")
            if item.title is None:
                item.title = "Keywords"
            before = items[:index]
            # An empty lost heading right before the keywords was the section heading itself.
            if before and isinstance(before[-1], _RuleDraft) and before[-1].title is None:
                if not before[-1].blocks:
                    before = before[:-1]
            return [*before, _SectionMark(name), *items[index:]]
    return items


def _is_appendix(title: str) -> bool:
    return bool(re.search(r"appendix|glossary", title, re.IGNORECASE))


def _appendix_name(ruleset_intro: str, default: str) -> str:
    match = _APPENDIX_NAME.search(ruleset_intro)
    return match["name"].capitalize() if match else default


def _split_core_and_dynastic(items: list[_Item], ruleset_intro: str) -> list[_Item]:
    """Give rules that precede every section heading a section of their own.

    A 2005-style ruleset numbers its rules 1, 2, 3… and says which are core ("Rules 1-10 are the …"): the
    first ten rules then become Core Rules and the rest, up to the glossary, Dynastic Rules.
    """
    first_mark = next((i for i, item in enumerate(items) if isinstance(item, _SectionMark)), len(items))
    leading = items[:first_mark]
    if not any(isinstance(item, _RuleDraft) for item in leading):
        return items
    core_count = _CORE_RULE_COUNT.search(ruleset_intro)
    marks = [item.title.casefold() for item in items if isinstance(item, _SectionMark)]
    if core_count is None:
        if not marks:
            return items
        title = "Core Rules" if "core rules" not in marks else "Rules"
        return [_SectionMark(title), *items]
    result: list[_Item] = [_SectionMark("Core Rules")]
    rules_seen = 0
    for item in leading:
        if isinstance(item, _RuleDraft):
            rules_seen += 1
            if rules_seen == int(core_count["last"]) + 1:
                result.append(_SectionMark("Dynastic Rules"))
        result.append(item)
    return [*result, *items[first_mark:]]


# --- sections and nesting --------------------------------------------------------------------------


@dataclass
class _SectionDraft:
    title: str
    intro: list[_Block] = field(default_factory=list)
    rules: list[_RuleDraft] = field(default_factory=list)


def _group_sections(items: Iterable[_Item]) -> list[_SectionDraft]:
    sections: list[_SectionDraft] = []
    for item in items:
        if isinstance(item, _SectionMark):
            sections.append(_SectionDraft(item.title))
        elif not sections:
            continue
        elif isinstance(item, _SectionIntro):
            sections[-1].intro.extend(item.blocks)
        else:
            sections[-1].rules.append(item)
    return sections


def _nest_subrules(rules: list[_RuleDraft]) -> list[_RuleDraft]:
    """Top-level rules of a section, with the subrules the export's layout implies moved under them."""
    nested: list[_RuleDraft] = []
    index = 0
    while index < len(rules):
        rule = rules[index]
        index += 1
        if not rule.blocks and index < len(rules):
            while index < len(rules) and rules[index].blocks:
                rule.children.append(rules[index])
                index += 1
        elif _introduces_subrules(rule):
            children = _alike_followers(rules[index:])
            rule.children.extend(children)
            index += len(children)
        nested.append(rule)
    return nested


def _introduces_subrules(rule: _RuleDraft) -> bool:
    """Whether the rule's text announces entries to follow: it ends with a colon or names its subrules."""
    if not rule.blocks:
        return False
    last_line = rule.blocks[-1].lines[-1]
    ends_with_colon = last_line.strip().endswith((":", ":-")) and not _is_list_line(last_line)
    return ends_with_colon or any(_LISTS_SUBRULES.search(block.text) for block in rule.blocks)


def _alike_followers(followers: list[_RuleDraft]) -> list[_RuleDraft]:
    """The titled, single-paragraph rules that follow, while they stay about as short as the first."""
    children: list[_RuleDraft] = []
    for follower in followers:
        if follower.title is None or len(follower.blocks) != 1:
            break
        if children and len(follower.blocks[0].text) > SUBRULE_LENGTH_FACTOR * len(children[0].blocks[0].text):
            break
        children.append(follower)
    return children


def _drop_empty_unnamed(rules: list[_RuleDraft]) -> list[_RuleDraft]:
    kept = []
    for rule in rules:
        rule.children = _drop_empty_unnamed(rule.children)
        if rule.title is None and not rule.blocks and not rule.children:
            continue
        kept.append(rule)
    return kept


# --- writing markup --------------------------------------------------------------------------------


def _render_markup(preamble: list[_Block], sections: list[_SectionDraft]) -> str:
    parts: list[str] = []
    if preamble:
        parts.append(_render_blocks(preamble))
    for section in sections:
        parts.append(_join_heading(f"== {section.title} ==", _render_blocks(section.intro)))
        for rule in section.rules:
            parts.extend(_render_rule(rule, level=3))
    return "\n\n".join(parts) + "\n"


def _render_rule(rule: _RuleDraft, level: int) -> Iterator[str]:
    marks = "=" * level
    title = rule.title or UNNAMED_RULE_TITLE
    yield _join_heading(f"{marks} {title} {marks}", _render_blocks(rule.blocks))
    for child in rule.children:
        yield from _render_rule(child, min(level + 1, 5))


def _join_heading(heading: str, body: str) -> str:
    return f"{heading}\n{body}" if body else heading


def _render_blocks(blocks: list[_Block]) -> str:
    return "\n\n".join(_render_block(block) for block in blocks)


def _render_block(block: _Block) -> str:
    if _is_definition_list(block.lines):
        return "\n".join(_definition_list_lines(block.lines))
    return "\n".join(_render_line(line) for line in block.lines)


def _is_list_line(line: str) -> bool:
    return bool(_BULLET.match(line) or _INDENTED_BULLET.match(line) or _INDENTED_NUMBER.match(line))


def _render_line(line: str) -> str:
    for pattern, marker in ((_BULLET, "*"), (_INDENTED_BULLET, "*"), (_INDENTED_NUMBER, "#")):
        match = pattern.match(line)
        if match:
            depth = max(1, len(match["indent"]) // 2)
            return f"{marker * depth} {match['text'].strip()}".rstrip()
    text = line.strip()
    # A leading space keeps text that happens to look like "== x ==" from being read as a heading.
    return " " + text if is_heading_line(text) else text


def _looks_like_term(line: str) -> bool:
    text = line.strip()
    words = text.split()
    if not words or len(words) > MAX_TERM_WORDS or len(text) > MAX_TERM_CHARS or line[0].isspace():
        return False
    return text[0].isupper() and text[-1] not in ".,;:!?\"”'’" and ":" not in text


def _is_definition_list(lines: list[str]) -> bool:
    if len(lines) < MIN_DEFINITION_LIST_LINES or any(_is_list_line(line) for line in lines):
        return False
    paired = sum(
        2
        for line, following in zip(lines, lines[1:], strict=False)
        if _looks_like_term(line) and not _looks_like_term(following)
    )
    return 2 * paired >= len(lines)


def _definition_list_lines(lines: list[str]) -> Iterator[str]:
    """Term and definition lines; a definition whose term was lost starts a list of its own.

    The blank line before such a definition keeps it from reading as a second definition of the
    term above it.
    """
    index = 0
    after_term = False
    while index < len(lines):
        line = lines[index].strip()
        following = lines[index + 1] if index + 1 < len(lines) else None
        if following is not None and _looks_like_term(line) and not _looks_like_term(following):
            yield f"; {line}"
            yield f": {following.strip()}"
            index += 2
            after_term = True
            continue
        if after_term:
            yield ""
        yield f": {line}"
        index += 1
        after_term = False
