"""A balance sweep on a Ray cluster (``--backend ray``, the optional extra `balance`): each worker loads a pack's
content from its folders once and checks its fingerprint and the engine's against the grid's; chunks are handed
out as on local workers (sweep.py), and a node that cannot play stops the sweep with what is done kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..sim import content_fingerprint
from .grid import CHUNK_SECONDS, CHUNKS_AHEAD, MAX_CHUNK, Chunker, SweepError, engine_fingerprint, play_record
from .records import Cell, GameRecord, SweepSpec

# Content a Ray worker has loaded, by its folders: (content, fingerprint). A worker process plays many chunks.
_RAY_CONTENT: dict[tuple[str, ...], tuple[Any, str]] = {}


def _ray_chunk(
    paths: tuple[str, ...],
    fingerprint: str,
    seed: int,
    max_turns: int | None,
    cell: dict[str, Any],
    indices: list[int],
    engine: str = "",
    pins: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """A chunk played by a Ray worker (its records as plain data, and the seconds they took): the pack's content
    is loaded once per worker process, and must be the content the grid was made with, played by the same
    fengsheng code."""
    if engine and engine_fingerprint() != engine:
        import socket

        raise SweepError(
            f"the fengsheng code on {socket.gethostname()} is not the sweep's (engine {engine_fingerprint()}, the "
            f"sweep's {engine}): install the same fengsheng on every node"
        )
    if paths not in _RAY_CONTENT:
        from ..content.loader import load_content

        loaded = load_content(list(paths))
        _RAY_CONTENT[paths] = (loaded, content_fingerprint(loaded))
    content, found = _RAY_CONTENT[paths]
    if found != fingerprint:
        import socket

        raise SweepError(
            f"the content at {', '.join(paths)} on {socket.gethostname()} is not the content of the grid "
            f"(fingerprint {found}, the grid's {fingerprint}): every node needs the same packs at the same "
            "absolute paths"
        )
    import time

    c = Cell.from_dict(cell)
    start = time.perf_counter()
    records = [play_record(content, c, i, seed, max_turns, pins).to_dict() for i in indices]
    return records, time.perf_counter() - start


def run_ray(
    spec: SweepSpec,
    paths: dict[str, tuple[str, ...]],
    work: list[tuple[Cell, list[int]]],
    jobs: int,
    address: str | None,
    take: Callable[[list[GameRecord]], None],
    lost: Callable[[], str],
) -> None:
    try:
        import ray
    except ImportError:
        from ..extras import install_command

        needs = install_command("balance")
        raise SweepError(f"--backend ray needs Ray, the optional extra `balance`: {needs}") from None
    started = False
    if not ray.is_initialized():
        if address:
            _reachable(address)
        try:
            import logging

            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as e:  # Ray's own errors: no cluster at the address, a port in use …
            raise SweepError(f"Ray did not start{f' at {address}' if address else ''}: {_one_line(e)}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        fingerprints = {p.name: p.fingerprint for p in spec.packs}
        remote = ray.remote(_ray_chunk).options(max_retries=2)
        chunker = Chunker(work, seconds=2 * CHUNK_SECONDS, most=2 * MAX_CHUNK)  # a task costs more on Ray
        pending: dict[Any, Cell] = {}

        def hand_out(n: int) -> None:
            for _ in range(n):
                nxt = chunker.next()
                if nxt is None:
                    return
                cell, indices = nxt
                ref = remote.remote(
                    paths[cell.pack],
                    fingerprints[cell.pack],
                    spec.seed,
                    spec.max_turns,
                    cell.to_dict(),
                    indices,
                    spec.engine,
                    spec.pins,
                )
                pending[ref] = cell

        hand_out(cpus * (1 + CHUNKS_AHEAD))
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                cell = pending.pop(ref)
                try:
                    dicts, seconds = ray.get(ref)
                except Exception as e:  # a worker lost, or the content check of a node
                    for r in pending:
                        ray.cancel(r, force=True)
                    cause = getattr(e, "cause", None)
                    text = str(cause) if isinstance(cause, SweepError) else _one_line(e)
                    raise SweepError(f"a Ray task failed: {text}; {lost()}") from None
                chunker.played(cell, len(dicts), seconds)
                take([GameRecord.from_dict(d) for d in dicts])
                hand_out(1)
    finally:
        if started:
            ray.shutdown()


def address_problem(address: str) -> str | None:
    """What is wrong with an --address, or None: HOST:PORT, ``auto`` or a ``ray://`` client address."""
    if address == "auto" or "://" in address:
        return None
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        return f"{address!r}: give the Ray head's HOST:PORT (e.g. 10.0.0.5:6379), auto, or ray://HOST:PORT"
    return None


def _reachable(address: str, timeout: float = 5.0) -> None:
    """A cluster's HOST:PORT answers (Ray itself would wait minutes for a head that is not there)."""
    import socket

    if address == "auto" or "://" in address:
        return  # the local cluster's address file, or a Ray client address: Ray checks those itself
    wrong = address_problem(address)
    if wrong:
        raise SweepError(wrong)
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise SweepError(
            f"no Ray cluster answers at {address} ({e.strerror or e}): start one with `ray start --head` there, "
            "or leave --address out to start a local Ray instance"
        ) from None


def _one_line(e: BaseException, limit: int = 600) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
