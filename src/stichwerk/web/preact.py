"""Preact and htm, the small view library the table page is built on, with no build step.

The page's modules import the libraries' ES-module builds by their URLs (``static/js/view.js``):
``preact`` (the diffing renderer), ``preact/hooks`` and ``htm`` (JSX-like tagged templates in
plain JavaScript). No import map: the pages' Content-Security-Policy runs no inline script, so
the hooks module's one bare ``from "preact"`` is pointed at its sibling file when it is written.
They are not kept in git: ``python -m stichwerk.web.preact`` (which
``make run`` and ``make test`` call on first use, as for Pyodide) fetches the pinned releases
from the npm registry, checks each tarball's sha512 integrity and each served file's sha256, and
writes the files under ``static/vendor/<package>/<version>/`` (gitignored). The same versions
are the ``devDependencies`` of ``package.json``, whose type declarations ``tsc`` checks the page
against (``tsconfig.json`` maps the URLs to them; a test keeps the pins equal). Node.js is not
needed to run the app.
"""

import hashlib
import io
import sys
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from stichwerk.web import STATIC
from stichwerk.web.pyodide import check_integrity


@dataclass(frozen=True)
class Package:
    """One pinned npm package and the files of it the browser loads."""

    name: str
    version: str
    integrity: str
    """The npm registry's ``dist.integrity`` of the tarball."""
    files: tuple[tuple[str, str, str], ...]
    """(path in the tarball, name served, sha256 of the file in the tarball)."""
    imports: tuple[tuple[str, str], ...] = ()
    """(bare import, sibling file) rewritten in the served files: browsers need no import map."""

    @property
    def tarball(self) -> str:
        return f"https://registry.npmjs.org/{self.name}/-/{self.name}-{self.version}.tgz"

    @property
    def dir(self) -> Path:
        return STATIC / "vendor" / self.name / self.version

    @property
    def url(self) -> str:
        return f"/static/vendor/{self.name}/{self.version}/"


PACKAGES = (
    Package(
        "preact",
        "11.2.0",
        "sha512-/HfHI/7N84e6GrWBJ3J280z3mLaRJiDcSvj/A+y/4AbLnND/1UlGHe1sR6oYuTGwId0nP7dqDU9OnLxMPZ7xBg==",
        (
            (
                "dist/preact.mjs",
                "preact.mjs",
                "bdcbd9abdf2c77c5c45326eab42191e949222d479d0d5f69467387a77040cb55",
            ),
            (
                "hooks/dist/hooks.mjs",
                "hooks.mjs",
                "e862ab2973aa6455eaa0f77c5d832d2157d6be59a17c8ba546550a575b58c6b4",
            ),
        ),
        (('from"preact"', 'from"./preact.mjs"'),),
    ),
    Package(
        "htm",
        "3.1.1",
        "sha512-983Vyg8NwUE7JkZ6NmOqpCZ+sh1bKv2iYTlUkzlWmA5JD2acKoxd4KVxbMmxX/85mtfdnDmTFoNKcg5DGAvxNQ==",
        (
            (
                "dist/htm.mjs",
                "htm.mjs",
                "ab33dd3f38059b9be4d5f5350128eefb2356639c4e0bbe9d9e8b3ba75847e9e4",
            ),
        ),
    ),
)


def module_urls() -> dict[str, str]:
    """Each module the pages import, by the npm name it has, and the URL the server has it at.

    >>> module_urls()["preact/hooks"]
    '/static/vendor/preact/11.2.0/hooks.mjs'
    """
    by_name = {p.name: p for p in PACKAGES}
    preact, htm = by_name["preact"], by_name["htm"]
    return {
        "preact": preact.url + "preact.mjs",
        "preact/hooks": preact.url + "hooks.mjs",
        "htm": htm.url + "htm.mjs",
    }


def _stamp(package: Package) -> str:
    return " ".join(sha256 for _, _, sha256 in package.files) + "\n"


def installed(package: Package, where: Path | None = None) -> bool:
    """Whether every file of ``package`` is there, written from the pinned tarball."""
    base = package.dir if where is None else where
    stamp = base / "PINNED"
    if not stamp.is_file() or stamp.read_text(encoding="utf-8") != _stamp(package):
        return False
    return all((base / name).is_file() for _, name, _ in package.files)


def unpack(package: Package, data: bytes, where: Path | None = None) -> None:
    """Write the served files of ``package`` out of its npm tarball ``data``, each checked."""
    base = package.dir if where is None else where
    base.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for inner, name, sha256 in package.files:
            try:
                member = archive.extractfile(f"package/{inner}")
            except KeyError:
                member = None
            if member is None:
                raise ValueError(f"the {package.name} tarball has no {inner}")
            body = member.read()
            if hashlib.sha256(body).hexdigest() != sha256:
                raise ValueError(f"{package.name}/{inner} does not match its sha256")
            for bare, sibling in package.imports:
                body = body.replace(bare.encode(), sibling.encode())
            partial = base / f"{name}.part"
            partial.write_bytes(body)
            partial.replace(base / name)
    # Written last: a run cut short leaves no stamp, and the next run fetches again.
    (base / "PINNED").write_text(_stamp(package), encoding="utf-8")


def fetch() -> None:
    """Download, check and unpack every pinned package that is not there yet."""
    for package in PACKAGES:
        if installed(package):
            continue
        print(f"fetching {package.name} {package.version} from npm ...", file=sys.stderr)
        with urllib.request.urlopen(package.tarball, timeout=60) as response:
            data = response.read()
        check_integrity(data, package.integrity)
        unpack(package, data)


def main() -> None:
    try:
        fetch()
    except (OSError, ValueError) as exc:
        print(f"stichwerk: could not fetch the view library: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
