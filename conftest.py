"""Pytest's settings for the whole tree (tests and the package's doctests).

While the compiled engine is imported (``stichwerk.native``), pytest cannot collect the
doctests of the compiled modules from their ``.py`` files (the module imported is another
file); ``tests/cego/test_native.py`` runs those doctests on the Python modules instead.
"""

import os

from stichwerk import native

collect_ignore = (
    [f"src/{name.replace('.', '/')}.py" for name in native.COMPILED] if native.active() else []
)

# Property tests draw the same examples on every run (a random draw found a real gap once in
# many runs and failed CI for an unrelated change: a test must not fail one run in fifty).
# HYPOTHESIS_PROFILE=explore searches anew, to hunt for such gaps on purpose.
from hypothesis import settings  # noqa: E402

settings.register_profile("default", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
