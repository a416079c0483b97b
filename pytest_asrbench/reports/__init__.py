"""Reports of a ``pytest --asrbench`` run: the terminal summary (:mod:`.summary`), the
Markdown summary for CI step summaries (:mod:`.markdown`) and the self-contained HTML report
(:mod:`.html`, its chart in :mod:`.chart`), all rendered from one :class:`.model.RunReport`;
:mod:`.write` checks and writes the files. The pytest glue is :mod:`.pytest_hooks` (plugin
layer). docs/reports.md shows each output.
"""
