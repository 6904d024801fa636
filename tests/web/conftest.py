"""Browser tests in Debian's real headless Chromium, against a live server on loopback.

Screenshots of every open page are saved when a test fails (in
$SKYDECK_ARTIFACTS, default /tmp/skydeck-web-failures).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.live import LiveServer as BaseLiveServer

#: Debian's package (``apt-get install chromium``); ``make test CHROMIUM=...`` passes
#: another one through $SKYDECK_CHROMIUM. Without it every test here is skipped.
CHROMIUM = os.environ.get("SKYDECK_CHROMIUM") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("SKYDECK_ARTIFACTS", "/tmp/skydeck-web-failures"))

# Playwright's 5 s default is too short for a first render on a busy 2-core machine (the
# suite runs two workers, each with its server and Chromium): a co-op table test timed
# out there with the table drawn a moment later (its failure snapshot shows it). The
# checks stay the same; only how long one may take to come true is longer.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    if not os.path.exists(CHROMIUM):
        skip = pytest.mark.skip(reason=f"{CHROMIUM} is absent (Debian: apt-get install chromium)")
        for item in items:
            if "tests/web" in str(item.path):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }


class LiveServer(BaseLiveServer):
    """The browsers' server: the limits stay on, sized for one browser that plays a whole
    suite's matches from one address (a person's defaults are 12 new matches a minute,
    20 unfinished)."""

    def __init__(
        self, url: str, ai_delay: float = 0.0, clock_scale: float = 1.0, **settings: Any
    ) -> None:
        super().__init__(
            url,
            ai_delay=ai_delay,
            clock_scale=clock_scale,
            create_rate="1000/minute",
            request_rate="10000/minute",
            socket_rate="10000/minute",
            max_unfinished=10_000,
            **settings,
        )


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("web") / "web.sqlite"
    with LiveServer(f"sqlite:///{db}") as server:
        yield server


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """Pages registered here are photographed if the test fails."""
    pages: list[Any] = []
    yield pages
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for i, page in enumerate(pages):
            path = ARTIFACTS / f"{request.node.name}-{i}.png"
            try:
                page.screenshot(path=str(path), full_page=True)
                print(f"screenshot saved: {path}")
            except Exception as exc:  # the page may be gone
                print(f"no screenshot of page {i}: {exc}")


@pytest.fixture(scope="module")
def fast_clock_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose clocks run 2.5 times faster (the 5 s draw lasts 2 s)."""
    db = tmp_path_factory.mktemp("web-clock") / "web.sqlite"
    with LiveServer(f"sqlite:///{db}", clock_scale=0.4) as server:
        yield server
