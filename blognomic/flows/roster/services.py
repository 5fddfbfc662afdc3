"""Writes on the roster: applications, idling and unidling, leaving, renaming.

Each service validates, runs in one transaction, and raises ``RosterError`` with a message for the person
acting; nothing is written when it refuses.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Lower

from blognomic.community.accounts.addresses import (
    AddressError,
    address_owner,
    address_shape,
    address_taken_notify,
    email_change_request,
)
from dynasties import names, rules
from dynasties.models import Absence, Application, Dynasty, Game, PlayerNameValidator, Rename, RuleChange, User
from dynasties.profiles import parse_parameter
from gndt.models import Row
from gndt.roster import gndt_player_joined, gndt_player_renamed
from votes.models import AMENDABLE_KINDS, Comment, Post, Status


class RosterError(Exception):
    """A roster change was refused; the message says why."""


ALREADY_A_PLAYER = "{name} is already a player."
APPLICATION_PENDING = "An application from {name} is already waiting for an admin."
NAME_TAKEN = "The name {name} belongs to someone else; choose another."
TOO_MANY_APPLICATIONS = "Too many applications from your address today; try again tomorrow."
NOT_PENDING = "That application has already been {status}."
NOT_AN_ADMIN = "Only admins may do that."
ALREADY_IDLE = "{name} is already idle."
NOT_IDLE = "{name} is not idle."
NOT_A_PLAYER = "{name} is not a player."
RENAME_NEEDS_ENACTED_PROPOSAL = "A rename must cite an enacted Proposal that approved it."
LAST_ADMIN = "The game needs at least one admin; make someone else an admin first."
APPLICATIONS_PER_ADDRESS_PER_DAY = 3


def _profile():
    return Game.load().rules_profile()


def _open_absence(user: User) -> Absence | None:
    return user.absences.filter(ended_at__isnull=True).order_by("-started_at").first()


def last_activity(user: User) -> datetime | None:
    """The time of the player's latest post or comment."""
    moments = [
        Post.objects.filter(author=user).aggregate(m=Max("posted_at"))["m"],
        Comment.objects.filter(author=user).aggregate(m=Max("at"))["m"],
    ]
    moments = [m for m in moments if m]
    return max(moments) if moments else None


def _refuse_lookalike(name: str, *, accounts, applications=None) -> None:
    other = accounts.lookalike(name)
    if other is None and applications is not None:
        key = names.lookalike_key(name)
        other = next((n for n in applications.values_list("name", flat=True) if names.lookalike_key(n) == key), None)
    if other is not None:
        raise RosterError(names.LOOKALIKE.format(name=name, other=other))


def application_submit(
    *, name: str, password: str, message: str, ip_address: str | None, now: datetime, email: str = ""
) -> Application:
    name = names.normalise(name)
    try:
        PlayerNameValidator()(name)
    except ValidationError as error:
        raise RosterError(error.messages[0]) from None
    game = Game.load()
    with transaction.atomic():
        # Every application takes the game's row lock first, so two at once cannot both count the ones
        # stored before either committed (the per-address limit) or both find no pending one by that name.
        Game.objects.select_for_update().filter(pk=game.pk).first()
        existing = User.objects.filter(username__iexact=name).first()
        if existing is not None and existing.is_player and _open_absence_kind(existing) != Absence.LEFT:
            raise RosterError(ALREADY_A_PLAYER.format(name=existing.username))
        if existing is not None and not existing.is_player and existing.has_usable_password():
            raise RosterError(NAME_TAKEN.format(name=name))
        pending = Application.objects.filter(status=Application.PENDING)
        if pending.filter(name__iexact=name).exists():
            raise RosterError(APPLICATION_PENDING.format(name=name))
        # The same name in another case is the same account (a former player coming back), caught above.
        _refuse_lookalike(name, accounts=User.objects.exclude(username__iexact=name), applications=pending)
        if (
            ip_address
            and Application.objects.filter(ip_address=ip_address, submitted_at__gte=now - timedelta(days=1)).count()
            >= APPLICATIONS_PER_ADDRESS_PER_DAY
        ):
            raise RosterError(TOO_MANY_APPLICATIONS)
        if email:
            try:
                email = address_shape(email)
            except AddressError as error:
                raise RosterError(str(error)) from None
            # Answered as any address is; its owner alone is told, and approval will not give it to the applicant.
            owner = address_owner(email, besides=existing)
            if owner is not None:
                address_taken_notify(owner=owner, now=now)
        return Application.objects.create(
            name=name,
            password_hash=make_password(password),
            message=message,
            ip_address=ip_address,
            submitted_at=now,
            email=email,
        )


