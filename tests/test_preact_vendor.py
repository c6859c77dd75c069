"""The table page's view library: one pin in three places (the fetcher, the page's import map,
``package.json`` for the type checker), and a fetched file that is not the pinned one refused."""

import hashlib
import io
import json
import re
import tarfile
from pathlib import Path

import pytest

from stichwerk.web import STATIC, TEMPLATES, preact

ROOT = Path(__file__).resolve().parent.parent
DEMO = b'import"x";export default 1;'


def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, body in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(body)
            archive.addfile(info, io.BytesIO(body))
    return buffer.getvalue()


def test_the_pages_import_the_fetchers_files() -> None:
    """The modules import the vendored files by URL (no inline import map: the CSP forbids it)."""
    code = (STATIC / "js" / "view.js").read_text(encoding="utf-8")
    imported = set(re.findall(r'from "(/static/vendor/[^"]+)"', code))
    assert imported == set(preact.module_urls().values())
    # The table page asks for them at once (not only when view.js is read).
    page = (TEMPLATES / "table.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="(/static/vendor/[^"]+)">', page))
    assert preloaded == imported
    tsconfig = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))
    paths = tsconfig["compilerOptions"]["paths"]
    for name, url in preact.module_urls().items():
        (pattern,) = [p for p in paths if re.fullmatch(p.replace("*", "[^/]+"), url)]
        assert paths[pattern] == [f"./node_modules/{name}"]


def test_the_type_checker_sees_the_versions_the_page_loads() -> None:
    dev = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]
    for package in preact.PACKAGES:
        assert dev[package.name] == package.version, package.name


def test_unpack_writes_the_pinned_files_and_refuses_others(tmp_path: Path) -> None:
    package = preact.Package(
        "demo",
        "1.0.0",
        "sha512-unused",
        (
            (
                "dist/demo.mjs",
                "demo.mjs",
                hashlib.sha256(b'import"x";export default 1;').hexdigest(),
            ),
        ),
        (('import"x"', 'import"./x.mjs"'),),
    )
    assert not preact.installed(package, tmp_path)
    preact.unpack(package, _tarball({"dist/demo.mjs": DEMO}), tmp_path)
    assert (tmp_path / "demo.mjs").read_bytes() == b'import"./x.mjs";export default 1;'

    assert preact.installed(package, tmp_path)
    other = tmp_path / "other"
    with pytest.raises(ValueError, match="sha256"):
        preact.unpack(package, _tarball({"dist/demo.mjs": b"export default 2;"}), other)
    assert not preact.installed(package, other)
    with pytest.raises(ValueError, match=r"no dist/demo\.mjs"):
        preact.unpack(package, _tarball({"dist/else.mjs": b""}), other)


def test_a_pyodide_tarball_without_a_file_is_one_clear_error(tmp_path: Path) -> None:
    """The sibling fetcher: a missing member was a KeyError (a traceback past ``main``)."""
    from stichwerk.web import pyodide

    with pytest.raises(ValueError, match=r"no pyodide\.js"):
        pyodide.unpack(_tarball({"else.js": b""}), tmp_path)
