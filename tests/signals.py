"""For tests that interrupt a child process.

A process started in the background by a non-interactive shell (as CI may start the test
run) inherits SIGINT *ignored*, and Python then installs no KeyboardInterrupt handler, so a
child sent SIGINT would simply go on. :func:`restore_default_sigint`, given to ``Popen`` as
``preexec_fn``, gives the child the default disposition, as a terminal's Ctrl-C would find it.
"""

from __future__ import annotations

import signal


def restore_default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
