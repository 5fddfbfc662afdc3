"""The GNDT pages: the table (now or at a past moment), editing it inline or with a plain form, the log,
undo, CSV export, and the admins' page for columns, rows, actions, effects and word lists.

Views are thin: they read the request, call a selector or a service, and render. Every ``hx-*`` request has
a plain-HTML twin, so the pages work without JavaScript.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from datetime import datetime

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.http import urlencode
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from dynasties.inputs import query_moment, query_number
from dynasties.models import Dynasty, User
from dynasties.redirects import next_path
from dynasties.selectors import roster_at
from gndt import services
from gndt.forms import ActionForm, ColumnForm, EffectForm, ListForm, RowForm, VariableForm, split_entries
from gndt.models import Action, Column, GameVariable, Row, ScheduledEffect, sees_hidden, sees_value
from gndt.selectors import (
    LogFilters,
    actions_offered,
    dynasty_is_archived,
    effect_runs_shown,
    effects_shown,
    gndt_log,
    gndt_table_as_of,
    gndt_table_for,
    gndt_update_shown,
    list_history,
    log_entries,
    log_filter_choices,
    random_lists_for,
    recent_updates,
)
from gndt.services.common import cell_name
from gndt.services.updates import OWN_SECRET_READ_ONLY
from gndt.services.variables import gndt_variable_retire
from votes.requests import GameRequest, admin_of, state_of
from votes.state import GameState

LOG_PAGE_SIZE = 50
RECENT_UPDATES = 8
NO_TABLE_YET = "No dynasty has begun, so there is no gamestate yet."
COMMENT_PREFILL_MAX = 300
NOT_BEGUN = "{dynasty} had not begun at {moment} UTC, so it had no table then."
LOG_IN_TO_EDIT = "Log in to update the GNDT."
ONLY_ADMINS = "Only admins may manage the GNDT."
UPDATED = "The GNDT was updated (update #{pk})."
UNDONE = "Update #{pk} was undone (update #{undo})."
NO_SUCH_UPDATE = "There is no such GNDT update."
NO_SUCH_CELL = "There is no such GNDT cell."


# --- Shared helpers --------------------------------------------------------------------------------------


def _dynasty(request: GameRequest, number: int | None) -> Dynasty | None:
    """The dynasty a page is about: the one in the URL, or the current one."""
    if number is None:
        return state_of(request).dynasty
    return get_object_or_404(Dynasty.objects.select_related("emperor"), number=number)


def _urls(dynasty: Dynasty, *, current: bool) -> dict[str, str]:
    """The dynasty's page addresses: the short ones for the current dynasty, numbered ones otherwise."""
    if current:
        return {"table": reverse("gndt_table"), "log": reverse("gndt_log"), "csv": reverse("gndt_export")}
    args = [dynasty.number]
    return {
        "table": reverse("gndt_dynasty_table", args=args),
        "log": reverse("gndt_dynasty_log", args=args),
        "csv": reverse("gndt_dynasty_export", args=args),
    }


def _may_update(request: GameRequest, dynasty: Dynasty, state: GameState) -> bool:
    user = request.user
    if not user.is_authenticated:
        return False
    return bool(user.is_admin or user.pk == dynasty.emperor_id or user.username in state.roster.active_names)


def _table(request: GameRequest, dynasty: Dynasty, state: GameState, *, moment: datetime | None):
    sort = request.GET.get("sort", "")
    descending = request.GET.get("dir") == "desc"
    if moment is None:
        return gndt_table_for(dynasty, viewer=request.user, state=state, sort=sort, descending=descending)
    idle = [user.username for user in roster_at(moment).idle]
    return gndt_table_as_of(dynasty, moment, viewer=request.user, idle_names=idle, sort=sort, descending=descending)


def _recent_entries(request: GameRequest, dynasty: Dynasty):
    return recent_updates(dynasty, viewer=request.user, limit=RECENT_UPDATES)


