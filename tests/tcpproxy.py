"""A TCP forwarder on loopback that can be cut (no tests here): the network between maild and its database
failing for real, the server itself untouched."""

from __future__ import annotations

import contextlib
import socket
import threading

from tests.servers import free_port


class TcpProxy:
    """Forwards connections to a loopback port on to `upstream`. `cut()` drops every connection and refuses new
    ones, as an unreachable server does; `mend()` forwards again, on the same port."""

    host = "127.0.0.1"

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.accepted = 0
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._listener: socket.socket | None = None
        self.mend()

    def mend(self) -> None:
        listener = socket.create_server((self.host, self.port))
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), name="tcp-proxy", daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        with self._lock:
            doomed = [*([listener] if listener else []), *self._open]
            self._open.clear()
        for sock in doomed:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes the threads blocked on it
            sock.close()

    def close(self) -> None:
        self.cut()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # cut
                return
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                self.accepted += 1
                self._open += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
