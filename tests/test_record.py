"""``Record``: the dataclass stand-in of the search path (fields, defaults, equality, and which
classes may be assigned to)."""

from __future__ import annotations

import pytest

from shellfree._record import Factory, Record, replace


class Point(Record):
    x: int
    y: int = 0
    tags: list = Factory(list)


class Counter(Record, mutable=True):
    count: int = 0


class Frozen(Counter, mutable=False):
    label: str = ""


class Thawed(Point, mutable=True):
    z: int = 0


def test_fields_follow_the_annotations_and_a_subclass_appends():
    assert Point._fields == ("x", "y", "tags")
    assert Thawed._fields == ("x", "y", "tags", "z")
    assert Point(1) == Point(x=1, y=0, tags=[])
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=[])"


def test_a_factory_default_is_fresh_per_instance():
    a, b = Point(1), Point(1)
    a.tags.append("t")
    assert b.tags == []


def test_wrong_arguments_are_refused():
    with pytest.raises(TypeError, match="missing argument 'x'"):
        Point()
    with pytest.raises(TypeError, match="unexpected argument 'w'"):
        Point(1, w=2)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        Point(1, 2, [], 4)


def test_equality_needs_the_same_class_and_an_immutable_record_hashes():
    assert Point(1) != Thawed(1)
    assert hash(Point(1, 2, ())) == hash(Point(1, 2, ()))
    with pytest.raises(TypeError):
        hash(Counter())


def test_an_immutable_record_refuses_assignment_and_deletion():
    p = Point(1)
    with pytest.raises(AttributeError, match="cannot assign to field 'x' of Point"):
        p.x = 2
    with pytest.raises(AttributeError, match="cannot delete field 'x' of Point"):
        del p.x
    assert p.x == 1


def test_a_mutable_record_takes_assignment_and_deletion():
    c = Counter()
    c.count += 5
    assert c.count == 5
    del c.count
    assert "count" not in vars(c)  # the class default shows through again
    assert c.count == 0


def test_mutability_is_each_class_s_own():
    f = Frozen(1, "a")  # immutable below a mutable base
    with pytest.raises(AttributeError, match="cannot assign to field 'count' of Frozen"):
        f.count = 2
    with pytest.raises(AttributeError, match="cannot delete"):
        del f.label
    t = Thawed(1)  # mutable below an immutable base
    t.x = 3
    assert t == Thawed(3)
    with pytest.raises(AttributeError):
        Point(1).y = 1  # the base stays immutable


def test_replace_copies_with_changes():
    p = Point(1, 2)
    assert replace(p, y=5) == Point(1, 5)
    assert p == Point(1, 2)
    with pytest.raises(TypeError, match="has no field 'w'"):
        replace(p, w=1)
