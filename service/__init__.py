"""The gRPC lookup service, a thin shell over the application core (guesswork.client.core).

* ``server``: ``create_server`` (build and bind; ``start`` loads the catalog
  and serves), the transport around each call (limits, parsing, the cache,
  errors), health and reflection;
* ``servicer``: each call's request as the core's arguments, its answer as the
  response (client.messages maps both);
* ``local``: ``LocalGuesswork``, the core answered in process (the catalog's
  lookups with the builder's live step for histories that leave a stored
  tree, and game analysis), for the servicer and for ``guesswork --store``;
* ``live_gate``: how many live computations run at once, and the builder's live
  solver behind that gate;
* ``bee``: Spelling Bee answers;
* ``cache``: the one response cache;
* ``errors``: the one table from error classes to status codes and log levels;
* ``cli``: ``guesswork-serve``.
"""
