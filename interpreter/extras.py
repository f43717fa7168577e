"""How to install one of fengsheng's optional extras (web, balance, rl …), said by the command that needs it.

The command names the extra's own packages, read from the installed fengsheng's metadata (``pip install
'starlette>=0.37' 'uvicorn>=0.29' 'websockets>=12'``), not ``pip install 'fengsheng[web]'``: fengsheng is installed
from a checkout or a wheel, not from PyPI, so that command works only where pip finds this very fengsheng installed
in the same environment — elsewhere it would fetch whatever a stranger published under the name. Run from a
checkout that was never installed, there is no metadata: the checkout's own form (``pip install -e '.[web]'``).
"""

from __future__ import annotations

import re
import shlex

DISTRIBUTION = "fengsheng"
_EXTRA_MARKER = re.compile(r"""^\s*extra\s*==\s*["']([\w.-]+)["']\s*$""")


def extra_requirements(extra: str) -> list[str]:
    """The requirements the installed fengsheng lists for `extra` (``starlette>=0.37`` …), in its order; [] when
    fengsheng is not installed (a checkout run as it is) or lists none."""
    from importlib import metadata

    try:
        listed = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    found = []
    for line in listed:
        requirement, _, marker = line.partition(";")
        m = _EXTRA_MARKER.match(marker)
        if m is not None and m.group(1) == extra:
            found.append(requirement.strip())
    return found


def install_command(extra: str) -> str:
    """The words that say how to install `extra`: its packages by name, and the form for a checkout."""
    checkout = f"python3 -m pip install -e '.[{extra}]'"
    packages = extra_requirements(extra)
    if not packages:
        return f"in a checkout of fengsheng: {checkout}"
    named = " ".join(shlex.quote(p) for p in packages)
    return f"python3 -m pip install {named} (in a checkout of fengsheng: {checkout})"
