"""File-based scoring: ``asrbench score --references REF --hypotheses HYP`` (:mod:`.cli`), reading
transcript files in four formats (:mod:`.formats`)."""
