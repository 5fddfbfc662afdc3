"""The type checker's lists in pyproject.toml keep up with the import contract that names the pure rules."""

import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())


def _pure_modules() -> set[str]:
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    return set(next(c for c in contracts if c["id"] == "pure-rules")["source_modules"])


def _strict_modules() -> set[str]:
    overrides = PYPROJECT["tool"]["mypy"]["overrides"]
    return {module for override in overrides if override.get("disallow_untyped_defs") for module in override["module"]}


def test_every_pure_module_is_type_checked_strictly():
    """A module the import contract calls pure is in mypy's files and in its strict overrides, so a rule
    added to the contract cannot slip past the type checker."""
    files = set(PYPROJECT["tool"]["mypy"]["files"])
    pure = _pure_modules()
    assert pure - _strict_modules() == set()
    assert {module for module in pure if module.replace(".", "/") + ".py" not in files} == set()


def test_strict_overrides_name_only_pure_modules():
    """The strict settings are for the pure rules; a module that is not pure is checked with the baseline."""
    assert _strict_modules() - _pure_modules() == set()
