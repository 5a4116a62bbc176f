"""The report in a real browser: headless Chromium opens the site from file://.

Checks: no console error on any page visited, no request that is not a local file, the filter
hides and shows catalogue rows, a task page opens from the catalogue, the injected script did
not run; screenshots are saved in the test's temporary folder. Marked ``browser`` and ``slow``:
``.ci/run`` runs it as its own step (``pytest -m browser``) after installing Chromium when it can;
it skips with a message when Chromium, chromedriver or Selenium is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from report_browser import console_errors, open_browser, requests, unavailable
from report_fixtures import make_evaluation, make_run
from veriscale.report.site import build_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _local(url: str) -> bool:
    return url.startswith(("file://", "data:", "about:"))


def test_report_in_headless_chromium(tmp_path: Path) -> None:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    site = tmp_path / "site"
    build_site([make_evaluation(tmp_path), make_run(tmp_path)], site)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    d = open_browser()
    try:
        seen: list[str] = []
        d.get((site / "index.html").as_uri())
        assert d.find_elements(By.CSS_SELECTOR, "svg.chart rect"), "the chart has no bars"
        d.save_screenshot(str(shots / "overview.png"))
        errors = console_errors(d)
        seen += requests(d)

        d.get((site / "tasks.html").as_uri())
        rows = d.find_elements(By.CSS_SELECTOR, "#catalogue tbody tr")
        assert rows

        def visible() -> list[str]:
            return [
                r.get_attribute("data-task") + "/" + r.get_attribute("data-model")
                for r in rows
                if r.is_displayed()
            ]

        assert len(visible()) == len(rows)
        Select(d.find_element(By.ID, "f-model")).select_by_value("hostile")
        Select(d.find_element(By.ID, "f-metric")).select_by_value("code")
        Select(d.find_element(By.ID, "f-status")).select_by_value("fail")
        shown = visible()
        assert shown and all(s.endswith("/hostile") for s in shown)
        assert len(shown) < len(rows)
        box = d.find_element(By.ID, "f-task")
        box.send_keys("tiny_1")
        assert visible() == ["tiny_1/hostile"]
        assert d.find_element(By.ID, "f-count").text.startswith("1 of ")
        d.save_screenshot(str(shots / "filter.png"))
        Select(d.find_element(By.ID, "f-status")).select_by_value("pass")
        assert visible() == []  # the hostile code passes nothing
        errors += console_errors(d)
        seen += requests(d)

        link = next(r for r in rows if r.get_attribute("data-task") == "tiny_1").find_element(
            By.TAG_NAME, "a"
        )
        d.execute_script("arguments[0].click();", link)
        assert d.current_url.endswith("tasks/tiny_1.html")
        assert "tiny_1" in d.title
        assert d.find_elements(By.CSS_SELECTOR, "pre.hl")
        assert d.execute_script("return typeof window.__pwned") == "undefined"
        text = d.find_element(By.TAG_NAME, "main").text
        assert "<script>window.__pwned" in text  # shown as text
        d.save_screenshot(str(shots / "task.png"))
        errors += console_errors(d)
        seen += requests(d)
    finally:
        d.quit()
    assert errors == []
    assert seen, "the network log recorded nothing"
    assert [u for u in seen if not _local(u)] == []
    for name in ("overview.png", "filter.png", "task.png"):
        assert (shots / name).stat().st_size > 1000
