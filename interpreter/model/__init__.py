"""What every layer shares and that imports nothing above it: colors and directions as values, and the typed
content objects the loader builds and the engine reads (``content.py``)."""
