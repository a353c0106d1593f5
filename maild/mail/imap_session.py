"""One aioimaplib connection: the client with its connection-lost event, commands raced against
that event and a timeout, and a teardown that leaves no aioimaplib task behind.

aioimaplib does not fail pending commands when the connection drops, and it keeps tasks and timers
of its own that it never ends; `guard` and `close_transport` cover both. Any connection-level
trouble becomes `Transient`: the inbox's supervisor drops the connection and reconnects later.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

import aioimaplib

T = TypeVar("T")


class Transient(Exception):
    """Connection-level trouble: drop the connection and try again later."""


@dataclass
class Session:
    client: aioimaplib.IMAP4
    lost: asyncio.Event  # set by aioimaplib's conn_lost_cb
    uidvalidity: int = 0
    capabilities: frozenset[str] = frozenset()
    delimiter: str | None = None  # the server's folder hierarchy separator ("." in Dovecot's Maildir)


async def guard(session: Session, awaitable: Awaitable[T], limit: float | None) -> T:
    """Await an aioimaplib call, failing fast if the connection drops or no answer comes in `limit` s.

    `limit` None leaves only aioimaplib's own inactivity timeout.
    """
    task = asyncio.ensure_future(awaitable)
    lost = asyncio.ensure_future(session.lost.wait())
    try:
        done, _ = await asyncio.wait([task, lost], timeout=limit, return_when=asyncio.FIRST_COMPLETED)
    finally:
        lost.cancel()
        if not task.done():
            task.cancel()
    if task in done:
        try:
            return task.result()
        except (aioimaplib.AioImapException, OSError) as exc:  # OSError covers TimeoutError, ssl errors
            raise Transient(describe(exc)) from exc
    if session.lost.is_set():
        raise Transient("connection lost")
    raise Transient(f"no answer within {limit} s")


def close_transport(client: aioimaplib.IMAP4) -> None:
    # aioimaplib keeps its connect task, IDLE task and timer privately and never ends them when the
    # connection goes; cancel them so nothing lingers (or is destroyed while pending).
    if not client._client_task.done():
        client._client_task.cancel()
    if client._idle_waiter is not None:
        client._idle_waiter.cancel()
    for task in [*client.tasks, *client.protocol.tasks]:
        task.cancel()
    transport = client.protocol.transport
    if transport is not None and not transport.is_closing():
        transport.close()


def describe(exc: BaseException) -> str:
    if isinstance(exc, aioimaplib.CommandTimeout):
        return f"command timed out: {exc.command!r}"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
