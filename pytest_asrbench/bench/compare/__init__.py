"""``asrbench bench compare``: two run records on the same manifest -> a dated decision."""
