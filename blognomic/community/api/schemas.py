"""The shapes the API answers with and the shapes its writes take (they become the OpenAPI schema at
/api/openapi.json)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import AfterValidator, Field

NUL_IN_TEXT = "holds a NUL character (\\u0000), which no field of this site accepts"


def _without_nul(text: str) -> str:
    # The site refuses NUL in forms before any view runs; a JSON body escapes it, so it is refused here.
    if "\x00" in text:
        raise ValueError(NUL_IN_TEXT)
    return text


# Text a write takes: any string but one holding NUL, which PostgreSQL cannot store or even compare.
Text = Annotated[str, AfterValidator(_without_nul)]
# A row's or a column's name as a write names it: only looked up, never stored, so bounded but not judged.
CellName = Annotated[Text, Field(max_length=200)]


class Endpoint(Schema):
    path: str
    summary: str


class Index(Schema):
    openapi: str  # the address of the OpenAPI schema
    endpoints: list[Endpoint]


class Page(Schema):
    page: int
    pages: int
    count: int


class PostSummary(Schema):
    id: str
    kind: str
    title: str
    author: str | None  # None for an anonymous Call for Judgement
    posted_at: datetime
    status: str | None
    outcome: str | None
    url: str
    comments: int
    tally: dict[str, Any] | None  # pending matters only: for, against, quorum, can_enact, can_fail


class PostList(Page):
    results: list[PostSummary]


class CommentOut(Schema):
    author: str
    at: datetime
    icon: str | None
    text: str


class PostDetail(PostSummary):
    body: str
    flavour: str
    comments_list: list[CommentOut]
    full_tally: dict[str, Any] | None  # the same object as `manage.py tally POST_ID --json`


class PlayerOut(Schema):
    name: str
    admin: bool
    idle: bool
    emperor: bool
    joined_at: datetime | None
    url: str


class Roster(Schema):
    quorum: int
    active: int
    emperor: str | None
    players: list[PlayerOut]


class GndtColumnOut(Schema):
    name: str
    kind: str
    default: str


class GndtRowOut(Schema):
    name: str
    player: str | None
    idle: bool
    values: dict[str, str]


class GndtTable(Schema):
    dynasty: int
    columns: list[GndtColumnOut]
    rows: list[GndtRowOut]


class GndtChangeOut(Schema):
    row: str
    column: str
    old: str
    new: str


class GndtUpdateOut(Schema):
    id: int
    at: datetime
    by: str | None
    comment: str
    changes: list[GndtChangeOut]


class GndtLog(Page):
    results: list[GndtUpdateOut]


class RevisionOut(Schema):
    number: int
    at: datetime
    author: str | None
    summary: str
    post: str | None
    url: str


class RevisionList(Page):
    results: list[RevisionOut]


class RuleOut(Schema):
    number: str
    title: str
    anchor: str
    text: str
    url: str


class Rules(Schema):
    revision: int | None
    rules: list[RuleOut]


class TokenOut(Schema):
    name: str
    scopes: list[str]
    expires_at: datetime


class Me(Schema):
    name: str
    player: bool
    admin: bool
    token: TokenOut | None  # None when a signed-in browser asks


class NoticeOut(Schema):
    text: str
    url: str | None
    at: datetime
    read: bool


class NoticeList(Page):
    results: list[NoticeOut]


class Problem(Schema):
    detail: str


# --- The GNDT's writes -----------------------------------------------------------------------------------


class CellChangeIn(Schema):
    row: CellName
    column: CellName
    value: Text = Field(max_length=100_000)  # the cell's new value; the column's kind says what it may hold
    seen: Text = Field(max_length=100_000)  # the value the writer last read there: a conflict is found by it


class CellSeenIn(Schema):
    row: CellName
    column: CellName
    seen: Text = Field(max_length=100_000)


class GndtWriteIn(Schema):
    changes: list[CellChangeIn] = Field(default=[], max_length=1000)
    # Other cells the change was worked out from (a price, a location): refused too if any of them moved.
    based_on: list[CellSeenIn] = Field(default=[], max_length=1000)
    comment: Text = Field(default="", max_length=100_000)  # dice (DICE6) and list draws in it are rolled


class GndtWritten(Schema):
    id: int
    at: datetime
    by: str
    comment: str
    action: str | None  # the declared action it took, if any
    rolls: list[str]  # each die, list draw or card the comment rolled, as the log shows it
    changes: list[GndtChangeOut]
    rows: list[GndtRowOut]  # the rows it changed, as the writer may see them now
    url: str


class GndtActionOut(Schema):
    name: str
    frequency: str  # daily, weekly, daily_communal, weekly_communal or unlimited
    weekly_cap: int | None
    phase: str
    description: str


class GndtActions(Schema):
    dynasty: int
    actions: list[GndtActionOut]


# --- Resolving -------------------------------------------------------------------------------------------


class ResolveIn(Schema):
    action: Literal["enact", "fail"]
    # False enacts a matter without applying its amendment, when it no longer applies cleanly.
    apply_amendment: bool = True
    # The optional effects of resolving chosen (their ids, as the admin panel offers them).
    effects: list[Annotated[Text, Field(max_length=40)]] = Field(default=[], max_length=50)


class ResolutionOut(Schema):
    post: str
    title: str
    status: str  # enacted or failed
    outcome: str  # enacted, failed, vetoed or self-killed
    by: str
    at: datetime
    note: str  # the admin field as written at resolution
    tally: dict[str, Any]  # for, against, quorum, self_killed, vetoed
    url: str
