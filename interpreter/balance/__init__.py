"""The balance lab: sweeps of games over a grid (player counts × agents × packs) and their reports.

``records.py`` is what a sweep writes and how it is read back (plain data); ``sweep.py`` plays the
grid on local processes or a Ray cluster; the reports read the records (``fengsheng balance``).
"""
