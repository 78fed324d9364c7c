"""Style bodies without HTTP: SLD inspection and conversion, the CSS check, ZIP packages."""

from __future__ import annotations

import io
import zipfile

import pytest
from lxml import etree

from geoserver_emulator.areas.styles import css, package, sld
from geoserver_emulator.core.errors import Forbidden, Invalid, PayloadTooLarge

SLD_NS = "{http://www.opengis.net/sld}"
SE_NS = "{http://www.opengis.net/se}"


def test_inspect_names_and_layers(h):
    found = sld.inspect(h.sld("inner", layer="outer"))
    assert (found.version, found.style_name, found.layer_count, found.named_layers) == (
        "1.0.0",
        "inner",
        1,
        ("outer",),
    )
    assert sld.inspect(h.sld(None)).style_name == "Default Styler"
    group = sld.inspect(h.group_sld("a", "b"))
    assert (group.style_name, group.layer_count, group.named_layers) == (None, 2, ("a", "b"))


def test_inspect_reads_se_and_unprefixed_documents(h):
    assert sld.inspect(h.se("x")).style_name == "x"
    bare = (
        b"<StyledLayerDescriptor><UserLayer><UserStyle><Name>u</Name></UserStyle>"
        b"</UserLayer></StyledLayerDescriptor>"
    )
    assert sld.inspect(bare).style_name == "u"


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"x",
        b"<a/>",
        b"<StyledLayerDescriptor/>",
        b"<StyledLayerDescriptor><NamedLayer/></StyledLayerDescriptor>",
    ],
)
def test_inspect_refuses_non_styles(body):
    with pytest.raises(Invalid):
        sld.inspect(body)


def test_version_of(h):
    assert sld.version_of(h.se()) == "1.1.0"
    assert sld.version_of(h.sld()) == "1.0.0"
    assert sld.version_of(b"<StyledLayerDescriptor/>") == "1.0.0"
    assert sld.version_of(b"not xml") is None
    assert sld.version_of(b"<a/>") is None


def test_icons(h):
    assert sld.icons(h.icon_sld("x", "a.png")) == ["a.png"]
    remote = h.icon_sld("x", "http://example.com/a.png")
    assert sld.icons(remote) == [] and sld.icons(b"<broken") == []
    assert sld.icons(h.icon_sld("x", "../up.png")) == sld.icons(h.icon_sld("x", "/abs.png")) == []
    assert sld.icons(h.icon_sld("x", "sub/a.png")) == ["sub/a.png"]


def test_convert_up_and_down(h):
    up = etree.fromstring(sld.convert(h.sld("x", layer="x"), "1.1.0"))
    assert up.get("version") == "1.1.0"
    assert up.find(f"{SLD_NS}NamedLayer/{SE_NS}Name").text == "x"
    assert up.find(f".//{SLD_NS}UserStyle/{SE_NS}Description/{SE_NS}Title").text == "A style"
    assert up.find(f".//{SE_NS}SvgParameter").get("name") == "fill"
    down = sld.convert(sld.convert(h.sld("x"), "1.1.0"), "1.0.0")
    root = etree.fromstring(down)
    assert root.find(f".//{SLD_NS}UserStyle/{SLD_NS}Title").text == "A style"
    assert root.find(f".//{SLD_NS}CssParameter").text == "#FF0000"
    assert sld.inspect(down).style_name == "x"


def test_convert_keeps_filters_and_graphics(h):
    body = h.icon_sld("x", "pin.png").replace(
        b"<Rule>",
        b"<Rule><ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>a</ogc:PropertyName>"
        b"<ogc:Literal>1</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>",
    )
    up = sld.convert(body, "1.1.0")
    assert b"<ogc:PropertyName>a</ogc:PropertyName>" in up
    assert sld.icons(up) == ["pin.png"]


def test_css_shell():
    shell = sld.css_shell("roads", "* { stroke: red } /* -- */", "1.0.0")
    assert sld.inspect(shell).style_name == "roads"
    assert sld.inspect(sld.css_shell("roads", "*{a:b}", "1.1.0")).version == "1.1.0"


