"""Pyodide (CPython for the browser), which lets a phone score a score sheet with no connection.

The phone runs the project's own pure Python (``stichwerk.core``, ``cego``, ``doppelkopf``,
``games``, ``sheet``: standard library only) in a web worker, so offline scoring is not a second
implementation. Pyodide is not kept in git: ``python -m stichwerk.web.pyodide`` (which
``make run`` and ``make test`` call on first use) fetches the pinned release from the npm
registry, checks its sha512 integrity, and unpacks the files a worker needs into
``static/vendor/pyodide/<version>/`` (gitignored), each with a gzip copy the server sends to
browsers that take it (12.3 MB become 5.5 MB). Node.js is not needed for this.
"""

import base64
import gzip
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

from stichwerk.web import STATIC

VERSION = "0.29.3"
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
INTEGRITY = (
    "sha512-"
    "22UBuhOJawj7vKUnS7/F3xK+515LJdjiMAHoCfuS6/PbHiOrSQVnYwDe+2sbVwiOZ3sMMexdXICew6NqOMQGgA=="
)
"""The npm registry's ``dist.integrity`` of the pinned tarball."""
FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What a classic web worker loads: the loader, the interpreter and the standard library."""
DIR = STATIC / "vendor" / "pyodide" / VERSION
URL = f"/s/py/pyodide/{VERSION}/"
"""Where the server serves them (gzip-compressed where the browser takes it)."""


def installed(where: Path = DIR) -> bool:
    """Whether every file the worker loads is there, each with its gzip copy."""
    return all((where / name).is_file() and (where / f"{name}.gz").is_file() for name in FILES)


def check_integrity(data: bytes, integrity: str = INTEGRITY) -> None:
    """Raise ``ValueError`` unless ``data`` has the npm ``integrity`` (``sha512-<base64>``).

    >>> check_integrity(b"x", "sha512-" + base64.b64encode(hashlib.sha512(b"x").digest()).decode())
    >>> check_integrity(b"y", "sha512-" + base64.b64encode(hashlib.sha512(b"x").digest()).decode())
    Traceback (most recent call last):
    ValueError: the download does not match its sha512 integrity
    """
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise ValueError(f"unsupported integrity {algorithm!r}")
    digest = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != expected:
        raise ValueError("the download does not match its sha512 integrity")


def unpack(data: bytes, where: Path = DIR) -> None:
    """Write the worker's files out of the npm tarball ``data``."""
    where.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for name in FILES:
            try:
                member = archive.extractfile(f"package/{name}")
            except KeyError:  # not in the archive at all
                member = None
            if member is None:
                raise ValueError(f"the tarball has no {name}")
            target = where / name
            data = member.read()
            # A gzip copy beside each file: the WebAssembly shrinks from 8.6 to 2.8 MB.
            for path, body in ((target, data), (where / f"{name}.gz", gzip.compress(data, 9))):
                partial = path.with_suffix(path.suffix + ".part")
                partial.write_bytes(body)
                partial.replace(path)


def fetch(where: Path = DIR) -> None:
    """Download, check and unpack the pinned Pyodide (nothing to do when it is there)."""
    if installed(where):
        return
    print(f"fetching Pyodide {VERSION} from the npm registry ...", file=sys.stderr)
    with urllib.request.urlopen(TARBALL, timeout=120) as response:
        data = response.read()
    check_integrity(data)
    unpack(data, where)


def main() -> None:
    try:
        fetch()
    except (OSError, ValueError) as exc:
        print(f"stichwerk: could not fetch Pyodide: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
