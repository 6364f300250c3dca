"""The HTML leaderboard as a user sees it: headless Chromium sorts, shows no errors, runs no planted script."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from fakeruns import PLANTED, PLANTED_CHUNK, PLANTED_CODE, PLANTED_RULE

CHROMIUM = os.environ.get("HERMES_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("HERMES_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")
EVENT_WAIT_S = 120  # the longest wait for an asynchronous page event before the test gives up


def _require_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (Path(p).exists() or shutil.which(p))]
    if missing:
        msg = f"needs {', '.join(missing)}: apt-get install -y chromium chromium-driver"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


@pytest.fixture
def browser(tmp_path):
    _require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path / 'profile'}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


def _systems(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [td.text for td in driver.find_elements(By.CSS_SELECTOR, "table.lb tbody tr td:nth-child(2)")]


def test_leaderboard_in_chromium(built, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get((built / "leaderboard.html").resolve().as_uri())
    assert browser.title == "hermes-eval leaderboard"
    before = _systems(browser)
    assert len(before) == 3

    header = next(th for th in browser.find_elements(By.CSS_SELECTOR, "table.lb thead th") if th.text == "p95 ms")
    header.click()
    after = _systems(browser)
    assert after != before and sorted(after) == sorted(before)
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert _systems(browser) == list(reversed(after))

    box = browser.find_element(By.CSS_SELECTOR, "input.filter")
    box.send_keys("python_ast")
    visible = [tr for tr in browser.find_elements(By.CSS_SELECTOR, "table.lb tbody tr") if tr.is_displayed()]
    assert len(visible) == 1 and "python_ast" in visible[0].text
    box.clear()
    box.send_keys(" ")  # an input event with no terms shows every row again

    page = browser.find_element(By.TAG_NAME, "body").text
    assert PLANTED.split(" ")[0] in page  # the planted query is shown as text...
    assert PLANTED_CHUNK in page          # ...and so is the planted chunk id
    assert "<script>window.__pwned=4</script>" in page  # and the planted error
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert browser.title == "hermes-eval leaderboard"

    browser.save_screenshot(str(tmp_path / "leaderboard.png"))
    notable = browser.find_element(By.CSS_SELECTOR, "table.notable")
    browser.execute_script("arguments[0].scrollIntoView()", notable)
    notable.screenshot(str(tmp_path / "planted.png"))
    assert (tmp_path / "leaderboard.png").stat().st_size > 10_000

    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == []


def test_gate_trends_linked_from_the_leaderboard_in_chromium(built, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get((built / "leaderboard.html").resolve().as_uri())
    browser.find_element(By.CSS_SELECTOR, "a.gate-trends").click()
    assert browser.title == "hermes-eval gate trends"
    figures = {f.get_attribute("data-rule"): f for f in browser.find_elements(By.CSS_SELECTOR, "figure.rule")}
    assert set(figures) == {"quality/bm25/ndcg@10", "latency/hybrid/total", PLANTED_RULE}
    latency = figures["latency/hybrid/total"]
    points = latency.find_elements(By.CSS_SELECTOR, "svg circle.pt")
    assert [p.get_attribute("class").split()[-1] for p in points] == ["pass", "fail", "inconclusive", "pass"]
    assert len(latency.find_elements(By.CSS_SELECTOR, "svg rect.band")) == 4  # the tolerance band, per run
    assert latency.find_elements(By.CSS_SELECTOR, "svg polyline.baseline")  # the baseline line
    band = latency.find_elements(By.CSS_SELECTOR, "svg rect.band")[0].rect
    fail = points[1].rect  # the 1.32x run is drawn above the band that ends at 1.2x
    assert fail["y"] + fail["height"] / 2 < band["y"]
    assert latency.get_attribute("data-status") == "pass" and figures["quality/bm25/ndcg@10"].size["height"] > 100
    assert PLANTED_RULE in browser.find_element(By.TAG_NAME, "body").text  # shown as text, not run
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    latency.screenshot(str(tmp_path / "trend.png"))
    assert (tmp_path / "trend.png").stat().st_size > 2000
    assert [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"] == []


def test_query_explorer_in_chromium(built, browser, tmp_path):
    """The explorer is drawn only when opened; its filters narrow the queries; a query opens with
    its gold code and both arms' results; planted script in query, chunk id and code stays text."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get((built / "leaderboard.html").resolve().as_uri())
    # the data came from its own script beside the page (explorer/toy-qs.js), under the page's CSP
    assert browser.execute_script("return Object.keys(window.HERMES_EXPLORER || {})") == ["toy-qs"]
    assert not browser.find_element(By.CSS_SELECTOR, "p.missing-data").is_displayed()
    box = browser.find_element(By.CSS_SELECTOR, "details.explorer")
    assert box.find_elements(By.CSS_SELECTOR, ".ex-root *") == []  # nothing drawn before it is opened
    browser.execute_script("arguments[0].scrollIntoView()", box)
    box.find_element(By.TAG_NAME, "summary").click()
    # a <details> fires "toggle" after the click returns (the event is queued): wait for the drawing it
    # triggers, however busy the machine (a wait on an event, no time asserted)
    count = WebDriverWait(browser, EVENT_WAIT_S).until(lambda _: box.find_element(By.CSS_SELECTOR, ".ex-count"))
    rows = lambda: box.find_elements(By.CSS_SELECTOR, "tr.ex-row")  # noqa: E731
    assert count.text == "24 of 24 queries" and len(rows()) == 24

    Select(box.find_element(By.CSS_SELECTOR, "select.ex-stratum")).select_by_visible_text("repo: alpha (12)")
    assert count.text == "12 of 24 queries"
    assert all("alpha" in r.find_elements(By.TAG_NAME, "td")[2].text for r in rows())
    Select(box.find_element(By.CSS_SELECTOR, "select.ex-outcome")).select_by_value("miss")
    missed = rows()
    assert missed and all(r.find_elements(By.TAG_NAME, "td")[7].text == "gold ranked below k" for r in missed)
    assert int(count.text.split()[0]) == len(missed) < 12
    Select(box.find_element(By.CSS_SELECTOR, "select.ex-outcome")).select_by_value("all")
    Select(box.find_element(By.CSS_SELECTOR, "select.ex-stratum")).select_by_value("")
    search = box.find_element(By.CSS_SELECTOR, "input.ex-search")
    search.send_keys("q00")
    assert count.text == "1 of 24 queries"

    planted = rows()[0]
    assert PLANTED.split(" ")[0][:20] in planted.text  # the planted query is shown as text
    planted.click()
    detail = box.find_element(By.CSS_SELECTOR, "tr.ex-detail")
    code = detail.find_element(By.CSS_SELECTOR, "pre.ex-code").get_attribute("textContent")
    assert "window.__pwned=6" in code and code.startswith("# alpha/mod0.py line 3")
    assert PLANTED_CODE.split("\u2028")[0] in code
    columns = detail.find_elements(By.CSS_SELECTOR, ".ex-results")
    assert len(columns) == 2  # the arm and the one it is set against
    first = columns[0].find_element(By.CSS_SELECTOR, "li")
    assert PLANTED_CHUNK in first.text and "ex-miss" in first.get_attribute("class")
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert browser.title == "hermes-eval leaderboard"

    box.screenshot(str(tmp_path / "explorer.png"))
    assert (tmp_path / "explorer.png").stat().st_size > 10_000
    planted.click()  # closes again
    assert box.find_elements(By.CSS_SELECTOR, "tr.ex-detail") == []
    assert [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"] == []


def test_a_page_without_its_built_files_says_what_to_run_in_one_line(built, browser, tmp_path):
    """The page alone (its charts and explorer data are build outputs, not tracked): everything else
    works, and one line at the top names the command that builds the rest."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page = tmp_path / "board" / "leaderboard.html"
    page.parent.mkdir()
    page.write_bytes((built / "leaderboard.html").read_bytes())
    browser.get(page.resolve().as_uri())
    note = WebDriverWait(browser, EVENT_WAIT_S).until(  # shown on the page's load event
        lambda d: d.find_element(By.CSS_SELECTOR, "p.missing-data") if d.find_element(
            By.CSS_SELECTOR, "p.missing-data").is_displayed() else False)
    assert "make boards" in note.text and "\n" not in note.text
    body = browser.find_element(By.TAG_NAME, "body").text
    assert body.count("make boards") == 1  # one line says it
    assert len(_systems(browser)) == 3  # the tables are all there
    box = browser.find_element(By.CSS_SELECTOR, "details.explorer")
    browser.execute_script("arguments[0].scrollIntoView()", box)
    box.find_element(By.TAG_NAME, "summary").click()
    missing = WebDriverWait(browser, EVENT_WAIT_S).until(lambda _: box.find_element(By.CSS_SELECTOR, ".ex-no-data"))
    assert "explorer/toy-qs.js" in missing.text and "make boards" not in missing.text
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors and all(e.get("source") == "network" and "ERR_FILE_NOT_FOUND" in e["message"] for e in errors)
