"""The gRPC lookup service, a thin shell over the lookup core (guesswork.client.lookup).

* ``server``: ``create_server`` (build, bind, load the catalog; returns the
  server and its port), the request parsing and response mapping, limits,
  health and reflection;
* ``engine``: the catalog's lookups with the builder's live step for
  histories that leave a stored tree;
* ``local``: the same answers in process, for ``guesswork --store``;
* ``bee``: Spelling Bee answers;
* ``cache``: the one response cache;
* ``errors``: the one table from error classes to status codes and log levels;
* ``cli``: ``guesswork-serve``.
"""
