"""Reviewer-example intake: ``asrbench add-case`` turns one reviewer's example into a case.

:mod:`.add_case` builds the case, gives it an id, refuses a duplicate and appends it to its
case file with the file's comments, order and style kept (ruamel.yaml round-trip);
:mod:`.cli` runs the new case once with ``--snapshot-update`` so its snapshot is recorded.
"""