def _open_absence_kind(user: User) -> str | None:
    absence = _open_absence(user)
    return absence.kind if absence else None


def application_approve(*, application: Application, admin: User, now: datetime) -> User:
    """Make the applicant a player, with a GNDT row holding the dynasty's defaults."""
    if not admin.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    with transaction.atomic():
        application = Application.objects.select_for_update().get(pk=application.pk)
        if application.status != Application.PENDING:
            raise RosterError(NOT_PENDING.format(status=application.status))
        user = User.objects.select_for_update().filter(username__iexact=application.name).first()
        if user is not None and user.is_player:
            absence = _open_absence(user)
            if absence is None or absence.kind != Absence.LEFT:
                raise RosterError(ALREADY_A_PLAYER.format(name=user.username))
            verdict = rules.may_rejoin(name=user.username, profile=_profile(), left_at=absence.started_at, now=now)
            if not verdict.allowed:
                raise RosterError(verdict.message)
            absence.ended_at = now
            absence.save(update_fields=["ended_at"])
        elif user is None:
            user = User(username=application.name)
        user.password = application.password_hash
        if not user.is_player:
            user.joined_at = now
        user.save()
        application.status = Application.APPROVED
        application.decided_by, application.decided_at = admin, now
        application.save(update_fields=["status", "decided_by", "decided_at"])
        dynasty = Dynasty.objects.current()
        if dynasty is not None:
            gndt_player_joined(dynasty=dynasty, user=user, now=now)
        if application.email:
            _ask_to_confirm(user=user, address=application.email, now=now)
        return user


def _ask_to_confirm(*, user: User, address: str, now: datetime) -> None:
    """Mail the applicant the link that confirms their address. An address someone else confirmed since the
    application was sent is left out: the approval stands, and the player may give another on their account
    page."""
    if address_owner(address, besides=user) is not None:
        return
    try:
        email_change_request(user=user, address=address, now=now)
    except AddressError:
        return
    user.refresh_from_db(fields=["email_pending"])


def application_reject(*, application: Application, admin: User, now: datetime) -> Application:
    if not admin.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    with transaction.atomic():
        application = Application.objects.select_for_update().get(pk=application.pk)
        if application.status != Application.PENDING:
            raise RosterError(NOT_PENDING.format(status=application.status))
        application.status = Application.REJECTED
        application.decided_by, application.decided_at = admin, now
        application.save(update_fields=["status", "decided_by", "decided_at"])
        return application


def player_idle(*, user: User, by: User, now: datetime) -> Absence:
    """A player may idle themselves at any time; an admin may idle a player inactive for long enough."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.joined_at is None:  # not a player (``User.is_player``); a player's joining time is read below
            raise RosterError(NOT_A_PLAYER.format(name=user.username))
        if _open_absence(user) is not None:
            raise RosterError(ALREADY_IDLE.format(name=user.username))
        if by.pk != user.pk:
            if not by.is_admin:
                raise RosterError(NOT_AN_ADMIN)
            verdict = rules.may_idle_inactive(
                name=user.username,
                profile=_profile(),
                last_activity=last_activity(user),
                joined_at=user.joined_at,
                now=now,
            )
            if not verdict.allowed:
                raise RosterError(verdict.message)
        return Absence.objects.create(user=user, kind=Absence.IDLE, started_at=now, dynasty=Dynasty.objects.current())


NOBODY_CHOSEN = "Choose at least one player to idle."
NONE_IDLED = "Nobody was idled: {reasons}"


def players_idle(*, users: list[User], by: User, now: datetime) -> list[Absence]:
    """Idle many players in one action: each as ``player_idle`` would, and all of them or none."""
    if not users:
        raise RosterError(NOBODY_CHOSEN)
    if not by.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    refusals = []
    with transaction.atomic():
        absences = []
        for user in users:
            try:
                absences.append(player_idle(user=user, by=by, now=now))
            except RosterError as error:
                refusals.append(str(error))
        if refusals:
            transaction.set_rollback(True)
    if refusals:
        raise RosterError(NONE_IDLED.format(reasons=" ".join(refusals)))
    return absences


def player_unidle(*, user: User, by: User, now: datetime) -> User:
    """End an idle spell; the player's GNDT values come back if they idled in this dynasty."""
    if by.pk != user.pk and not by.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        absence = _open_absence(user)
        if absence is None or absence.kind != Absence.IDLE:
            raise RosterError(NOT_IDLE.format(name=user.username))
        dynasty = Dynasty.objects.current()
        same_dynasty = dynasty is not None and absence.dynasty_id == dynasty.pk
        verdict = rules.may_unidle(
            name=user.username,
            profile=_profile(),
            idled_at=absence.started_at,
            idled_in_current_dynasty=same_dynasty,
            now=now,
        )
        if not verdict.allowed:
            raise RosterError(verdict.message)
        absence.ended_at = now
        absence.save(update_fields=["ended_at"])
        if dynasty is not None and not same_dynasty:
            gndt_player_joined(dynasty=dynasty, user=user, now=now, reset=True)
        return user


