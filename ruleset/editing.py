"""Whole-ruleset edits made by the game's own flows rather than by hand, as pure functions over markup.

At an Ascension the dynastic rules the new Emperor does not keep are repealed. ``repeal_dynastic_rules``
cuts those rules out of the stored text line by line, so every other line (including its spacing) stays
exactly as it was and the revision's diff shows only the repeal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ruleset.structure import Rule, heading_level, parse_ruleset

DYNASTIC_SECTION = re.compile(r"\bdynastic\b", re.IGNORECASE)

UNKNOWN_RULE = "No rule “{ref}” in the Ruleset."
NOT_DYNASTIC = "Rule {number} “{title}” is not a dynastic rule; only dynastic rules are repealed or kept."


class RulesetEditError(ValueError):
    """A whole-ruleset edit could not be made; the message says why."""


@dataclass(frozen=True)
class Repeal:
    """The text after a repeal and the rules (number and title, before renumbering) that were repealed."""

    text: str
    repealed: tuple[tuple[str, str], ...]


def repeal_dynastic_rules(text: str, keep: Iterable[str]) -> Repeal:
    """Repeal every top-level rule of the Dynastic Rules section(s) except those named in ``keep``.

    ``keep`` holds references as ``Ruleset.find`` reads them: anchors, numbers ("2.3") or titles. Naming a
    subrule keeps the whole rule it belongs to. A reference to no rule, or to a rule outside the Dynastic
    Rules, raises ``RulesetEditError`` so a typo never repeals a rule someone meant to keep.
    """
    ruleset = parse_ruleset(text)
    dynastic = [section for section in ruleset.sections if DYNASTIC_SECTION.search(section.title)]
    owner = {descendant.anchor: rule for section in dynastic for rule in section.rules for descendant in rule.walk()}
    kept: set[str] = set()
    for ref in keep:
        rule = ruleset.find(ref)
        if rule is None:
            raise RulesetEditError(UNKNOWN_RULE.format(ref=ref))
        if rule.anchor not in owner:
            raise RulesetEditError(NOT_DYNASTIC.format(number=rule.number, title=rule.title))
        kept.add(owner[rule.anchor].anchor)
    repealed_rules = [rule for section in dynastic for rule in section.rules if rule.anchor not in kept]
    if not repealed_rules:
        return Repeal(text=text, repealed=())
    repealed_anchors = {descendant.anchor for rule in repealed_rules for descendant in rule.walk()}
    return Repeal(
        text=_without_rules(text, ruleset_rules=list(ruleset.all_rules()), anchors=repealed_anchors),
        repealed=tuple((rule.number, rule.title) for rule in repealed_rules),
    )


def _without_rules(text: str, *, ruleset_rules: list[Rule], anchors: set[str]) -> str:
    """``text`` without the lines of the rules whose anchors are given (their headings and bodies).

    Rule headings are matched to parsed rules in document order, the order ``parse_ruleset`` numbers them
    in; a rule heading before the first section heading is preamble text and is not counted.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rules = iter(ruleset_rules)
    kept_lines: list[str] = []
    in_section = dropping = False
    for line in lines:
        level = heading_level(line)
        if level == 2:
            in_section, dropping = True, False
        elif level > 2 and in_section:
            dropping = next(rules).anchor in anchors
        if not dropping:
            kept_lines.append(line)
    return "\n".join(kept_lines)
