"""The shapes the read-only API answers with (they become the OpenAPI schema at /api/openapi.json)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Schema


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
