"""Headless Chromium for the report's browser test (Debian's ``chromium`` + ``chromium-driver``).

``open_browser()`` starts Chromium through chromedriver with Selenium, with the browser console
and the DevTools network log recorded; ``unavailable()`` says why it cannot (no Selenium, no
Chromium, no driver) so the test skips with that message. Host names resolve to nothing
(``--host-resolver-rules``), so even a bug could not reach the network — and every request the
page made is still read back from the log (``requests()``) to prove none tried.

Run as a script to save screenshots of a built site (used for the two in docs/):
``PYTHONPATH=src:tests python tests/report_browser.py SITE OUTDIR``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = ("chromedriver",)


def _which(names: tuple[str, ...]) -> str | None:
    for n in names:
        p = shutil.which(n) or (f"/usr/bin/{n}" if Path(f"/usr/bin/{n}").is_file() else None)
        if p:
            return p
    return None


def unavailable() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if _which(CHROMIUM) is None:
        return "Chromium is not installed (apt-get install chromium chromium-driver)"
    if _which(DRIVER) is None:
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


def open_browser(width: int = 1400, height: int = 1000) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not download anything
    opts = Options()
    opts.binary_location = _which(CHROMIUM) or ""
    for arg in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--window-size={width},{height}",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(_which(DRIVER) or ""), options=opts)


def console_errors(driver: Any) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def requests(driver: Any) -> list[str]:
    """URLs of every request the pages made since the last call (DevTools network log)."""
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def full_screenshot(driver: Any, path: Path, width: int = 1400, max_height: int = 2600) -> None:
    """A screenshot of the page's top part, up to ``max_height`` pixels tall."""
    h = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(width, min(max(h, 600), max_height))
    driver.save_screenshot(str(path))


if __name__ == "__main__":
    site, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    d = open_browser()
    try:
        d.get((site / "index.html").as_uri())
        full_screenshot(d, out / "report-overview.png", max_height=1500)
        page = sys.argv[3] if len(sys.argv) > 3 else None
        if page:
            d.set_window_size(1400, 1000)
            d.get((site / "tasks" / page).as_uri())
            full_screenshot(d, out / "report-task.png", max_height=1500)
        print("console errors:", console_errors(d))
        print(
            "non-local requests:", [u for u in requests(d) if not u.startswith(("file:", "data:", "about:"))]
        )
    finally:
        d.quit()
