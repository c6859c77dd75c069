"""axe-core in the browser tests: a page checked against WCAG 2.1 AA where it is drawn.

The rules run in the page itself (``node_modules/axe-core/axe.min.js``, pinned in
``package.json``, installed by ``npm ci`` in ``make test``), so they see what a person's
browser sees: the computed colours, the names the accessibility tree gives each control, the
landmarks and the language. The helper only injects the script and reports what it finds.
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    """The axe-core script; one clear line when ``npm ci`` has not run (CI always runs it)."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed ({AXE} missing): run `npm ci` in the checkout")
    return AXE.read_text(encoding="utf-8")


def violations(page: Page, within: str | None = None) -> list[dict[str, Any]]:
    """The WCAG 2.1 A/AA violations of what ``page`` shows now (``within``: a CSS selector of
    the part to check, the whole document by default).

    The script is evaluated through the DevTools protocol, not added as a ``<script>`` element:
    the app's Content-Security-Policy (``script-src 'self'``) rightly refuses inline scripts.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;true")
    found: list[dict[str, Any]] = page.evaluate(
        """async ([within, tags]) => {
          const result = await window.axe.run(within || document, {
            runOnly: {type: 'tag', values: tags},
            resultTypes: ['violations'],
          });
          return result.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({
              target: n.target.map(String).join(' '),
              summary: n.failureSummary || '',
            })),
          }));
        }""",
        [within, TAGS],
    )
    return found


def describe(found: list[dict[str, Any]], where: str = "") -> list[str]:
    """One line per failing node: where, the rule id, the node's selector and the help text."""
    lines = []
    for violation in found:
        for node in violation["nodes"]:
            summary = " ".join(node["summary"].split())
            lines.append(
                f"{where}{violation['id']} ({violation['impact']}) at {node['target']}: "
                f"{violation['help']}. {summary}"
            )
    return lines


def assert_accessible(page: Page, where: str = "", within: str | None = None) -> None:
    """Fails naming every violation axe-core finds on ``page`` (see :func:`describe`)."""
    lines = describe(violations(page, within), f"{where}: " if where else "")
    assert not lines, "\n".join(lines)
