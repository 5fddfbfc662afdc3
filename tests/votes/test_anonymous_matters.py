"""An anonymous Call for Judgement in the tally: nothing counted may point at its author.

Ruleset 50: a Villager "may post anonymously by choosing "Call for Judgment" from the Author drop-down menu".
The 2016 profile counts an author who has not voted as FOR on every votable matter; with anonymous CfJs
allowed there (a core-rule change), that implicit vote would list the author among the FOR voters, and leave
them out of "not voted yet", for everyone to read. The secrets canary found it on the post page, the tally
box, the API and the admin panel.
"""

from __future__ import annotations

from dataclasses import replace

from dynasties.profiles import get_profile

from .builders import AUTHOR, matter, tallied, vote

P2016 = replace(get_profile("2016"), cfj_anonymous=True)


def test_an_anonymous_cfj_gives_its_silent_author_no_vote() -> None:
    """The author of an anonymous CfJ who has not voted is not counted FOR: counting them would name them."""
    counted = tallied(replace(matter(vote("Ben", 1, "for"), kind="cfj"), anonymous=True), P2016, 2)
    assert counted.votes == {"Ben": "for"}


def test_the_author_of_an_anonymous_cfj_votes_like_anyone_else() -> None:
    """Their own vote, cast openly in a comment, counts as any player's; it is what they chose to show."""
    counted = tallied(replace(matter(vote(AUTHOR, 1, "against"), kind="cfj"), anonymous=True), P2016, 2)
    assert counted.votes == {AUTHOR: "against"}


def test_a_signed_cfj_keeps_the_implicit_author_for() -> None:
    """2016 'if the author of a Votable Matter has not used a valid voting icon ... the author's Vote is FOR'
    still holds for every matter posted under a name."""
    assert tallied(matter(kind="cfj"), P2016, 2).votes == {AUTHOR: "for"}
