"""Statistics of corpus scores: the cluster bootstrap (:mod:`.bootstrap`).

numpy is imported inside the functions that need it, so importing this package loads nothing
heavy; the ``bench`` extra installs numpy.
"""
