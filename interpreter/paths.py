"""Where the bundled content, the schemas and the docs are, in a checkout and in an installed package alike.

A leaf module. ``interpreter/bundled/content``, ``interpreter/bundled/schema``
and ``interpreter/bundled/docs`` are symbolic links to the top-level
``content/``, ``schema/`` and ``docs/`` of the repository (where designers and
writers edit them); building a wheel copies what they point
to into the package, so a plain ``pip install`` (not editable) has them too.
Resolving the links gives the repository's own paths in a checkout, so error
messages name ``content/cards/…`` there. A checkout made without symbolic links
(Git for Windows by default) has small text files in their place: then the
repository's folders are used directly.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    path = (PACKAGE / "bundled" / name).resolve()
    checkout = PACKAGE.parent / name
    if not path.is_dir() and checkout.is_dir():  # the link was checked out as a file holding its target
        return checkout.resolve()
    return path


BUNDLED_CONTENT = _bundled("content")
SCHEMA_DIR = _bundled("schema")
DOCS_DIR = _bundled("docs")  # `fengsheng docs PAGE` prints them: an installed user has no checkout to read
