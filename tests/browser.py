"""Headless Chromium for the HTML report's tests and ``scripts/report_screenshot.py``: Debian's
``chromium`` driven by Selenium through Debian's ``chromium-driver`` (same version as the
browser, so no driver is downloaded). The name resolver maps every host to nothing, so a page
that tried to fetch a resource would log a console error."""

from __future__ import annotations

import shutil
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser")
DRIVERS = ("chromedriver",)
INSTALL = "apt-get install -y chromium chromium-driver (as root; .ci/run does it where it can)"


def _which(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
        if found:
            return found
    return None


def missing_browser() -> str | None:
    """Why no headless Chromium can run here (a sentence for a skip), or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]'"
    if _which(BROWSERS) is None:
        return f"no Chromium binary (chromium) on this machine: {INSTALL}"
    if _which(DRIVERS) is None:
        return f"no chromedriver on this machine: {INSTALL}"
    return None


def headless_chromium(*, javascript: bool = True, width: int = 1280, height: int = 1000):
    """A Selenium Chrome driver on a headless Chromium that logs console messages; the caller
    quits it. Raises RuntimeError when :func:`missing_browser` names a reason."""
    reason = missing_browser()
    if reason:
        raise RuntimeError(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _which(BROWSERS)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--host-resolver-rules=MAP * ~NOTFOUND",
                     "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=_which(DRIVERS)))


def console_errors(driver) -> list[str]:
    """The console messages of level SEVERE logged so far (errors, failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def screenshot(driver, path: Path, *, full_page: bool = True) -> None:
    """Save a PNG of the page; ``full_page`` first makes the window as tall as the document."""
    if full_page:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(driver.get_window_size()["width"], min(int(height) + 40, 16000))
    driver.save_screenshot(str(path))
