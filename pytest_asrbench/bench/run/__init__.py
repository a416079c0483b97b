"""``asrbench bench run``: a manifest through the shipping engine into an ``asrbench.bench/1``
record (the Mandarin protocol's "required measurement record").

- :mod:`.views`: the four CER views of each pair (``score(..., "zh").details``), summed;
- :mod:`.critical`: critical tokens (digits, dates, Latin words, codes) and their failures;
- :mod:`.longform`: CER by interval of long-form rows;
- :mod:`.measure`: wall and CPU time, peak RSS, latency percentiles;
- :mod:`.provenance`: model, licence, runtime, host and corpus sections;
- :mod:`.settings`: what the run was asked for (the settings every executor builds its engines from);
- :mod:`.executors`: where clips are decoded: this process, or a pool of Ray actors (:mod:`.errors`);
- :mod:`.runner`: the scoring loop and the record;
- :mod:`.schema`: the shipped JSON Schema (``record.schema.json``) and its validation;
- :mod:`.smoke`: ``--smoke``, a schema-valid record with no model, audio or network;
- :mod:`.cli`: the command.
"""