# -- CSS --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "rules"),
    [
        ("* { stroke: black }", "Default Styler", 1),
        (
            "@styleName 'roads';\n* { stroke: black; }\n[a = 1] { fill: red; :mark { size: 4 } }",
            "roads",
            3,
        ),
        ('@styleName "x y";/* c */ * {mark: symbol("circle")}', "x y", 1),
        ("[name = 'a;b{c}'] { label: [name]; -gt-label-padding: 4 }", "Default Styler", 1),
    ],
)
def test_css_accepts(text, name, rules):
    assert css.check(text.encode()) == css.Summary(name, rules)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "* {",
        "}",
        "* { a }",
        "* { : b }",
        "* { a: }",
        "@x",
        "@ x;",
        "{ a: b }",
        "* { a: b } x",
        "'open",
        "* { a: rgb(1 }",
        "* { a: b] }",
        "/* open",
    ],
)
def test_css_refuses(text):
    with pytest.raises(Invalid):
        css.check(text.encode())


def test_css_charset():
    assert css.check("* { label: 'é' }".encode("latin-1"), "latin-1").rules == 1
    with pytest.raises(Invalid):
        css.check("* { label: 'é' }".encode("latin-1"))
    with pytest.raises(Invalid):
        css.check(b"* { a: b }", "no-such-charset")


# -- packages ---------------------------------------------------------------------------------


def test_package_reads_the_top_level(h):
    body = h.package(
        {"dir/": b"", "dir/inner.sld": b"no", "b.txt": b"t", "a.sld": b"<s/>", "i.PNG": b"p"}
    )
    found = package.read(body, 10_000)
    assert (found.sld_name, found.sld, found.icons) == ("a.sld", b"<s/>", {"i.PNG": b"p"})


def test_package_needs_an_sld(h):
    with pytest.raises(Forbidden, match="No sld file provided:"):
        package.read(h.package({"dir/a.sld": b"x"}), 10_000)


@pytest.mark.parametrize("name", ["../a.sld", "/a.sld", "a/../../b.png", "C:/a.sld", "\\\\a.sld"])
def test_package_refuses_escaping_names(h, name):
    with pytest.raises(Invalid, match="outside of the target directory"):
        package.read(h.package({name: b"x", "ok.sld": b"y"}), 10_000)


def test_package_size_limit(h):
    with pytest.raises(PayloadTooLarge):
        package.read(h.package({"a.sld": b"x" * 5000}), 4000)
    with pytest.raises(PayloadTooLarge):
        package.read(h.package({"a.sld": b"x" * 3000, "b.png": b"y" * 3000}), 4000)


def test_package_refuses_garbage_and_corruption(h):
    with pytest.raises(Invalid, match="not a ZIP"):
        package.read(b"nope", 100)
    body = bytearray(h.package({"a.sld": b"z" * 200}))
    start = body.index(b"a.sld") + len("a.sld")
    body[start : start + 20] = b"\xff" * 20  # damage the deflated data
    with pytest.raises(Invalid):
        package.read(bytes(body), 10_000)


def test_package_refuses_encrypted_entries():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a.sld", b"x")
    data = bytearray(buf.getvalue())
    data[6] |= 0x1  # local header flag
    cd = data.index(b"PK\x01\x02")
    data[cd + 8] |= 0x1  # central directory flag
    with pytest.raises(Invalid, match="encrypted"):
        package.read(bytes(data), 100)


def test_inspect_honours_the_charset_without_a_declaration(h):
    body = (
        "<StyledLayerDescriptor><NamedLayer><UserStyle><Name>café</Name></UserStyle>"
        "</NamedLayer></StyledLayerDescriptor>"
    )
    assert sld.inspect(body.encode("latin-1"), "ISO-8859-1").style_name == "café"
    assert sld.inspect(body.encode("utf-8")).style_name == "café"
    with pytest.raises(Invalid):
        sld.inspect(body.encode("utf-8"), "no-such-charset")
