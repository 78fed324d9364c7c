"""What start-up work was moved to first use still answers as before: lazily imported
modules, the XML character checks, the element-name check."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.core.lazy import LazyModule
from geoserver_emulator.wire import xml as wxml


def _xml_char(c: str) -> bool:
    """XML 1.0 ``Char``, from the specification."""
    o = ord(c)
    return o in (0x9, 0xA, 0xD) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or o >= 0x10000


def test_lazy_module_imports_on_first_attribute(tmp_path, monkeypatch):
    (tmp_path / "lazy_probe_module.py").write_text("VALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lazy_probe_module", raising=False)
    proxy = LazyModule("lazy_probe_module")
    assert "lazy_probe_module" not in sys.modules
    with pytest.raises(AttributeError):
        proxy.__wrapped__  # noqa: B018 - probes of special names never import
    assert "lazy_probe_module" not in sys.modules
    assert proxy.VALUE == 42
    assert "lazy_probe_module" in sys.modules
    with pytest.raises(AttributeError):
        proxy.MISSING  # noqa: B018


BOUNDARIES = [
    0x0, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x9F, 0xA0,
    0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF,
]  # fmt: skip


@pytest.mark.parametrize("code", BOUNDARIES)
def test_xml_safe_is_the_xml_char_production(code):
    c = chr(code)
    assert wxml.xml_safe(c) is _xml_char(c)
    assert wxml.xml_safe(f"ab{c}cd") is _xml_char(c)
    assert wxml.replace_unsafe(f"a{c}") == ("a" + c if _xml_char(c) else "a\ufffd")


@given(st.text())
def test_xml_safe_on_any_text(text):
    assert wxml.xml_safe(text) is all(_xml_char(c) for c in text)
    assert wxml.replace_unsafe(text, "?") == "".join(c if _xml_char(c) else "?" for c in text)


def _lxml_takes(name: str) -> bool:
    try:
        etree.Element(name)
    except ValueError:
        return False
    return True


@given(st.from_regex(r"[A-Za-z_][A-Za-z0-9._-]*", fullmatch=True) | st.text(max_size=12))
def test_check_name_refuses_exactly_what_lxml_refuses(name):
    try:
        wxml.check_name(name)
        taken = True
    except ValueError:
        taken = False
    assert taken is _lxml_takes(name)
