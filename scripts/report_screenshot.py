"""Regenerate docs/report.png: the HTML report of a run of the project's own cases, as
headless Chromium draws it (the browser test's driver, tests/browser.py).

    python scripts/report_screenshot.py [--cases cases] [--out docs/report.png] [--width 1200]
        [--height 1400] [--workers 2]

Runs ``python -m pytest --asrbench CASES --asrbench-report TMP.html`` from the repository root
(a run whose cases fail still gives a report, and its screenshot shows them), then saves the
top ``--height`` pixels of the page at ``--width`` (the tables and the chart; the failing or
changed cases follow below them). Needs Debian's chromium and chromium-driver and the test
extra (selenium).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import console_errors, headless_chromium, missing_browser, screenshot  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="cases")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=1400)
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (0: none)")
    args = parser.parse_args(argv)
    reason = missing_browser()
    if reason:
        print(f"report_screenshot: {reason}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder, "report.html")
        command = [sys.executable, "-m", "pytest", "--asrbench", args.cases, "-p", "no:cacheprovider", "-q",
                   "--asrbench-report", str(page)] + (["-n", str(args.workers)] if args.workers else [])
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if not page.exists():
            print(f"report_screenshot: the run wrote no report ({done.returncode}):\n{done.stdout[-2000:]}"
                  f"{done.stderr[-2000:]}", file=sys.stderr)
            return 1
        driver = headless_chromium(width=args.width, height=args.height)
        try:
            driver.get(page.as_uri())
            errors = console_errors(driver)
            if errors:
                print("report_screenshot: console errors:\n" + "\n".join(errors), file=sys.stderr)
                return 1
            screenshot(driver, args.out, full_page=False)
        finally:
            driver.quit()
    print(f"wrote {args.out} (run exit status {done.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