def _table_context(request: GameRequest, number: int | None, *, error: str = "") -> dict:
    state = state_of(request)
    dynasty = _dynasty(request, number)
    context: dict[str, object] = {"dynasty": dynasty, "error": error}
    if dynasty is None:
        return context
    moment = query_moment(request, "at")
    if moment is not None and moment < dynasty.started_at:
        # No table to show: the dynasty had not begun. Say so, and point at the one that was running.
        context.update(
            moment=moment,
            before_start=True,
            running_then=Dynasty.objects.at(moment),
            urls=_urls(dynasty, current=number is None),
            sort_links={},
            other_tables=[],
        )
        return context
    archived = dynasty_is_archived(dynasty)
    table = _table(request, dynasty, state, moment=moment)
    is_current = number is None or (state.dynasty is not None and state.dynasty.pk == dynasty.pk)
    editable = moment is None and not archived and _may_update(request, dynasty, state)
    context.update(
        table=table,
        moment=moment,
        archived=archived,
        editable=editable,
        urls=_urls(dynasty, current=number is None),
        recent=_recent_entries(request, dynasty) if moment is None else [],
        actions=actions_offered(dynasty) if editable else [],
        is_current=is_current,
        sort_links=_sort_links(request, table),
        other_tables=list(
            Dynasty.objects.filter(Exists(Column.objects.filter(dynasty=OuterRef("pk"))))
            .exclude(pk=dynasty.pk)
            .order_by("-number")
            .values_list("number", flat=True)
        ),
        may_manage=request.user.is_authenticated and request.user.is_admin and not archived,
        # Reversed once here rather than once per cell in the template.
        edit_url=reverse("gndt_edit"),
        cell_url=reverse("gndt_cell_form"),
    )
    return context


def _sort_links(request: GameRequest, table) -> dict[str, str]:
    """For each heading, the address that sorts by it (ascending first, then descending)."""
    links = {}
    keep = {"at": request.GET["at"]} if "at" in request.GET else {}
    for name in ["", *(column.name for column in table.columns)]:
        descending = table.sort == name and not table.descending
        query: dict[str, str] = {**keep, "sort": name} if name else dict(keep)
        if descending:
            query["dir"] = "desc"
        links[name] = "?" + urlencode(query) if query else "?"
    return links


def _render_table(request: GameRequest, number: int | None, *, error: str = "", status: int = 200):
    context = _table_context(request, number, error=error)
    if context["dynasty"] is None:
        return render(request, "gndt/table.html", context, status=status)
    template = "gndt/_table_block.html" if request.htmx and not request.htmx.boosted else "gndt/table.html"
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    return response


# --- The table -------------------------------------------------------------------------------------------


def gndt_table(request: GameRequest, number: int | None = None) -> HttpResponse:
    return _render_table(request, number)


def gndt_export(request: GameRequest, number: int | None = None) -> HttpResponse:
    """The table (now, or ``?at=`` a past moment) as CSV, with the columns this viewer may see."""
    context = _table_context(request, number)
    if context["dynasty"] is None:
        raise Http404(NO_TABLE_YET)
    if context.get("before_start"):
        moment = f"{context['moment']:%Y-%m-%d %H:%M:%S}"
        raise Http404(NOT_BEGUN.format(dynasty=context["dynasty"].name, moment=moment))
    table, dynasty, moment = context["table"], context["dynasty"], context["moment"]
    suffix = f"-at-{moment:%Y%m%dT%H%M}" if moment is not None else ""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="gndt-dynasty-{dynasty.number}{suffix}.csv"'
    writer = csv.writer(response)
    writer.writerow(["Name", "Group", *(spreadsheet_safe(column.name) for column in table.columns)])
    for group, entries in (("player", table.rows), ("other", table.other_rows), ("idle", table.idle_rows)):
        for entry in entries:
            writer.writerow([spreadsheet_safe(entry.row.name), group, *map(spreadsheet_safe, entry.values)])
    return response


_NUMBER = re.compile(r"[+-]?[0-9][0-9,]*")


def spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula: text typed by players such as ``=HYPERLINK(…)`` gets
    a leading apostrophe. Numbers (``-4``) and the lone ``-`` that many columns use are left alone."""
    if text[:1] in ("=", "@", "\t", "\r") or (text[:1] in ("+", "-") and text != "-" and not _NUMBER.fullmatch(text)):
        return "'" + text
    return text


def gndt_cell_form(request: GameRequest) -> HttpResponse:
    """The inline editor of one cell (an htmx fragment); without htmx, the row's plain edit form."""
    state = state_of(request)
    dynasty = state.dynasty
    if dynasty is None:
        raise Http404(NO_TABLE_YET)
    row_id, column_id = query_number(request, "row"), query_number(request, "column")
    row = get_object_or_404(Row.objects.in_use(), dynasty=dynasty, pk=row_id or 0)
    column = Column.objects.in_use().filter(dynasty=dynasty, pk=column_id or 0).first()
    # A cell its reader may not see answers exactly as one that does not exist.
    if column is None or not sees_value(request.user, dynasty, column, row.user_id):
        raise Http404(NO_SUCH_CELL)
    if column.hidden and not sees_hidden(request.user, dynasty):
        message = OWN_SECRET_READ_ONLY.format(
            cell=cell_name(row.name, column.name), column=column.name, emperor=dynasty.emperor_term
        )
        return HttpResponse(f'<p class="message error">{escape(message)}</p>', status=403)
    if not request.htmx:
        return redirect(reverse("gndt_edit") + "?" + urlencode({"row": row.pk}))
    if not _may_update(request, dynasty, state) or dynasty_is_archived(dynasty):
        return HttpResponse(f'<p class="message error">{LOG_IN_TO_EDIT}</p>', status=403)
    cell = row.cells.filter(column=column).first()
    return render(
        request,
        "gndt/_cell_form.html",
        {
            "row": row,
            "column": column,
            "value": cell.value if cell else "",
            "actions": actions_offered(dynasty),
        },
    )


def _posted_cells(request: GameRequest, dynasty: Dynasty):
    """Changes and the values seen, keyed by (row name, column name), from ``v-ROW-COLUMN`` and
    ``s-ROW-COLUMN`` fields. A cell whose value equals the value seen is not a change. A column the reader may
    not know of is read as one that does not exist: its name is never put into a refusal for them."""
    rows = {str(row.pk): row.name for row in Row.objects.filter(dynasty=dynasty)}
    columns = {
        str(column.pk): column.name
        for column in Column.objects.filter(dynasty=dynasty).visible_to(request.user, dynasty)
    }
    changes, seen, typed = {}, {}, {}
    for field, values in request.POST.lists():
        new = values[-1]  # the last value, as QueryDict.items() gives
        if not field.startswith("v-"):
            continue
        _, row_id, column_id = (field.split("-") + ["", ""])[:3]
        if row_id not in rows or column_id not in columns:
            continue
        key = (rows[row_id], columns[column_id])
        typed[field] = new
        saw = request.POST.get(f"s-{row_id}-{column_id}")
        if saw is None or new.strip() != saw.strip():
            changes[key] = new
            if saw is not None:
                seen[key] = saw
    return changes, seen, typed


def gndt_edit(request: GameRequest) -> HttpResponse:
    """Update the current table: inline (htmx, one cell) or the plain form (a row, or the whole table)."""
    state = state_of(request)
    dynasty = state.dynasty
    if dynasty is None:
        raise Http404(NO_TABLE_YET)
    if not request.user.is_authenticated:
        # Said after a refused update only: a message to show lives in the session, and a visitor's mere
        # visit must not write a session row.
        if request.method == "POST":
            messages.error(request, LOG_IN_TO_EDIT)
        return redirect(f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}")
    if request.method != "POST":
        return _render_edit_form(request, dynasty, state)
    changes, seen, typed = _posted_cells(request, dynasty)
    try:
        update = services.gndt_update(
            dynasty=dynasty,
            by=request.user,
            changes=changes,
            seen=seen,
            comment=request.POST.get("comment", ""),
            action=request.POST.get("action") or None,
            now=timezone.now(),
        )
    except services.GndtError as error:
        return _edit_refused(request, dynasty, state, str(error), typed)
    messages.success(request, UPDATED.format(pk=update.pk))
    if request.htmx:
        return _render_table(request, None)
    return redirect("gndt_table")


