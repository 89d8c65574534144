"""Record classes for the AST and the resolved program: attrs' behaviour, without its start-up.

`frozen` and `define` read a class's annotated fields as `attrs.frozen` and `attrs.define`
do, and give the class the same public behaviour: slots, `__init__` with the positional
fields (defaults only at the end) then the keyword-only ones, equality and hash by the
fields declared with `eq=True` (a `span` is declared `eq=False`), a `repr` of the fields
declared with `repr=True`, `__match_args__`, pickling and copying. A `frozen` instance
refuses assignment with an AttributeError; a `define` instance is mutable and unhashable.
Fields are not inherited: a record class is declared whole, as every node class is.

Why not attrs itself: attrs writes and compiles Python source for each method of each class,
some 0.4 ms a class, and the AST and the program declare about 120 node classes, so importing
them took some 50 ms, a third of `gdl check`. Here every class shares the methods of
`Record`, which read the class's table of field names: making a class takes microseconds.
Making an instance takes about half a microsecond more than with attrs (some 3 ms for the
largest shipped game); a generated `__init__` per class would be faster but compiling them
costs more than it saves.
"""

from __future__ import annotations

_REQUIRED = object()
_set = object.__setattr__


class Factory:
    """A default made anew for each instance (`Factory(list)`), as in attrs."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


class Field:
    """A field's options, written `name: type = field(...)` in a class body."""

    __slots__ = ("default", "eq", "repr", "kw_only")

    def __init__(self, default, eq, repr, kw_only):
        self.default = default
        self.eq = eq
        self.repr = repr
        self.kw_only = kw_only


def field(*, default=_REQUIRED, eq=True, repr=True, kw_only=False):
    """Options of one field, as `attrs.field` takes them (a default may be a `Factory`)."""
    return Field(default, eq, repr, kw_only)


def frozen(cls):
    """Declare an immutable, hashable record class."""
    return _make(cls, _FrozenRecord)


def define(cls):
    """Declare a mutable record class (not hashable, since its fields may change)."""
    return _make(cls, _MutableRecord)


def fields(cls):
    """Names of a record class's fields, in declaration order (keyword-only ones last)."""
    return cls.__record_fields__


class Record:
    """The base of every record class."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        positional = self.__match_args__
        for name, value in zip(positional, args):
            _set(self, name, value)
        if kwargs or len(args) != len(positional) or self.__record_keywords__:
            self._init_rest(args, kwargs)

    def _init_rest(self, args, kwargs):
        """Fields not given positionally: from keywords or defaults."""
        positional = self.__match_args__
        if len(args) > len(positional):
            raise TypeError(f"{type(self).__name__}.__init__() takes {len(positional) + 1} "
                            f"positional arguments but {len(args) + 1} were given")
        for name in positional[len(args):] + self.__record_keywords__:
            value = kwargs.pop(name, _REQUIRED)
            _set(self, name, self._default(name) if value is _REQUIRED else value)
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument {next(iter(kwargs))!r}")

    def _default(self, name):
        value = self.__record_defaults__.get(name, _REQUIRED)
        if value is _REQUIRED:
            raise TypeError(f"{type(self).__name__}.__init__() missing required argument: "
                            f"{name!r}")
        return value.make() if isinstance(value, Factory) else value

    def _compared(self):
        return tuple(getattr(self, name) for name in self.__record_eq__)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __repr__(self):
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_repr__)
        return f"{type(self).__name__}({shown})"

    def __getstate__(self):
        return tuple(getattr(self, name) for name in self.__record_fields__)

    def __setstate__(self, state):
        for name, value in zip(self.__record_fields__, state):
            _set(self, name, value)


class _FrozenRecord(Record):
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field '{name}' of a frozen "
                             f"{type(self).__name__}")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field '{name}' of a frozen {type(self).__name__}")

    def __hash__(self):
        return hash((self.__class__,) + self._compared())


class _MutableRecord(Record):
    __slots__ = ()
    __hash__ = None


def _make(cls, base):
    """The record class declared by `cls`'s annotations (a new class: slots must be known
    when a class is made)."""
    namespace = dict(cls.__dict__)
    names = list(namespace.get("__annotations__", {}))
    positional, keywords, defaults, eq, shown = [], [], {}, [], []
    for name in names:
        declared = namespace.pop(name, _REQUIRED)
        options = declared if isinstance(declared, Field) else Field(declared, True, True, False)
        if options.default is not _REQUIRED:
            defaults[name] = options.default
        elif positional and positional[-1] in defaults and not options.kw_only:
            raise TypeError(f"{cls.__name__}: field '{name}' without a default follows one "
                            "with a default")
        (keywords if options.kw_only else positional).append(name)
        if options.eq:
            eq.append(name)
        if options.repr:
            shown.append(name)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    namespace.update(
        __slots__=tuple(names) + ("__weakref__",), __match_args__=tuple(positional),
        __record_keywords__=tuple(keywords), __record_fields__=tuple(positional + keywords),
        __record_defaults__=defaults, __record_eq__=tuple(eq), __record_repr__=tuple(shown))
    return type(cls.__name__, (base,), namespace)
