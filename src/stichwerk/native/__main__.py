"""``python -m stichwerk.native``: build the compiled engine, or say whether it is used."""

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from stichwerk.native import BUILD, COMPILED, GROUP, MANIFEST, PACKAGE, fresh_files, source_digest


def build(*, quiet: bool = True) -> None:
    """Compile ``COMPILED`` with mypyc into ``BUILD`` and write the manifest (last, so a build
    that fails half-way is never used)."""
    from mypyc.build import mypycify  # the build needs mypy; using the build does not
    from setuptools import Distribution

    digest = source_digest()
    root = PACKAGE.parent
    sources = [str(root.joinpath(*name.split(".")).with_suffix(".py")) for name in COMPILED]
    with tempfile.TemporaryDirectory(prefix="stichwerk-native-") as tmp:
        here = os.getcwd()
        os.chdir(root)  # mypyc names the modules by the path from the source root
        try:
            extensions = mypycify(
                [os.path.relpath(s, root) for s in sources],
                opt_level="3",
                group_name=GROUP,
                target_dir=os.path.join(tmp, "c"),
                verbose=not quiet,
            )
            out = Path(tmp) / "lib"
            dist = Distribution({"name": GROUP, "ext_modules": extensions})
            dist.script_args = ["build_ext", "--build-lib", str(out), "--build-temp", tmp]
            if quiet:
                dist.script_args = ["--quiet", *dist.script_args]
            dist.parse_command_line()
            dist.run_commands()
        finally:
            os.chdir(here)
        files: dict[str, str] = {}
        for ext in extensions:
            found = list(out.glob(ext.name.replace(".", "/") + ".*.so")) + list(
                out.glob(ext.name.replace(".", "/") + ".so")
            )
            if len(found) != 1:
                raise RuntimeError(f"the build made no single file for {ext.name}")
            files[ext.name] = str(found[0].relative_to(out))
        if BUILD.exists():
            shutil.rmtree(BUILD)
        shutil.copytree(out, BUILD)
    MANIFEST.write_text(json.dumps({"digest": digest, "files": files}, indent=1), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m stichwerk.native build [--optional] [--force]``: compile, unless a build
    matching the sources is there already (``--force``: anyway); ``status``: whether one is.
    With ``--optional`` a failed build (no C compiler, say) is one line and exit 0: the Python
    modules serve."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["status"]:
        state = "in use" if fresh_files() is not None else "not built, or out of date"
        print(f"compiled engine ({', '.join(COMPILED)}): {state}")
        return 0
    if args[:1] != ["build"] or not set(args[1:]) <= {"--optional", "--verbose", "--force"}:
        print("usage: python -m stichwerk.native build [--optional] [--force] [--verbose] | status")
        return 2
    if fresh_files() is not None and "--force" not in args:
        return 0
    print(
        "compiling the Cego and Doppelkopf engines with mypyc (once per change of their sources)"
        " ...",
        flush=True,
    )
    try:
        build(quiet="--verbose" not in args)
    except (Exception, SystemExit) as exc:  # the compiler's own errors, whatever their type
        if "--optional" not in args:
            raise
        print(f"the compiled engine was not built ({exc}); the Python modules are used")
        return 0
    print(f"compiled engine built: {', '.join(COMPILED)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
