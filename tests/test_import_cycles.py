"""No import circle anywhere: not between apps (the layers contract forbids those upward), and not inside an app
either, where import-linter has no contract to look. Imports inside functions count; imports only for type
checking do not, as they never run."""

from __future__ import annotations

import grimp

APPS = ("blognomic", "votes", "gndt", "ruleset", "dynasties")


def import_circles(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """Each module that imports another which, by some chain, imports it back: the circle, from that module."""
    circles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                circles.append((importer, *back))
    return circles


def test_no_module_imports_itself_back():
    """Every import goes one way: no module reaches itself again by following what it imports."""
    graph = grimp.build_graph(*APPS, exclude_type_checking_imports=True, cache_dir=None)
    assert import_circles(graph) == []


def test_a_circle_is_found_inside_an_app():
    """The check sees a circle closed by an import inside a function, as the one that once ran from the mail
    outbox to its task and back."""
    graph = grimp.ImportGraph()
    for module in ("game", "game.mail", "game.tasks", "game.rules"):
        graph.add_module(module)
    graph.add_import(importer="game.tasks", imported="game.mail")
    graph.add_import(importer="game.mail", imported="game.tasks")
    graph.add_import(importer="game.tasks", imported="game.rules")
    assert import_circles(graph) == [
        ("game.mail", "game.tasks", "game.mail"),
        ("game.tasks", "game.mail", "game.tasks"),
    ]
