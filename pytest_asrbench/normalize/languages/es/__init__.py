"""Spanish (``es``): the rules of ``configs/es.toml`` that cannot be data.

Its numbers are data only (the generic ``spoken_numbers``, ``written_ordinals`` and
``amounts`` steps with the ``[options.<step>]`` tables of ``configs/es.toml``); this
package declares the libraries their output depends on. Language steps, when a rule cannot be
data, go in modules here with the skeleton of ``de/`` (``numbers.py``, ``words.py``).
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "es"
#: Distributions whose output feeds this language's steps (their versions go into the metric
#: signatures): text2num parses the number words (the generic ``spoken_numbers`` step).
LIBRARIES: tuple[str, ...] = ("text2num",)
