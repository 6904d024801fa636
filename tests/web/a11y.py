"""axe-core, Deque's maintained accessibility engine, run inside the page under test.

The engine is the ``axe.min.js`` that the ``axe-playwright-python`` package ships (axe-core
is MPL-2.0); the package only puts it into the page and calls ``axe.run``."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

_AXE = Axe()
#: The impacts that fail a page (axe's scale: minor, moderate, serious, critical).
FAILING = ("serious", "critical")


def serious_violations(page: Page) -> list[str]:
    """Each serious or critical rule broken on the page as it is now, with up to three
    of the elements that break it."""
    response = _AXE.run(page).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes'][:3]]}"
        for v in response["violations"]
        if v.get("impact") in FAILING
    ]