def _edit_refused(request, dynasty, state, error: str, typed: dict) -> HttpResponse:
    if request.htmx and request.POST.get("inline"):
        row = Row.objects.filter(dynasty=dynasty, pk=query_number(request, "row") or 0).first()
        column = Column.objects.filter(dynasty=dynasty, pk=query_number(request, "column") or 0).first()
        if row is not None and column is not None:
            response = render(
                request,
                "gndt/_cell_form.html",
                {
                    "row": row,
                    "column": column,
                    "error": error,
                    "actions": actions_offered(dynasty),
                    "value": request.POST.get(f"s-{row.pk}-{column.pk}", ""),
                    "typed": typed.get(f"v-{row.pk}-{column.pk}"),
                    "comment": request.POST.get("comment", ""),
                    "chosen_action": request.POST.get("action", ""),
                },
            )
            return reswap(retarget(response, f"#cell-{row.pk}-{column.pk}"), "innerHTML")
    if request.htmx:
        return _render_table(request, None, error=error)
    return _render_edit_form(request, dynasty, state, error=error, typed=typed, status=400)


def _render_edit_form(request, dynasty, state, *, error: str = "", typed: dict | None = None, status: int = 200):
    rows_wanted = request.GET.get("row") or request.POST.get("only_row")
    table = gndt_table_for(dynasty, viewer=request.user, state=state)
    entries = table.all_rows
    if rows_wanted:
        entries = [entry for entry in entries if str(entry.row.pk) == rows_wanted]
    typed = typed or {}
    for entry in entries:
        for cell in entry.cells:
            cell.typed = typed.get(f"v-{entry.row.pk}-{cell.column.pk}", cell.value)
    return render(
        request,
        "gndt/edit.html",
        {
            "dynasty": dynasty,
            "table": table,
            "entries": entries,
            "error": error,
            "only_row": rows_wanted or "",
            "may_update": _may_update(request, dynasty, state) and not dynasty_is_archived(dynasty),
            "actions": actions_offered(dynasty),
            # The admin panel's link after an enactment fills the comment in ("Enacting Proposal: …").
            "comment": request.POST.get("comment", "")
            if request.method == "POST"
            else request.GET.get("comment", "")[:COMMENT_PREFILL_MAX],
            "chosen_action": request.POST.get("action", ""),
        },
        status=status,
    )


# --- The log ---------------------------------------------------------------------------------------------


def gndt_log_page(request: GameRequest, number: int | None = None) -> HttpResponse:
    state = state_of(request)
    dynasty = _dynasty(request, number)
    if dynasty is None:
        return render(request, "gndt/table.html", {"dynasty": None})
    filters = LogFilters(
        by=request.GET.get("by", ""), row=request.GET.get("row", ""), column=request.GET.get("column", "")
    )
    paginator = Paginator(gndt_log(dynasty, viewer=request.user, filters=filters), LOG_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    query = {
        key: value for key, value in (("by", filters.by), ("row", filters.row), ("column", filters.column)) if value
    }
    archived = dynasty_is_archived(dynasty)
    return render(
        request,
        "gndt/log.html",
        {
            "dynasty": dynasty,
            "page": page,
            "entries": log_entries(page, viewer=request.user, dynasty=dynasty),
            "filters": filters,
            "choices": log_filter_choices(dynasty, viewer=request.user),
            "page_query": urlencode(query),
            "urls": _urls(dynasty, current=number is None),
            "archived": archived,
            "may_undo": not archived and _may_update(request, dynasty, state),
        },
    )


def gndt_update_detail(request: GameRequest, pk: int) -> HttpResponse:
    state = state_of(request)
    update = gndt_update_shown(pk, viewer=request.user)
    if update is None:
        raise Http404(NO_SUCH_UPDATE)
    dynasty = update.dynasty
    archived = dynasty_is_archived(dynasty)
    is_current = state.dynasty is not None and state.dynasty.pk == dynasty.pk
    return render(
        request,
        "gndt/update_detail.html",
        {
            "dynasty": dynasty,
            "entry": log_entries([update], viewer=request.user, dynasty=dynasty)[0],
            "urls": _urls(dynasty, current=is_current),
            "may_undo": not archived and _may_update(request, dynasty, state),
        },
    )


@require_POST
def gndt_undo(request: GameRequest, pk: int) -> HttpResponse:
    update = gndt_update_shown(pk, viewer=request.user)
    if update is None:
        raise Http404(NO_SUCH_UPDATE)
    back = next_path(request, fallback=reverse("gndt_log"))
    if not request.user.is_authenticated:
        messages.error(request, LOG_IN_TO_EDIT)
        return redirect(f"{reverse('login')}?{urlencode({'next': back})}")
    try:
        undo = services.gndt_undo(
            update=update, by=request.user, now=timezone.now(), comment=request.POST.get("comment", "")
        )
    except services.GndtError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, UNDONE.format(pk=update.pk, undo=undo.pk))
    return HttpResponseRedirect(back)


