"""A stand-in for a module that is imported the first time one of its names is read.

Where a module is needed by some searches only (the Unicode class code and its tables), the
importing module binds the name to a :class:`ModuleOnFirstUse` instead; the first attribute read
imports the real module and rebinds the name to it in the importing module's globals, so later
reads cost nothing more than any module attribute. Written by hand: the standard library's
``importlib.util.LazyLoader`` would import ``importlib.util`` itself, which a search must not pay
for either.
"""

from __future__ import annotations

import sys


class ModuleOnFirstUse:
    """Stands for module *name* as the global *bound_as* of the module *owner* (a dict of
    globals) until an attribute is read."""

    def __init__(self, name: str, owner: dict, bound_as: str) -> None:
        self._name = name
        self._owner = owner
        self._bound_as = bound_as

    def __getattr__(self, attribute: str):
        __import__(self._name)
        module = sys.modules[self._name]
        self._owner[self._bound_as] = module
        return getattr(module, attribute)
