"""``fengsheng serve``: the browser table (a Starlette app with websockets, optional extra ``web``).

* ``tables.py`` — the tables the server holds: a game on the step API, a secret token per human seat, the
  bots; what each seat is sent, every action checked; the referee's log of a finished game.
* ``links.py`` — a human seat's secrets as kept (its key's and invitation's digests) and those handed to a host.
* ``view.py`` — a seat's screen as plain data in Chinese (from its observation and the legal actions
  only), and a log's records as the replay viewer shows them (the referee's or one seat's copy; its answer to an
  uploaded log, ``replay_answer``).
* ``guard.py`` — what the server lets in: allowed hosts and origins, JSON-only POSTs, its limits.
* ``store.py`` — where the tables are kept: an SQLite database (settings, key digests, every action), so a
  restarted server replays each table to where it was.
* ``keeping.py`` — a table to and from the database: what is kept of it, and the table replayed from it.
* ``unrestored.py`` — the tables kept but not restored at the start: still kept, answered 410 (never 404).
* ``expiry.py`` — how long a finished table is kept (``serve --keep-finished``): then gone at its next request.
* ``people.py`` — the people at a table: names, who is online, the chat (each checked; shown as text only).
* ``app.py`` — the ASGI app: the lobby, the table and replay pages (``static/``), the JSON API and the
  websocket of each seat.

Importing this package imports nothing of Starlette: ``app.py`` does.
"""