# --- Managing the table (admins) -------------------------------------------------------------------------


def _manageable(request: GameRequest) -> tuple[User, Dynasty]:
    """The admin making the request and the dynasty whose table they manage; refused for anyone else."""
    admin = admin_of(request, ONLY_ADMINS)
    dynasty = state_of(request).dynasty
    if dynasty is None:
        raise Http404(NO_TABLE_YET)
    return admin, dynasty


def gndt_manage(request: GameRequest) -> HttpResponse:
    _, dynasty = _manageable(request)
    return _render_manage(request, dynasty)


def _render_manage(
    request, dynasty, *, row_form=None, action_form=None, list_form=None, variable_form=None, status: int = 200
):
    state = state_of(request)
    with_rows = set(Row.objects.filter(dynasty=dynasty).exclude(user=None).values_list("user_id", flat=True))
    visible = Column.objects.filter(dynasty=dynasty).visible_to(request.user, dynasty)
    return render(
        request,
        "gndt/manage.html",
        {
            "dynasty": dynasty,
            "archived": dynasty_is_archived(dynasty),
            "columns": visible,
            "rows": Row.objects.filter(dynasty=dynasty, user=None),
            "missing_players": [user for user in state.roster.active if user.pk not in with_rows],
            "actions": Action.objects.filter(dynasty=dynasty),
            "effects": effects_shown(dynasty, viewer=request.user),
            "runs": effect_runs_shown(dynasty, viewer=request.user)[:10],
            "lists": sorted(random_lists_for(dynasty).items()),
            "list_versions": list_history(dynasty)[:20],
            # Several forms share a page and field names ("name"): each its own ids, so no id is given twice.
            "row_form": row_form or RowForm(auto_id="row_%s"),
            "action_form": action_form or ActionForm(auto_id="action_%s"),
            "list_form": list_form or ListForm(auto_id="list_%s"),
            "variables": GameVariable.objects.filter(dynasty=dynasty)
            .filter(Q(column__isnull=True) | Q(column__in=visible))
            .select_related("row", "column", "proposal"),
            "variable_form": variable_form or VariableForm(dynasty=dynasty, viewer=request.user, auto_id="variable_%s"),
        },
        status=status,
    )


def gndt_column_form(request: GameRequest, pk: int | None = None) -> HttpResponse:
    admin, dynasty = _manageable(request)
    column = get_object_or_404(Column, dynasty=dynasty, pk=pk) if pk is not None else None
    data = request.POST if request.method == "POST" else None
    form = ColumnForm.for_column(column, data) if column is not None else ColumnForm(data)
    if request.method == "POST" and form.is_valid():
        try:
            if column is None:
                column = services.gndt_column_add(
                    dynasty=dynasty, by=admin, now=timezone.now(), **form.service_fields()
                )
                messages.success(request, f"Added the column {column.name}.")
            else:
                services.gndt_column_edit(column=column, by=admin, now=timezone.now(), **form.service_fields())
                messages.success(request, f"Saved the column {form.cleaned_data['name']}.")
        except services.GndtError as error:
            form.add_error(None, str(error))
        else:
            return redirect("gndt_manage")
    title = f"Column {column.name}" if column is not None else "New column"
    return _render_manage_form(request, form=form, title=title, dynasty=dynasty)


def _render_manage_form(request: GameRequest, *, form, title: str, dynasty) -> HttpResponse:
    """One admin form on its own page; a refused POST comes back with status 400 and the admin's input."""
    return render(
        request,
        "gndt/manage_form.html",
        {"form": form, "title": title, "dynasty": dynasty},
        status=400 if request.method == "POST" else 200,
    )


