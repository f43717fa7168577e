"""The balance lab: sweeps of games over a grid (player counts × agents × packs) and their reports.

``records.py`` is what a sweep writes and how it is read back (plain data); ``grid.py`` the grid, its
directory and one game; ``sweep.py`` plays the grid on local processes, ``ray_backend.py`` on a Ray cluster.
The reports read the records (``fengsheng balance``): ``report.py`` builds one as plain data (``stats.py``,
``pack_facts.py``), ``terminal.py``, ``html.py`` and ``charts.py`` render it; ``compare.py`` and ``paired.py``
compare two sweeps (``html_compare.py``). Their words, Chinese and English, are ``messages.py``'s (one
catalogue), put into sentences by ``words.py``.
"""
