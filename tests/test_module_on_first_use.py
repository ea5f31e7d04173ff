"""The stand-in for a module imports it on the first attribute read and then gets out of the way."""

from __future__ import annotations

import sys

from shellfree._module_on_first_use import ModuleOnFirstUse


def test_the_first_attribute_read_imports_the_module_and_rebinds_the_name(monkeypatch):
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    owner: dict = {}
    owner["colorsys"] = ModuleOnFirstUse("colorsys", owner, "colorsys")
    assert "colorsys" not in sys.modules  # nothing imported yet
    assert owner["colorsys"].rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    assert owner["colorsys"] is sys.modules["colorsys"]


def test_a_missing_module_is_reported_when_first_used():
    owner: dict = {}
    owner["m"] = ModuleOnFirstUse("shellfree_no_such_module", owner, "m")
    try:
        owner["m"].anything
    except ModuleNotFoundError as err:
        assert "shellfree_no_such_module" in str(err)
    else:
        raise AssertionError("no error")
