"""A mail server that accepts connections and never says a word (no tests here): what a hung SMTP server, or a
firewall that lets the handshake through, looks like to a client."""

from __future__ import annotations

import socket
import threading
from types import TracebackType


class SilentServer:
    """Listens on a loopback port, accepts every connection and holds it open, sending nothing."""

    host = "127.0.0.1"

    def __init__(self) -> None:
        self._sock = socket.create_server((self.host, 0))
        self.port: int = self._sock.getsockname()[1]
        self.accepted = 0
        self._held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, name="silent-server", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:  # closed
                return
            self.accepted += 1
            self._held.append(conn)

    def close(self) -> None:
        self._sock.close()
        for conn in self._held:
            conn.close()

    def __enter__(self) -> SilentServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
