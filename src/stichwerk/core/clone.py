"""Cheap copies of a deal's state: the clone written out once per state class.

A search bot copies a deal thousands of times per decision. A loop of ``getattr``/``setattr``
over fifty slots costs more than the deal's own moves, so :func:`clone_function` writes the
copy out as plain code the first time it is needed (as ``dataclasses`` writes its methods):
one assignment per slot, a shallow copy for each slot that holds a list or a dict (a state
changes those in place), every other value shared (ints, strings, tuples and frozen rules are
never changed in place).
"""

from collections.abc import Callable
from typing import Any


def clone_function(sample: Any) -> Callable[[Any], Any]:
    """The copy function for ``sample``'s class, deciding by ``sample`` which slots hold lists
    or dicts (a slot holds the same kind of value in every state of its class)."""
    cls = type(sample)
    lines = ["def clone(self):", "    other = new(cls)"]
    for name in cls.__slots__:
        mutable = isinstance(getattr(sample, name), (list, dict))
        lines.append(f"    other.{name} = self.{name}{'.copy()' if mutable else ''}")
    lines.append("    return other")
    space: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), space)  # the text is made here, from the class's slot names
    clone: Callable[[Any], Any] = space["clone"]
    return clone
