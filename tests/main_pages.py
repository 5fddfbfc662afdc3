"""The site's main pages over the demo game, as a visitor, a player and an admin see them: what the
accessibility, HTML validity and search-engine checks walk.

Paths are read from the demo's own rows, so a page added to the demo is one line here.
"""

from __future__ import annotations

from dataclasses import dataclass

from blognomic.moving.demo import ADMINS, DEMO_PASSWORD

VISITOR, PLAYER, ADMIN = "visitor", "player", "admin"
ROLES = (VISITOR, PLAYER, ADMIN)
# The demo account each role logs in as; a visitor does not log in.
ACCOUNTS = {VISITOR: None, PLAYER: "Cato", ADMIN: ADMINS[0]}
PASSWORD = DEMO_PASSWORD

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}


@dataclass(frozen=True)
class MainPage:
    name: str
    path: str
    roles: tuple[str, ...] = ROLES
    status: int = 200


def main_pages() -> list[MainPage]:
    """Every main page of the demo game (build it first), with the roles that may open it."""
    from gndt.models import Update
    from ruleset.models import Page
    from ruleset.structure import parse_ruleset
    from votes.models import Kind, Post, Status

    def post(kind: str) -> str:
        return Post.objects.filter(kind=kind).order_by("pk").first().get_absolute_url()

    proposal = Post.objects.filter(kind=Kind.PROPOSAL, status=Status.PENDING).order_by("pk").first()
    first_post = Post.objects.order_by("posted_at").first().posted_at
    ruleset = Page.objects.get(slug="ruleset")
    rule = next(parse_ruleset(ruleset.current.text).all_rules()).anchor
    update = Update.objects.order_by("pk").first()
    signed_in = (PLAYER, ADMIN)
    return [
        MainPage("front page", "/"),
        MainPage("proposal", proposal.get_absolute_url()),
        MainPage("call for judgement", post(Kind.CFJ)),
        MainPage("story post", post(Kind.STORY)),
        MainPage("category", "/category/proposals/"),
        MainPage("month archive", f"/{first_post:%Y/%m}/"),
        MainPage("players", "/players/"),
        MainPage("player", "/players/Cato/"),
        MainPage("statistics", "/stats/"),
        MainPage("search", "/search/?q=lamp"),
        MainPage("wiki index", "/wiki/"),
        MainPage("ruleset", "/wiki/ruleset/"),
        MainPage("ruleset history", "/wiki/ruleset/history/"),
        MainPage("ruleset revision", "/wiki/ruleset/r/1/"),
        MainPage("ruleset diff", f"/wiki/ruleset/diff/1/{ruleset.current.number}/"),
        MainPage("ruleset as of", "/wiki/ruleset/as-of/"),
        MainPage("rule history", f"/wiki/ruleset/rule/{rule}/history/"),
        MainPage("gndt", "/gndt/"),
        MainPage("gndt log", "/gndt/log/"),
        MainPage("gndt update", f"/gndt/updates/{update.pk}/"),
        MainPage("dynasties", "/dynasties/"),
        MainPage("dynasty", "/dynasties/1/"),
        MainPage("core rules", "/core-rules/"),
        MainPage("seals", "/seals/"),
        MainPage("game at a moment", "/at/"),
        MainPage("join", "/join/", (VISITOR,)),
        MainPage("log in", "/accounts/login/", (VISITOR,)),
        MainPage("not found", "/no-such-page/", status=404),
        MainPage("new post", "/new/", signed_in),
        MainPage("messages", "/messages/", signed_in),
        MainPage("new message", "/messages/new/", signed_in),
        MainPage("notices", "/notices/", signed_in),
        MainPage("notice preferences", "/notices/preferences/", signed_in),
        MainPage("private decks", "/gndt/decks/", signed_in),
        MainPage("new seal", "/seals/new/", signed_in),
        MainPage("password", "/accounts/password/", signed_in),
        MainPage("wiki edit", "/wiki/sightings/edit/", (ADMIN,)),
        MainPage("wiki edit refused", "/wiki/sightings/edit/", (PLAYER,), status=403),
        MainPage("new wiki page", "/wiki/new/", signed_in),
        MainPage("admin panel", "/admin-panel/", (ADMIN,)),
        MainPage("roster", "/roster/", (ADMIN,)),
        MainPage("gndt manage", "/gndt/manage/", (ADMIN,)),
        MainPage("webhooks", "/notices/webhooks/", (ADMIN,)),
    ]


def pages_for(role: str) -> list[MainPage]:
    return [page for page in main_pages() if role in page.roles]
