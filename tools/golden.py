"""Write the golden files of tests/golden/ from the engines as they are now.

    .venv/bin/python tools/golden.py --write

Run it after a deliberate rules change, read the diff (``git diff tests/golden``) and commit it
with the change; the tests in ``tests/golden`` compare the engines with the committed files.
Without ``--write`` it only says which files differ.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.golden import build  # noqa: E402


def main() -> int:
    """Check or rewrite the golden files; exit status 1 when any differs and is not written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the files that differ")
    args = parser.parse_args()
    wanted = build.expected_files()
    differ = []
    for path, text in wanted.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            differ.append(path)
            if args.write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    stale = build.stale_files(wanted)
    for path in stale:
        if args.write:
            path.unlink()
    for path in differ:
        print(("wrote " if args.write else "differs: ") + str(path.relative_to(ROOT)))
    for path in stale:
        print(("removed " if args.write else "stale: ") + str(path.relative_to(ROOT)))
    return 0 if args.write or not (differ or stale) else 1


if __name__ == "__main__":
    raise SystemExit(main())
