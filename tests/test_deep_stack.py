"""Each request runs on one chunk of CPython's frame stack (``blognomic.running.deep_stack``): calls that go
up and down across a chunk's edge no longer take memory from the kernel and give it back each time."""

from __future__ import annotations

import resource
import sys

import pytest
from django.test import Client
from django.test.signals import template_rendered

from blognomic.running.deep_stack import on_a_deep_stack

# Deep enough to cross a 16 KiB chunk's edge from anywhere in the one below it (a call's frame takes a dozen
# slots or more of the chunk's 2,048), shallow enough to fit in the room a deep-stack frame leaves.
DEPTH = 400
ROUNDS = 300


def descend(depth: int) -> int:
    return 0 if depth == 0 else descend(depth - 1) + 1


def page_faults_of(work) -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    work()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def down_and_up() -> None:
    for _ in range(ROUNDS):
        descend(DEPTH)


def test_calls_that_cross_a_chunks_edge_take_no_memory_from_the_kernel_on_a_deep_stack():
    """Going 400 calls down and back up 300 times makes a page fault or more each time, where CPython frees
    the chunk it took on the way down; on a deep stack, a handful in all."""
    on_a_deep_stack(down_and_up)  # whatever a first run touches once
    plain = page_faults_of(down_and_up)
    if plain < ROUNDS:
        pytest.skip(f"this Python ({sys.version.split()[0]}) keeps its frame stack's chunks (gh-142183 fixed)")
    deep = page_faults_of(lambda: on_a_deep_stack(down_and_up))
    assert deep < plain / 20, f"{deep} page faults on a deep stack, against {plain} without it"


def test_on_a_deep_stack_passes_arguments_and_answers_and_raises_as_the_call_does():
    assert on_a_deep_stack(divmod, 17, 5) == (3, 2)
    assert on_a_deep_stack(sorted, [3, 1, 2], reverse=True) == [3, 2, 1]
    with pytest.raises(ZeroDivisionError):
        on_a_deep_stack(divmod, 1, 0)


@pytest.mark.django_db
def test_a_pages_templates_render_inside_the_deep_stack_frame():
    """The middleware is the outermost one: a page's templates render within its frame."""
    inside: list[bool] = []

    def note(sender, **kwargs):
        frame = sys._getframe()
        codes = set()
        while frame is not None:
            codes.add(frame.f_code)
            frame = frame.f_back
        inside.append(on_a_deep_stack.__code__ in codes)

    template_rendered.connect(note)
    try:
        assert Client().get("/").status_code == 200
    finally:
        template_rendered.disconnect(note)
    assert inside and all(inside)
