"""Amendments to the Ruleset and other wiki pages as data: typed operations, applied to markup, pure.

An operation is a small dict (JSON in the database) with an ``op`` key:

- ``rule_add``: ``title``, ``body`` and a position;
- ``rule_replace``: ``rule`` and its new ``body`` (the title stays);
- ``rule_replace_passage``: ``rule``, ``old`` and ``new``; ``old`` must occur exactly once in the rule;
- ``rule_rename``: ``rule`` and its new ``title``;
- ``rule_repeal``: ``rule`` (its subrules go with it);
- ``rule_move``: ``rule`` and a position;
- ``page_replace``: ``page`` (a slug) and its new ``text``;
- ``page_replace_passage``: ``page``, ``old`` and ``new``; ``old`` must occur exactly once in the page.

A rule is named by its anchor (``rule-storm-warnings``), not its number, so renumbering never changes
which rule an operation means; the site follows renames and keyword replacements from the revision the
amendment was written against (``pair_renamed_rules``). A position is either ``{"after": anchor}`` (the
next sibling of that rule, at its level) or ``{"into": container, "at": "start" | "end"}`` where the
container is a section's anchor (``section-dynastic-rules``) for a rule, or a rule's anchor for a
subrule. Within one amendment, a rule added earlier may be named by the anchor its title gives.

``apply_rule_operations`` applies a list to the Ruleset's markup and says, for each operation, what it
did in plain words with the numbers of the result ("Adds 2.5 Storm Warnings after 2.4"). Any operation
that no longer fits the text raises ``OperationRefused`` naming it and the reason, and nothing is applied.
``derive_rule_operations`` goes the other way: from the Ruleset before and after an edit in the editor
to the operations that make the change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from ruleset.layout import carry_over
from ruleset.structure import (
    MAX_DEPTH,
    Rule,
    Ruleset,
    heading_level,
    is_heading_line,
    normalize_block,
    parse_ruleset,
    slugify,
)
from votes.amendment_errors import AmendError, OperationRefused

# One operation as the amendment stores it (JSON): its values are checked as it is applied.
Operation = dict[str, Any]

RULE_OPS = ("rule_add", "rule_replace", "rule_replace_passage", "rule_rename", "rule_repeal", "rule_move")
PAGE_OPS = ("page_replace", "page_replace_passage")

NO_SUCH_RULE = "there is no rule {rule} in the Ruleset"
NO_SUCH_CONTAINER = "there is no section or rule {container} to put it in"
PASSAGE_MISSING = "the passage to replace no longer occurs"
PASSAGE_NOT_FOUND = "the passage to replace does not occur"
PASSAGE_REPEATED = "the passage to replace occurs {count} times; it must occur exactly once"
PASSAGE_EMPTY = "the passage to replace is empty"
TOO_DEEP = "a rule may be nested at most {depth} levels deep"
MOVE_INTO_ITSELF = "a rule cannot be moved into itself or its own subrules"
EMPTY_TITLE = "a rule needs a title"
BAD_TITLE = "a rule's title must be one line without “=” at its ends"
TITLE_UNCHANGED = "the rule is already called “{title}”"
TEXT_UNCHANGED = "the new text is the same as the old"
BAD_POSITION = "say where the rule goes: after a rule, or at the start or end of a section or rule"
NOT_EXPRESSIBLE = (
    "only rules can be changed from the Ruleset editor; a change to a section heading, a section's "
    "introduction or the text above the first section cannot be made by an amendment"
)
HEADING_IN_BODY = "a rule's text may not contain a heading line (“== … ==”)"
TOO_MANY_OPERATIONS = "it needs more than {limit} operations, the most an amendment may have"
KEPT_INSIDE_REPEALED = (
    "“{title}” stays while “{parent}”, the rule it belongs to, goes, and a rule's subrules go with it; "
    "make it a rule of its own in one amendment and remove “{parent}” in another"
)


# --- a mutable Ruleset tree, keyed by the anchors of the revision it came from ---------------------


@dataclass
class Node:
    key: str
    title: str
    body: str
    children: list[Node] = field(default_factory=list)


@dataclass
class SectionNode:
    key: str
    title: str
    intro: str
    rules: list[Node] = field(default_factory=list)


@dataclass
class Tree:
    preamble: str
    sections: list[SectionNode]
    # Where each rule stands, built on the first look-up after a change: finding a rule costs one pass over
    # the tree per change to its shape, not one per look-up.
    _index: dict[str, tuple[Node, list[Node], int, str, str, int]] | None = field(default=None, repr=False)

    def walk(self) -> Iterator[tuple[Node, list[Node], int, str]]:
        """Every rule as (node, the list it sits in, its depth from 1, its number), in document order."""
        for section_number, section in enumerate(self.sections, start=1):
            yield from _walk(section.rules, 1, str(section_number))

    def changed(self) -> None:
        """Say that a rule was added, removed or moved, so the index is built again when next needed."""
        self._index = None

    def _places(self) -> dict[str, tuple[Node, list[Node], int, str, str, int]]:
        if self._index is None:
            index: dict[str, tuple[Node, list[Node], int, str, str, int]] = {}

            def visit(container: str, nodes: list[Node], depth: int, prefix: str) -> None:
                for position, node in enumerate(nodes):
                    number = f"{prefix}.{position + 1}"
                    index.setdefault(node.key, (node, nodes, depth, number, container, position))
                    visit(node.key, node.children, depth + 1, number)

            for section_number, section in enumerate(self.sections, start=1):
                visit(section.key, section.rules, 1, str(section_number))
            self._index = index
        return self._index

    def locate(self, key: str) -> tuple[Node, list[Node], int, str] | None:
        found = self._places().get(key)
        return found[:4] if found else None

    def position(self, key: str) -> tuple[str, str | None] | None:
        """Where a rule stands: (its container's key, the key of the sibling before it or None)."""
        found = self._places().get(key)
        if found is None:
            return None
        _, siblings, _, _, container, index = found
        return container, siblings[index - 1].key if index else None

    def section(self, key: str) -> SectionNode | None:
        return next((section for section in self.sections if section.key == key), None)

    def keys(self) -> set[str]:
        return set(self._places())


def _walk(nodes: list[Node], depth: int, prefix: str) -> Iterator[tuple[Node, list[Node], int, str]]:
    for position, node in enumerate(nodes, start=1):
        number = f"{prefix}.{position}"
        yield node, nodes, depth, number
        yield from _walk(node.children, depth + 1, number)


def tree_from_ruleset(ruleset: Ruleset) -> Tree:
    def node(rule: Rule) -> Node:
        return Node(key=rule.anchor, title=rule.title, body=rule.body, children=[node(c) for c in rule.children])

    return Tree(
        preamble=ruleset.preamble,
        sections=[
            SectionNode(
                key=section.anchor,
                title=section.title,
                intro=section.intro,
                rules=[node(rule) for rule in section.rules],
            )
            for section in ruleset.sections
        ],
    )


def tree_to_text(tree: Tree) -> str:
    """The canonical markup of ``tree`` (what ``serialize_ruleset`` writes)."""
    blocks: list[str] = [tree.preamble] if tree.preamble else []

    def rule_blocks(node: Node, level: int) -> Iterator[str]:
        marks = "=" * level
        heading = f"{marks} {node.title} {marks}"
        yield f"{heading}\n{node.body}" if node.body else heading
        for child in node.children:
            yield from rule_blocks(child, level + 1)

    for section in tree.sections:
        heading = f"== {section.title} =="
        blocks.append(f"{heading}\n{section.intro}" if section.intro else heading)
        for rule in section.rules:
            blocks.extend(rule_blocks(rule, 3))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _depth_below(node: Node) -> int:
    return 1 + max((_depth_below(child) for child in node.children), default=0)


def _keys_within(node: Node) -> set[str]:
    keys = {node.key}
    for child in node.children:
        keys |= _keys_within(child)
    return keys


# --- applying ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """Markup after an amendment, and what each operation did, in plain words, in order."""

    text: str
    descriptions: tuple[str, ...]


def _label(number: str, title: str) -> str:
    return f"{number} {title}"


def _rule(tree: Tree, key: str) -> tuple[Node, list[Node], int, str]:
    found = tree.locate(key)
    if found is None:
        raise AmendError(NO_SUCH_RULE.format(rule=key))
    return found


def _position(tree: Tree, key: str) -> tuple[str, str | None]:
    found = tree.position(key)
    if found is None:
        raise AmendError(NO_SUCH_RULE.format(rule=key))
    return found


def _check_title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise AmendError(EMPTY_TITLE)
    if title.startswith("=") or title.endswith("="):
        raise AmendError(BAD_TITLE)
    return title


def _check_body(body: str) -> str:
    lines = (body or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if any(is_heading_line(line) for line in lines):
        raise AmendError(HEADING_IN_BODY)
    return normalize_block(lines)


def _new_key(tree: Tree, title: str) -> str:
    base = f"rule-{slugify(title) or 'untitled'}"
    taken = tree._places()
    key, suffix = base, 2
    while key in taken:
        key, suffix = f"{base}-{suffix}", suffix + 1
    return key


def _place(tree: Tree, node: Node, op: Operation) -> tuple[list[Node], int, int, str]:
    """Insert ``node`` where ``op`` says; returns (siblings, index, depth, words for where it went)."""
    if op.get("after"):
        _, siblings, depth, number = _rule(tree, op["after"])
        index = tree._places()[op["after"]][5] + 1
        siblings.insert(index, node)
        tree.changed()
        return siblings, index, depth, f"after {number}"
    container, at = op.get("into"), op.get("at", "end")
    if not container or at not in ("start", "end"):
        raise AmendError(BAD_POSITION)
    section = tree.section(container)
    if section is not None:
        siblings, depth = section.rules, 1
        where = f"section {tree.sections.index(section) + 1} {section.title}"
    else:
        found = tree.locate(container)
        if found is None:
            raise AmendError(NO_SUCH_CONTAINER.format(container=container))
        parent, _, parent_depth, number = found
        siblings, depth, where = parent.children, parent_depth + 1, number
    if depth + _depth_below(node) - 1 > MAX_DEPTH:
        raise AmendError(TOO_DEEP.format(depth=MAX_DEPTH))
    index = 0 if at == "start" else len(siblings)
    siblings.insert(index, node)
    tree.changed()
    return siblings, index, depth, f"at the {at} of {where}"


def count_occurrences(text: str, passage: str) -> int:
    """How many times ``passage`` occurs in ``text``, overlapping occurrences included."""
    count, start = 0, text.find(passage)
    while start != -1:
        count += 1
        start = text.find(passage, start + 1)
    return count


def replace_passage(text: str, old: str, new: str, *, missing: str = PASSAGE_NOT_FOUND) -> str:
    """``text`` with the one occurrence of ``old`` replaced by ``new``; AmendError unless exactly one."""
    if not old:
        raise AmendError(PASSAGE_EMPTY)
    count = count_occurrences(text, old)
    if count == 0:
        raise AmendError(missing)
    if count > 1:
        raise AmendError(PASSAGE_REPEATED.format(count=count))
    return text.replace(old, new, 1)


def _apply_one(tree: Tree, op: Operation, *, missing: str) -> str:
    kind = op.get("op")
    if kind == "rule_add":
        title, body = _check_title(op.get("title", "")), _check_body(op.get("body", ""))
        node = Node(key=_new_key(tree, title), title=title, body=body)
        _, _, depth, where = _place(tree, node, op)
        if depth > MAX_DEPTH:
            raise AmendError(TOO_DEEP.format(depth=MAX_DEPTH))
        return _with_number(tree, node.key, lambda number: f"Adds {_label(number, title)} {where}")
    node, siblings, _, number = _rule(tree, op.get("rule", ""))
    label = _label(number, node.title)
    if kind == "rule_replace":
        body = _check_body(op.get("body", ""))
        if body == node.body:
            raise AmendError(TEXT_UNCHANGED)
        node.body = body
        return f"Replaces the text of {label}"
    if kind == "rule_replace_passage":
        node.body = _check_body(replace_passage(node.body, op.get("old", ""), op.get("new", ""), missing=missing))
        old, new = quote_change(op.get("old", ""), op.get("new", ""))
        return f"In {label}, replaces “{old}” with “{new}”"
    if kind == "rule_rename":
        title = _check_title(op.get("title", ""))
        if title == node.title:
            raise AmendError(TITLE_UNCHANGED.format(title=title))
        node.title = title
        return f"Renames {label} to “{title}”"
    if kind == "rule_repeal":
        _remove(siblings, node)
        tree.changed()
        return f"Repeals {label}"
    if kind == "rule_move":
        target = op.get("after") or op.get("into")
        if target in _keys_within(node):
            raise AmendError(MOVE_INTO_ITSELF)
        _remove(siblings, node)
        tree.changed()
        _, _, depth, where = _place(tree, node, op)
        if depth + _depth_below(node) - 1 > MAX_DEPTH:
            raise AmendError(TOO_DEEP.format(depth=MAX_DEPTH))
        return _with_number(tree, node.key, lambda new_number: f"Moves {label} {where} (now {new_number})")
    raise AmendError(f"“{kind}” is not a Ruleset operation")


def _remove(siblings: list[Node], node: Node) -> None:
    # By identity: ``list.remove`` would compare whole subtrees field by field on the way.
    del siblings[next(i for i, sibling in enumerate(siblings) if sibling is node)]


def _with_number(tree: Tree, key: str, words: Callable[[str], str]) -> str:
    """Words about a rule with its number in ``tree`` as it stands now."""
    found = tree.locate(key)
    return words(found[3] if found else "?")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


QUOTE_CONTEXT = 20
"""Characters of unchanged text kept on each side of what a replaced passage changes, to say where it is."""


def quote_change(old: str, new: str, *, limit: int = 60) -> tuple[str, str]:
    """The part of a passage a replacement changes, in each version, with a few words around it: two long
    passages that differ only at their end are quoted by their ends, never cut to the same opening words."""
    old, new = " ".join(old.split()), " ".join(new.split())
    if len(old) <= limit and len(new) <= limit:
        return old, new
    prefix = len(_common_prefix(old, new))
    suffix = len(_common_prefix(old[prefix:][::-1], new[prefix:][::-1]))
    start = _word_start(old, max(0, prefix - QUOTE_CONTEXT))
    return (_quoted(old, start, len(old) - suffix, limit), _quoted(new, start, len(new) - suffix, limit))


def _common_prefix(a: str, b: str) -> str:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return a[:length]


def _word_start(text: str, at: int) -> int:
    """``at``, moved on to the start of the next word unless it already starts one."""
    if at == 0 or text[at - 1] == " ":
        return at
    space = text.find(" ", at)
    return space + 1 if space != -1 else at


def _quoted(text: str, start: int, end: int, limit: int) -> str:
    """``text`` from ``start`` to a little past ``end`` (the next word's end), at most ``limit`` characters,
    with "…" where it is cut."""
    space = text.find(" ", min(len(text), end + QUOTE_CONTEXT // 2))
    stop = len(text) if space == -1 else space
    piece = text[start:stop]
    if len(piece) > limit:
        piece, stop = piece[: limit - 1].rstrip(), start + limit - 1
    return ("…" if start else "") + piece + ("…" if stop < len(text) else "")


def apply_rule_operations(text: str, operations: Sequence[Operation], *, stale: bool = False) -> Applied:
    """Apply the Ruleset operations of an amendment to ``text`` (other operations are skipped).

    Raises ``OperationRefused`` with the index of the first operation that does not apply. ``stale`` words a
    missing passage as one that "no longer occurs" (the text changed since the amendment was written).
    """
    tree = tree_from_ruleset(parse_ruleset(text))
    before = tree_to_text(tree)
    descriptions = []
    for index, op in enumerate(operations):
        if op.get("op") not in RULE_OPS:
            continue
        try:
            descriptions.append(_apply_one(tree, op, missing=PASSAGE_MISSING if stale else PASSAGE_NOT_FOUND))
        except AmendError as error:
            raise OperationRefused(error.reason, index=index) from None
    # The rules the amendment left alone keep the layout they were written in.
    text = carry_over(text, before, tree_to_text(tree), canonical=_canonical)
    return Applied(text=text, descriptions=tuple(descriptions))


def _canonical(text: str) -> str:
    return tree_to_text(tree_from_ruleset(parse_ruleset(text)))


def apply_page_operations(text: str, operations: Sequence[Operation], *, stale: bool = False) -> str:
    """Apply ``page_replace`` and ``page_replace_passage`` operations, all meant for one page, to ``text``.

    Raises ``OperationRefused`` with the index (in ``operations``) of the first one that does not apply."""
    for index, op in enumerate(operations):
        try:
            if op.get("op") == "page_replace":
                if op.get("text", "") == text:
                    raise AmendError(TEXT_UNCHANGED)
                text = op.get("text", "")
            elif op.get("op") == "page_replace_passage":
                text = replace_passage(
                    text, op.get("old", ""), op.get("new", ""), missing=PASSAGE_MISSING if stale else PASSAGE_NOT_FOUND
                )
        except AmendError as error:
            raise OperationRefused(error.reason, index=index) from None
    return text


def describe_page_operation(op: Operation, page_title: str) -> str:
    if op.get("op") == "page_replace":
        return f"Replaces the text of the page “{page_title}”"
    old, new = quote_change(op.get("old", ""), op.get("new", ""))
    return f"On the page “{page_title}”, replaces “{old}” with “{new}”"


def rules_named(op: Operation) -> tuple[str, ...]:
    """The existing rules an operation depends on: its target and the rule or container it is placed by."""
    names = [op.get("rule"), op.get("after"), op.get("into")]
    return tuple(name for name in names if name and not name.startswith("section-"))


# --- identity across revisions -----------------------------------------------------------------------

RENAME_SIMILARITY = 0.6
"""How alike two rules' text must be for a rule that vanished and one that appeared to be the same rule."""

SIMILARITY_CHARACTERS = 1_000
"""Longest pair of texts (both together) compared character by character. Such a comparison costs about the
product of the two lengths, so longer texts are compared line by line, which costs about their sum."""

SIMILARITY_BUDGET = 50_000
"""Characters compared character by character in one pairing, all pairs together; the rest go line by line.
An edit that renames every rule of a large Ruleset then costs a bounded time, not minutes."""


def _similarity(a: str, b: str, *, by_characters: bool = True) -> float:
    """How alike two texts are, from 0 to 1: the share of their characters in runs they have in common."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    if by_characters:
        matcher = SequenceMatcher(None, a, b, autojunk=False)
        if matcher.real_quick_ratio() < RENAME_SIMILARITY or matcher.quick_ratio() < RENAME_SIMILARITY:
            return 0.0  # an upper bound already below the threshold, found in linear time
        return matcher.ratio()
    a_lines, b_lines = a.split("\n"), b.split("\n")
    matcher = SequenceMatcher(None, a_lines, b_lines)
    shared = sum(len(line) + 1 for i, _, size in matcher.get_matching_blocks() for line in a_lines[i : i + size])
    return min(1.0, 2 * shared / (len(a) + len(b) + 2))


def pair_renamed_rules(old: Ruleset, new: Ruleset) -> dict[str, str]:
    """Rules that changed anchor between two revisions but are the same rule: new anchor → old anchor.

    An anchor follows a rule's title, so a rename, or an Ascension's keyword replacement ("Player
    Actions" → "Keeper Actions"), makes a rule vanish under one anchor and appear under another. Such a
    pair is the same rule when the two stand at the same number and their text is at least 60% alike, or
    stand anywhere with the same body. Each rule pairs at most once, best match first; among equal matches
    the earlier rules pair first.

    Linear in the number of rules: a rule is only ever compared with those of the same body or number.
    """
    old_rules = {rule.anchor: rule for rule in old.all_rules()}
    new_rules = {rule.anchor: rule for rule in new.all_rules()}
    gone = [rule for anchor, rule in old_rules.items() if anchor not in new_rules]
    came = [rule for anchor, rule in new_rules.items() if anchor not in old_rules]
    if not gone or not came:
        return {}
    came_by_body: dict[str, list[Rule]] = {}
    came_by_number = {rule.number: rule for rule in came}
    for rule in came:
        if rule.body:
            came_by_body.setdefault(rule.body, []).append(rule)
    pairs: dict[str, str] = {}
    used_old: set[str] = set()
    # The same body anywhere is the best match: the n-th vanished rule with a body takes the n-th new one.
    taken_of_body: dict[str, int] = {}
    for before in gone:
        same_body = came_by_body.get(before.body, []) if before.body else []
        position = taken_of_body.get(before.body, 0)
        if position < len(same_body):
            pairs[same_body[position].anchor] = before.anchor
            used_old.add(before.anchor)
            taken_of_body[before.body] = position + 1
    candidates = []
    budget = SIMILARITY_BUDGET
    for before in gone:
        after = came_by_number.get(before.number)
        if after is None or before.anchor in used_old or after.anchor in pairs:
            continue
        size = len(before.own_text) + len(after.own_text)
        by_characters = size <= SIMILARITY_CHARACTERS and size <= budget
        budget -= size if by_characters else 0
        score = _similarity(before.own_text, after.own_text, by_characters=by_characters)
        if score >= RENAME_SIMILARITY:
            candidates.append((score, before.anchor, after.anchor))
    for _, before_anchor, after_anchor in sorted(candidates, key=lambda c: -c[0]):
        if before_anchor in used_old or after_anchor in pairs:
            continue
        pairs[after_anchor] = before_anchor
        used_old.add(before_anchor)
    return pairs


def follow_renames(anchor: str, renames: Sequence[tuple[str, str]]) -> str:
    """The anchor a rule has now, given the (old, new) renames recorded since, oldest first."""
    for before, after in renames:
        if before == anchor:
            anchor = after
    return anchor


# --- deriving operations from an edit ------------------------------------------------------------------


def _changed_passage(old: str, new: str) -> tuple[str, str] | None:
    """The smallest run of whole lines whose replacement turns ``old`` into ``new``, unique in ``old``."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < min(len(old_lines), len(new_lines)) - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    start, old_end, new_end = head, len(old_lines) - tail, len(new_lines) - tail
    # A pure insertion has no old text to find: widen by a line so there is a passage to replace.
    while start == old_end and (start > 0 or old_end < len(old_lines)):
        if start > 0:
            start -= 1
        else:
            old_end, new_end = old_end + 1, new_end + 1
    passage = "\n".join(old_lines[start:old_end])
    replacement = "\n".join(new_lines[start:new_end])
    if not passage.strip() or count_occurrences(old, passage) != 1:
        return None
    return passage, replacement


def _position_op(container: str, before: str | None) -> Operation:
    return {"after": before} if before else {"into": container, "at": "start"}


class TooManyOperations(AmendError):
    """The edit needs more operations than the amendment may have; found before they are all worked out."""


def _count(operations: list[Operation], limit: int | None) -> None:
    if limit is not None and len(operations) > limit:
        raise TooManyOperations(TOO_MANY_OPERATIONS.format(limit=limit))


def _dropped_outermost(rules: Sequence[Rule], kept: Mapping[str, Rule]) -> Iterator[Rule]:
    """The rules not kept whose parent is kept (or who have none), in document order: repealing them takes
    their subrules with them."""
    for rule in rules:
        if rule.anchor not in kept:
            yield rule
        else:
            yield from _dropped_outermost(rule.children, kept)


def _rule_headings(text: str) -> int:
    """How many rules ``parse_ruleset`` finds in ``text``: rule headings after the first section heading."""
    count, in_section = 0, False
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.startswith("=="):
            level = heading_level(line)
            in_section = in_section or level == 2
            count += in_section and level > 2
    return count


def derive_rule_operations(old_text: str, new_text: str, *, limit: int | None = None) -> list[Operation]:
    """The operations that turn the Ruleset ``old_text`` into ``new_text`` (both compared canonically).

    Rules keep their identity by anchor, or through ``pair_renamed_rules`` when their title changed. A
    changed rule becomes a passage replacement when one run of lines changed and occurs once in it, a
    whole-text replacement otherwise. Raises ``AmendError`` when the edit changes something other than
    rules (sections, their introductions, the preamble).

    With a ``limit``, ``TooManyOperations`` is raised as soon as the edit is known to need more operations
    than that: the rules that are new under their anchor are counted before any rule is compared, and the
    work stops at the first operation over. Each rule is looked at a fixed number of times, and each
    operation costs one pass over the rules, so an edit is worked out in time linear in the rules.
    """
    # Each rule more than there were is a rule added: counted from the headings, before anything is parsed.
    if limit is not None and _rule_headings(new_text) - _rule_headings(old_text) > limit:
        raise TooManyOperations(TOO_MANY_OPERATIONS.format(limit=limit))
    old_ruleset, new_ruleset = parse_ruleset(old_text), parse_ruleset(new_text)
    old_shape = [(s.title, s.intro) for s in old_ruleset.sections], old_ruleset.preamble
    new_shape = [(s.title, s.intro) for s in new_ruleset.sections], new_ruleset.preamble
    if old_shape != new_shape:
        raise AmendError(NOT_EXPRESSIBLE)
    old_rules = {rule.anchor: rule for rule in old_ruleset.all_rules()}
    new_rules = list(new_ruleset.all_rules())
    # A rule new under its anchor is either renamed or added: one operation each, whatever else changed.
    came = sum(1 for rule in new_rules if rule.anchor not in old_rules)
    if limit is not None and came > limit:
        raise TooManyOperations(TOO_MANY_OPERATIONS.format(limit=limit))
    renamed = pair_renamed_rules(old_ruleset, new_ruleset)
    identity = {rule.anchor: renamed.get(rule.anchor, rule.anchor) for rule in new_rules}
    # Old anchor → the rule it became; identities are one to one.
    kept = {identity[rule.anchor]: rule for rule in new_rules if identity[rule.anchor] in old_rules}
    operations: list[Operation] = []
    _rename_and_replace(old_rules, kept, operations, limit)
    _repeal_dropped(old_ruleset, kept, operations, limit)
    work, target = _add_and_move(old_ruleset, new_ruleset, identity, kept, operations, limit)
    if tree_to_text(work) != tree_to_text(target):
        raise AmendError(NOT_EXPRESSIBLE)
    return operations


def _rename_and_replace(
    old_rules: Mapping[str, Rule], kept: Mapping[str, Rule], operations: list[Operation], limit: int | None
) -> None:
    """Appends a rename for each kept rule whose title changed and a replacement for each whose body did."""
    for anchor, rule in old_rules.items():
        new_rule = kept.get(anchor)
        if new_rule is None:
            continue
        if new_rule.title != rule.title:
            operations.append({"op": "rule_rename", "rule": anchor, "title": new_rule.title})
        if new_rule.body != rule.body:
            passage = _changed_passage(rule.body, new_rule.body)
            if passage:
                operations.append({"op": "rule_replace_passage", "rule": anchor, "old": passage[0], "new": passage[1]})
            else:
                operations.append({"op": "rule_replace", "rule": anchor, "body": new_rule.body})
        _count(operations, limit)


def _repeal_dropped(
    old_ruleset: Ruleset, kept: Mapping[str, Rule], operations: list[Operation], limit: int | None
) -> None:
    """Appends a repeal of each outermost rule not kept: their subrules go with them."""
    for section in old_ruleset.sections:
        for rule in _dropped_outermost(section.rules, kept):
            survivor = next((d for d in rule.walk() if d.anchor in kept), None)
            if survivor is not None:
                raise AmendError(KEPT_INSIDE_REPEALED.format(title=survivor.title, parent=rule.title))
            operations.append({"op": "rule_repeal", "rule": rule.anchor})
            _count(operations, limit)


def _add_and_move(
    old_ruleset: Ruleset,
    new_ruleset: Ruleset,
    identity: dict[str, str],
    kept: Mapping[str, Rule],
    operations: list[Operation],
    limit: int | None,
) -> tuple[Tree, Tree]:
    """Appends the adds and moves, in the new document order, each placed after the sibling that precedes it
    there; returns the old Ruleset with every operation applied, and the new one, to compare."""
    work = tree_from_ruleset(old_ruleset)
    for op in operations:
        _apply_one(work, op, missing=PASSAGE_NOT_FOUND)
    target = tree_from_ruleset(new_ruleset)
    section_keys = {new.key: old.key for new, old in zip(target.sections, work.sections, strict=True)}
    for node, _, _, _ in target.walk():
        container, before = _position(target, node.key)
        container = section_keys.get(container, identity.get(container, container))
        before = identity.get(before, before) if before else None
        key = identity[node.key]
        if key not in kept:
            op = {"op": "rule_add", "title": node.title, "body": node.body, **_position_op(container, before)}
            operations.append(op)
            _count(operations, limit)
            _apply_one(work, op, missing=PASSAGE_NOT_FOUND)
            # The work tree names the new rule by its title's anchor; so does the target.
            identity[node.key] = _added_key(work, before, container)
            continue
        if work.position(key) != (container, before):
            op = {"op": "rule_move", "rule": key, **_position_op(container, before)}
            operations.append(op)
            _count(operations, limit)
            _apply_one(work, op, missing=PASSAGE_NOT_FOUND)
    return work, target


def _added_key(work: Tree, before: str | None, container: str) -> str:
    """The key the work tree gave a rule just added by title at a position."""
    if before:
        _, siblings, _, _ = _rule(work, before)
        return siblings[work._places()[before][5] + 1].key
    section = work.section(container)
    siblings = section.rules if section is not None else _rule(work, container)[0].children
    return siblings[0].key


def translate_operations(operations: Sequence[Operation], renames: Sequence[tuple[str, str]]) -> list[Operation]:
    """The operations with every rule they name followed through ``renames`` (old, new), oldest first."""
    if not renames:
        return [dict(op) for op in operations]
    translated = []
    for op in operations:
        op = dict(op)
        if op.get("op") in RULE_OPS:
            for key in ("rule", "after", "into"):
                if op.get(key) and not op[key].startswith("section-"):
                    op[key] = follow_renames(op[key], renames)
        translated.append(op)
    return translated
