"""The one lock under which the service imports the builder, on first use.

The service loads the builder (numpy, the compiled kernels) only when it first
needs it, so a stored answer never pays for it: a live answer, a proof of a
policy from outside (client.trust), a game analysis, a honeycomb search. Those
come from several threads at once: the warm-up, calls in flight, a catalog
reload. CPython imports safely from many threads only where modules are
entered in one order: a thread importing ``builder.optimal.problem`` holds that
module's lock while it imports the package ``builder.optimal``, whose
``__init__`` imports the package's other modules, so a second thread that came
in by another module of the package takes the same locks in the opposite
order, and one of the two is handed a half-made module (ImportError
"partially initialized module") or a ``_DeadlockError``. A live call during
warm-up ended INTERNAL that way (tests/service/test_lifecycle.py, CI).

So every import of the builder that the service makes after start-up is made
under :data:`BUILDER_IMPORT`, which tests/service/test_builder_import.py checks
for each such import in the service's modules. Once a module is imported, the
lock costs a lookup in ``sys.modules`` and an uncontended acquire.
"""

from __future__ import annotations

import threading

#: Held while the service imports a module of the builder on first use: one thread
#: at a time. Re-entrant, so that an import made under it may take it again.
BUILDER_IMPORT = threading.RLock()
