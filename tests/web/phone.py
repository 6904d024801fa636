"""Phone checks for the browser tests: the page fits the screen's width, every enabled
control is a finger's size (WCAG 2.5.5: 44x44 CSS px) and the text of the board and its
cards can be read (12 CSS px), measured in the page as a phone shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

#: The issue's two phone screens (CSS px), portrait and landscape.
PHONES = {"portrait": (390, 844), "landscape": (844, 390)}
TARGET = 44  # CSS px, WCAG 2.5.5 (target size, enhanced)
TEXT = 12  # CSS px, the smallest card and board text asked for

#: What a finger can press: HTML controls and the board's pulsing pieces. A checkbox or
#: radio wrapped in its label is pressed through the label, so the label is measured.
MEASURE_JS = (Path(__file__).parent / "phone_measure.js").read_text()


def phone_context(browser: Browser, screen: str) -> BrowserContext:
    """A context that behaves as a phone: touch, a mobile viewport, 3 device px a CSS px."""
    width, height = PHONES[screen]
    return browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=3,
    )


def screen_context(
    browser: Browser, screen: str, desktop: tuple[int, int] = (1280, 800)
) -> BrowserContext:
    """``screen`` is "desktop" (a mouse, ``desktop``'s viewport) or one of ``PHONES``."""
    if screen == "desktop":
        return browser.new_context(viewport={"width": desktop[0], "height": desktop[1]})
    return phone_context(browser, screen)


def measure(page: Page) -> dict[str, Any]:
    """Widths, the smallest control and the smallest board text of the page as it is now."""
    result: dict[str, Any] = page.evaluate(MEASURE_JS, [TARGET, TEXT])
    # A phone widens its layout to a page that overflows (and shows it zoomed out), so
    # innerWidth follows the page: the screen's own width is what the page must fit.
    size = page.viewport_size
    result["screenWidth"] = size["width"] if size else result["innerWidth"]
    return result


def check_phone(page: Page, where: str) -> dict[str, Any]:
    """Fails naming what is wrong: horizontal scrolling, small controls, tiny text."""
    m = measure(page)
    problems = []
    if m["scrollWidth"] > m["screenWidth"] or m["innerWidth"] > m["screenWidth"]:
        problems.append(
            f"scrolls sideways: {m['scrollWidth']} px wide on a {m['screenWidth']} px screen"
        )
    if m["small"]:
        problems.append(f"{len(m['small'])} controls under {TARGET}x{TARGET}: {m['small'][:6]}")
    if m["tiny"]:
        problems.append(f"{len(m['tiny'])} texts under {TEXT} px: {m['tiny'][:6]}")
    assert not problems, f"{where}: " + "; ".join(problems)
    return m
