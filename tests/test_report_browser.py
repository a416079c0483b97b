"""The HTML report in a real headless browser (Debian's Chromium through Selenium): the page
renders, the tables and the chart are there, no console error occurs (nothing is fetched:
every host resolves to nothing), the filters work with JavaScript and the page reads
without it. Skipped, with the reason, where no Chromium or chromedriver is installed."""

from __future__ import annotations

import pytest

from tests.browser import console_errors, headless_chromium, missing_browser, screenshot
from tests.test_plugin import project, write  # noqa: F401 - the pytester fixture
from tests.test_reports import DRIFTED, GOOD

pytestmark = pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser()))

MIXED = """
language: hi
cases:
  - id: code-switch
    kind: score
    reference: मेरी flight कल है
    hypothesis: मेरी fight कल है
    expect: {rate: 0.0}
"""


@pytest.fixture
def page(project, tmp_path):
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    write(project, "cases/en/a.yaml", DRIFTED)
    write(project, "cases/hi/b.yaml", MIXED)
    result = project.runpytest("--asrbench", "cases", "--asrbench-report", "report.html")
    result.assert_outcomes(passed=2, failed=2)
    return project.path / "report.html"


def test_the_report_renders_with_its_table_and_chart_and_no_console_error(page, tmp_path):
    driver = headless_chromium()
    try:
        driver.get(page.as_uri())
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        rows = driver.find_elements(By.CSS_SELECTOR, "#languages tbody tr")
        assert [row.find_element(By.TAG_NAME, "td").text for row in rows] == ["en", "hi"]
        chart = driver.find_element(By.ID, "rate-chart")
        assert chart.is_displayed() and chart.size["height"] > 40
        bars = chart.find_elements(By.CSS_SELECTOR, "g.bar rect")
        assert len(bars) == 2 and all(float(bar.get_attribute("width")) > 0 for bar in bars)
        cases = driver.find_elements(By.CSS_SELECTOR, "#cases article.case")
        assert len(cases) == 2 and all(case.is_displayed() for case in cases)
        assert driver.find_element(By.ID, "filters").is_displayed()
        Select(driver.find_element(By.ID, "filter-language")).select_by_value("hi")
        assert [case.is_displayed() for case in cases] == [False, True]
        assert driver.find_element(By.ID, "shown-count").text == "1"
        Select(driver.find_element(By.ID, "filter-language")).select_by_value("")
        Select(driver.find_element(By.ID, "filter-kind")).select_by_value("equal")
        assert driver.find_element(By.ID, "shown-count").text == "0"
        shot = tmp_path / "report.png"
        screenshot(driver, shot)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
        assert console_errors(driver) == []
    finally:
        driver.quit()


def test_the_report_reads_without_javascript(page):
    driver = headless_chromium(javascript=False)
    try:
        driver.get(page.as_uri())
        from selenium.webdriver.common.by import By

        assert not driver.find_element(By.ID, "filters").is_displayed()
        assert len([case for case in driver.find_elements(By.CSS_SELECTOR, "#cases article.case")
                    if case.is_displayed()]) == 2
        assert driver.find_element(By.ID, "rate-chart").is_displayed()
        assert console_errors(driver) == []
    finally:
        driver.quit()


THAI = """
language: th
cases:
  - id: tone-marks
    kind: score
    reference: ไม่ใช่ครับ น้ำแข็ง
    hypothesis: ไม่ไช่คับ นำแข้ง
    expect: {rate: 0.0}
"""


def test_no_thai_alignment_cell_starts_with_a_combining_mark(project):
    write(project, "cases/th/a.yaml", THAI)
    project.runpytest("--asrbench", "cases", "--asrbench-report", "report.html").assert_outcomes(failed=1)
    driver = headless_chromium()
    try:
        driver.get((project.path / "report.html").as_uri())
        cells = driver.execute_script(
            "return Array.from(document.querySelectorAll('article[data-language=th] table.alignment "
            "tr:not(.marks) td')).map(function (td) { return td.textContent; });")
        assert len(cells) >= 8 and any("่" in cell for cell in cells)
        starting = driver.execute_script(
            "return arguments[0].filter(function (text) { return /^\\p{M}/u.test(text); });", cells)
        assert starting == []
        transcripts = driver.find_elements("css selector", "article[data-language=th] dl.texts dd")
        assert [dd.text for dd in transcripts] == ["ไม่ใช่ครับ น้ำแข็ง", "ไม่ไช่คับ นำแข้ง"]
        assert console_errors(driver) == []
    finally:
        driver.quit()
