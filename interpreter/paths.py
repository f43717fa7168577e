"""Where the bundled content and the schemas are, in a checkout and in an installed package alike.

A leaf module. ``interpreter/bundled/content`` and ``interpreter/bundled/schema``
are symbolic links to the top-level ``content/`` and ``schema/`` of the
repository (where designers edit them); building a wheel copies what they point
to into the package, so a plain ``pip install`` (not editable) has them too.
Resolving the links gives the repository's own paths in a checkout, so error
messages name ``content/cards/…`` there.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
BUNDLED_CONTENT = (PACKAGE / "bundled" / "content").resolve()
SCHEMA_DIR = (PACKAGE / "bundled" / "schema").resolve()