def gndt_action_form(request: GameRequest, pk: int | None = None) -> HttpResponse:
    admin, dynasty = _manageable(request)
    action = get_object_or_404(Action, dynasty=dynasty, pk=pk) if pk is not None else None
    initial = (
        {
            "name": action.name,
            "frequency": action.frequency,
            "weekly_cap": action.weekly_cap,
            "description": action.description,
            "phase": action.phase,
        }
        if action is not None
        else None
    )
    form = ActionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.gndt_action_save(
                dynasty=dynasty, by=admin, now=timezone.now(), action=action, **form.cleaned_data
            )
        except services.GndtError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Saved the action {saved.name}.")
            return redirect("gndt_manage")
        if action is None:
            return _render_manage(request, dynasty, action_form=form, status=400)
    title = f"Action {action.name}" if action is not None else "New action"
    return _render_manage_form(request, form=form, title=title, dynasty=dynasty)


def gndt_effect_form(request: GameRequest, pk: int | None = None) -> HttpResponse:
    admin, dynasty = _manageable(request)
    effect = get_object_or_404(ScheduledEffect, dynasty=dynasty, pk=pk) if pk is not None else None
    data = request.POST if request.method == "POST" else None
    form = EffectForm.for_effect(effect, data) if effect is not None else EffectForm(data, dynasty=dynasty)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.gndt_effect_save(
                dynasty=dynasty, by=admin, now=timezone.now(), effect=effect, **form.cleaned_data
            )
        except services.GndtError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Saved the scheduled effect {saved.name}: {saved.describe()}.")
            return redirect("gndt_manage")
    title = f"Scheduled effect {effect.name}" if effect is not None else "New scheduled effect"
    return _render_manage_form(request, form=form, title=title, dynasty=dynasty)


@require_POST
def gndt_row_create(request: GameRequest) -> HttpResponse:
    admin, dynasty = _manageable(request)
    form = RowForm(request.POST)
    if form.is_valid():
        try:
            row = services.gndt_row_add(dynasty=dynasty, by=admin, now=timezone.now(), name=form.cleaned_data["name"])
        except services.GndtError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Added the row {row.name}.")
            return redirect("gndt_manage")
    return _render_manage(request, dynasty, row_form=form, status=400)


@require_POST
def gndt_rows_add_players(request: GameRequest) -> HttpResponse:
    admin, dynasty = _manageable(request)
    try:
        rows = services.gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=timezone.now())
    except services.GndtError as error:
        messages.error(request, str(error))
    else:
        names = ", ".join(row.name for row in rows) or "nobody: every active player has a row"
        messages.success(request, f"Added rows for {names}.")
    return redirect("gndt_manage")


@require_POST
def gndt_remove(request: GameRequest, kind: str, pk: int) -> HttpResponse:
    """Remove a column, a row, an action or a game variable from the table; its history stays in the log."""
    admin, dynasty = _manageable(request)
    removers: dict[str, tuple[type[Column | Row | Action | GameVariable], Callable[..., object]]] = {
        "columns": (Column, lambda obj, **kw: services.gndt_column_retire(column=obj, **kw)),
        "rows": (Row, lambda obj, **kw: services.gndt_row_retire(row=obj, **kw)),
        "actions": (Action, lambda obj, **kw: services.gndt_action_retire(action=obj, **kw)),
        "variables": (GameVariable, lambda obj, **kw: gndt_variable_retire(variable=obj, **kw)),
    }
    if kind not in removers:
        raise Http404("Nothing of that kind can be removed.")
    model, service = removers[kind]
    target = get_object_or_404(model, dynasty=dynasty, pk=pk)
    try:
        service(target, by=admin, now=timezone.now())
    except services.GndtError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Removed {target}; its history stays in the log.")
    return redirect("gndt_manage")


@require_POST
def gndt_list_save(request: GameRequest) -> HttpResponse:
    admin, dynasty = _manageable(request)
    form = ListForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            version = services.gndt_list_set(
                dynasty=dynasty if data["scope"] == ListForm.THIS_DYNASTY else None,
                name=data["name"],
                entries=split_entries(data["entries"]),
                by=admin,
                now=timezone.now(),
                note=data["note"],
                removed=data["remove"],
            )
        except services.GndtError as error:
            form.add_error(None, str(error))
        else:
            done = "Removed" if version.removed else "Saved"
            messages.success(request, f"{done} the {version.name} list.")
            return redirect("gndt_manage")
    return _render_manage(request, dynasty, list_form=form, status=400)
