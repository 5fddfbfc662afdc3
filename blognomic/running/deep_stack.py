"""Each request runs on one long stretch of CPython's frame stack, so that its deep calls stop asking the kernel
for memory and handing it back hundreds of times a page.

Since 3.11, CPython keeps the frames of Python calls on a stack of 16 KiB chunks. A call that finds the chunk
full gets a fresh one from the kernel (mmap), and gives it back (munmap) when it returns. Rendering a page
nests Django's template nodes dozens of calls deep, up and down across such a boundary again and again: an
uncached front page made some 575 page faults a request and spent 4 of its 33 ms in the kernel, as measured
on 3.11 (CPython issue gh-142183; 3.13 and 3.14 have since kept one spare chunk, 3.11 and 3.12 never will).

The way round it from Python: a request starts in a call whose frame is too big for the chunk in use, so
CPython gives that frame a chunk of its own, sized with room to spare after it (16 KiB, doubled until it holds
the frame and a thousand slots more). The frame below declares an evaluation stack of just over 8,192 − 1,000
slots, so its chunk is 128 KiB; the 9,000 slots after it, some 300 calls of a template's depth, take what the
request calls, and the chunk goes back once, when the request ends. A stack's slots are not written until
used, so the big frame costs no more than a small one. On other Pythons it is one plain call more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

# Just over 7,192 (8,192 − 1,000): a frame this big does not fit a chunk of 64 KiB with a thousand slots to
# spare, so CPython allocates 128 KiB for it.
STACK_SLOTS = 7_200


def on_a_deep_stack(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, from a frame that starts a chunk of CPython's frame stack of its own."""
    return call(*args, **kwargs)


# The compiler gave the function the few stack slots it uses; declaring more only makes its frame bigger.
on_a_deep_stack.__code__ = on_a_deep_stack.__code__.replace(co_stacksize=STACK_SLOTS)


class DeepStackMiddleware:
    """The first middleware: the rest of the request, every other middleware and the view, runs inside
    ``on_a_deep_stack``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return on_a_deep_stack(self.get_response, request)