def player_leave(*, user: User, now: datetime) -> Absence:
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.is_player or _open_absence_kind(user) == Absence.LEFT:
            raise RosterError(NOT_A_PLAYER.format(name=user.username))
        user.absences.filter(ended_at__isnull=True).update(ended_at=now)
        return Absence.objects.create(user=user, kind=Absence.LEFT, started_at=now, dynasty=Dynasty.objects.current())


def rename_problem(*, user: User, new_name: str) -> str | None:
    """Why ``user`` may not be renamed ``new_name`` (in its normal form), or None: the name rules, another
    account's name or one too like it, another GNDT row's name. Renaming asks it, and so does an amendment
    that proposes a rename, when it is previewed and posted."""
    try:
        PlayerNameValidator()(new_name)
    except ValidationError as error:
        return error.messages[0]
    if User.objects.filter(username__iexact=new_name).exclude(pk=user.pk).exists():
        return NAME_TAKEN.format(name=new_name)
    other = User.objects.exclude(pk=user.pk).lookalike(new_name)
    if other is not None:
        return names.LOOKALIKE.format(name=new_name, other=other)
    # The player's GNDT rows take the new name, which must not be another row's in any case ("The Pot").
    if Row.objects.filter(name__iexact=new_name).exclude(user=user).exists():
        return NAME_TAKEN.format(name=new_name)
    return None


def player_rename(
    *, user: User, new_name: str, admin: User, proposal: Post, now: datetime, reverting: bool = False
) -> Rename:
    """Only an admin renames, and only as an enacted proposal (or Call for Judgement) allowed.

    ``reverting`` puts a name back after the matter that changed it was reopened, so it need not be enacted.
    """
    if not admin.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    if proposal.kind not in AMENDABLE_KINDS or (proposal.status != Status.ENACTED and not reverting):
        raise RosterError(RENAME_NEEDS_ENACTED_PROPOSAL)
    new_name = names.normalise(new_name)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        problem = rename_problem(user=user, new_name=new_name)
        if problem is not None:
            raise RosterError(problem)
        rename = Rename.objects.create(
            user=user, old_name=user.username, new_name=new_name, by=admin, at=now, proposal=proposal
        )
        user.username = new_name
        user.save(update_fields=["username"])
        gndt_player_renamed(user=user, old_name=rename.old_name)
        return rename


def idle_candidates(*, now: datetime) -> list[tuple[User, datetime | None]]:
    """Active players with no post or comment for the profile's idle period, with their last activity."""
    profile = _profile()
    cutoff = now - timedelta(days=profile.idle_after_days)
    users = (
        User.objects.active_at(now)
        .filter(joined_at__lte=cutoff)
        .annotate(last_post=Max("posts__posted_at"), last_comment=Max("comments__at"))
        .order_by(Lower("username"), "username")
    )
    found = []
    for user in users:
        last = max([m for m in (user.last_post, user.last_comment) if m], default=None)
        if last is None or last <= cutoff:
            found.append((user, last))
    return found


def player_set_admin(*, user: User, is_admin: bool, by: User, now: datetime) -> User:
    """Admins add or remove admins, as a Proposal, a CfJ or a resignation decides."""
    if not by.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.is_player:
            raise RosterError(NOT_A_PLAYER.format(name=user.username))
        if not is_admin and user.is_admin and User.objects.filter(is_admin=True).count() == 1:
            raise RosterError(LAST_ADMIN)
        user.is_admin = is_admin
        user.save(update_fields=["is_admin"])
        return user


def rule_change_record(*, parameter: str, raw_value: str, proposal: Post, admin: User, now: datetime):
    """Change one core-rule parameter of the game's profile, as an enacted proposal says."""
    if not admin.is_admin:
        raise RosterError(NOT_AN_ADMIN)
    if proposal.kind not in AMENDABLE_KINDS or proposal.status != Status.ENACTED:
        raise RosterError("A change to the core rules must cite an enacted Proposal.")
    try:
        value = parse_parameter(parameter, raw_value)
    except ValueError as error:
        raise RosterError(str(error)) from None
    return RuleChange.objects.create(parameter=parameter, value=value, proposal=proposal, by=admin, at=now)
