"""Options that several ``fengsheng`` commands share, declared once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def content_option(
    help: str = "content pack directory (repeat to layer packs; default: the bundled content)",
) -> Callable[[Any], Any]:
    """``--content DIR`` (repeatable), an existing folder, passed as ``content_dirs``."""
    return click.option(
        "--content", "content_dirs", multiple=True, type=click.Path(exists=True, file_okay=False), help=help
    )
