"""Small value classes for the modules ``shellfree rg`` imports, without ``dataclasses``.

Why not dataclasses: the search path defines about fifty small classes (regex AST and HIR
nodes, options, results). ``import dataclasses`` pulls in ``inspect`` (4 ms) and each
``@dataclass`` compiles several generated methods (about 0.3 ms each), so they cost a
command-line search some 20 ms of its start-up, measured with ``time.process_time`` around the
imports. :class:`Record` reads the same annotated class body once, in ``__init_subclass__``,
and shares one generic ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__``.

The price is a slower constructor (a loop instead of generated code), so classes built once per
file or per printed line are written out by hand with ``__slots__`` instead.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Factory", "Record", "replace"]


class Factory:
    """A default made fresh for each instance (``field(default_factory=...)``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class Record:
    """Base of a value class declared by annotated fields, like a frozen dataclass.

    Fields are the class's annotated names in order (a subclass appends to its base's); a
    class attribute gives a default, a :class:`Factory` a fresh one per instance.
    ``class C(Record, mutable=True)`` allows assignment after construction (and has no hash).
    Instances compare equal when they are of the same class with equal fields.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}
    _mutable = False

    def __init_subclass__(cls, mutable: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls._fields)
        defaults = dict(cls._defaults)
        for name, kind in cls.__dict__.get("__annotations__", {}).items():
            if "ClassVar" in str(kind):
                continue
            if name not in fields:
                fields.append(name)
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
            elif defaults:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with")
        cls._fields = tuple(fields)
        cls._defaults = defaults
        if mutable is not None:
            cls._mutable = mutable
        cls.__match_args__ = cls._fields
        if cls._mutable:
            cls.__hash__ = None  # type: ignore[assignment]
            # Nothing to check: object's own assignment, not a Python-level call per attribute
            # set (a searcher's per-file counter is one).
            cls.__setattr__ = object.__setattr__  # type: ignore[method-assign]
            cls.__delattr__ = object.__delattr__  # type: ignore[method-assign]
        else:  # also under a mutable base
            cls.__setattr__ = Record.__setattr__  # type: ignore[method-assign]
            cls.__delattr__ = Record.__delattr__  # type: ignore[method-assign]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments, got {len(args)}")
        put = object.__setattr__
        for name, value in zip(fields, args):
            put(self, name, value)
        for name in fields[len(args):]:
            if name in kwargs:
                value = kwargs.pop(name)
            elif name in self._defaults:
                value = self._defaults[name]
                if isinstance(value, Factory):
                    value = value.make()
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
            put(self, name, value)
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got an unexpected argument {next(iter(kwargs))!r}")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({body})"

    def __setattr__(self, name: str, value: Any) -> None:
        if not self._mutable:
            raise AttributeError(f"cannot assign to field {name!r} of {type(self).__name__}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if not self._mutable:
            raise AttributeError(f"cannot delete field {name!r} of {type(self).__name__}")
        object.__delattr__(self, name)


def replace(record: Record, **changes: Any) -> Record:
    """A copy of *record* with some fields changed (``dataclasses.replace``)."""
    values = {name: getattr(record, name) for name in record._fields}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(record)(**values)
