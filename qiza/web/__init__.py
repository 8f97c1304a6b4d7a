"""Browser play: ``qiza serve`` (FastAPI app, persistence, live updates, pages).

* :mod:`qiza.web.db` -- the database (SQLite by default, PostgreSQL by URL), migrations.
* :mod:`qiza.web.service` -- games on the server: the only authority, every action checked
  by the rules engine, applied once (compare-and-swap on a version counter).
* :mod:`qiza.web.app` -- the HTTP API, WebSocket and pages (:func:`create_app`).
* :mod:`qiza.web.server` -- the ``qiza serve`` subcommand.
* :mod:`qiza.web.guard`, :mod:`qiza.web.throttle`, :mod:`qiza.web.lexicons` -- body size and
  secrets-in-URL limits, the limit on wrong guesses, the lexicons clients may name.
"""
