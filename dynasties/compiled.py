"""Queries every page makes, built and compiled by the ORM once and then only run.

Building and compiling a query through the ORM costs several times what running it costs for the small
queries every page makes. Every page reads the roster at the moment it is rendered (at 10× the real history:
4.1 ms of CPU through the ORM, 1.0 ms compiled), whose SQL does not depend on the moment, only its parameters
(``CompiledForMoment``); and the game's state and the sidebar read the game's own row, the current dynasty,
the pending matters with their authors and the latest comments, whose SQL and parameters never change
(``CompiledOnce``: on the demo game 0.12–0.82 ms of CPU each through the ORM and 0.03–0.20 ms compiled on
SQLite, 0.26–1.24 and 0.11–0.25 ms on PostgreSQL, ``benchmarks/bench_compiled.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Generic, TypeVar

from django.db import connection, connections, models
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, RawQuerySet, get_related_populators
from django.db.models.sql.compiler import SQLCompiler

# Two moments no data holds, so that the parameters that carry the moment are told apart from the rest.
_PROBES = (datetime(1901, 2, 3, 4, 5, 6, 7, tzinfo=UTC), datetime(1902, 3, 4, 5, 6, 7, 8, tzinfo=UTC))
_MOMENT = models.DateTimeField()  # adapts a moment as the ORM does for a DateTimeField lookup


class CompiledForMoment:
    """``build(moment)``'s query, run as raw SQL compiled once per database vendor.

    If the two probe moments' compilations differ in anything but parameters holding the moment as the ORM
    adapts it, the query is built through the ORM every time, as it would be without this class."""

    def __init__(self, build: Callable[[datetime], QuerySet]) -> None:
        self.build = build
        self._compiled: dict[str, tuple[type[models.Model], str, tuple, frozenset[int]] | None] = {}

    def __call__(self, moment: datetime) -> QuerySet | RawQuerySet:
        vendor = connection.vendor
        if vendor not in self._compiled:
            self._compiled[vendor] = self._compile()
        compiled = self._compiled[vendor]
        if compiled is None:
            return self.build(moment)
        model, sql, params, at = compiled
        value = _MOMENT.get_db_prep_value(moment, connection)
        filled = tuple(value if index in at else param for index, param in enumerate(params))
        return model._default_manager.raw(sql, filled)

    def _compile(self) -> tuple[type[models.Model], str, tuple, frozenset[int]] | None:
        first, second = (self.build(m) for m in _PROBES)
        (sql, params), (other_sql, other_params) = first.query.sql_with_params(), second.query.sql_with_params()
        if sql != other_sql or len(params) != len(other_params):
            return None
        at = frozenset(i for i, (a, b) in enumerate(zip(params, other_params, strict=True)) if a != b)
        adapted = _MOMENT.get_db_prep_value(_PROBES[0], connection)
        if not at or any(params[i] != adapted for i in at):
            return None
        return first.model, sql, tuple(params), at


M = TypeVar("M", bound=models.Model)


class CompiledOnce(Generic[M]):
    """``build()``'s query, which must be the same SQL with the same parameters every time, compiled once per
    thread and database, then run as it is: its rows become model instances as the ORM would make them, with
    the objects ``select_related`` names and the annotations.

    The compiler is kept beside its SQL, as it knows how each column is read back (``results_iter`` applies the
    backend's converters) and where each related object's columns are (``klass_info``). It is kept per thread
    because it holds the connection it compiled for, which is the thread's own."""

    def __init__(self, build: Callable[[], QuerySet[M]]) -> None:
        self.build = build
        self._local = threading.local()

    def __call__(self) -> list[M]:
        compiled = vars(self._local).get("compiled")
        if compiled is None:
            compiled = self._local.compiled = self._compile()
        compiler, sql, params = compiled
        with connections[compiler.using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = list(compiler.results_iter(results=[cursor.fetchall()]))
        return _instances(compiler, rows)

    def _compile(self) -> tuple[SQLCompiler, str, tuple]:
        queryset = self.build()
        if queryset._iterable_class is not ModelIterable or queryset._prefetch_related_lookups:
            raise ValueError("CompiledOnce makes model instances: a query with values() or a prefetch it cannot")
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()  # also lays out the columns: select, klass_info, annotation_col_map
        return compiler, sql, tuple(params)


def _instances(compiler: SQLCompiler, rows: list) -> list[models.Model]:
    klass_info, select = compiler.klass_info, compiler.select
    model = klass_info["model"]
    own = klass_info["select_fields"]
    start, end = own[0], own[-1] + 1
    names = [column[0].target.attname for column in select[start:end]]
    related = get_related_populators(klass_info, select, compiler.using)
    instances = []
    for row in rows:
        instance = model.from_db(compiler.using, names, row[start:end])
        for populator in related:
            populator.populate(row, instance)
        for name, position in compiler.annotation_col_map.items():
            setattr(instance, name, row[position])
        instances.append(instance)
    return instances
