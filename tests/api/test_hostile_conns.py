"""Red team, issue 34 item 4: no lockout by idle connections.

A client holding its address's whole connection budget with idle sockets,
reopening each one as it is dropped, once shut out every other client of
that address (0 of 20 health probes): behind a NAT, a login node or the
documented nginx front, the whole service. Now a full address or server
makes room by dropping its longest idle connection, as nginx and h2o do, and
idle connections wait --idle-timeout (not the request timeout) for a
request line; a connection in the middle of a request is never dropped."""
import socket
import threading
import time

from prophecy_test import Server, report, test


def health(port, source):
    """GET /api/v1/health from source; the status, or None without one."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                     source_address=(source, 0))
    except OSError:
        return None
    try:
        s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    finally:
        s.close()
    return int(data.split()[1]) if data.startswith(b"HTTP/1.1 ") else None


class Holder:
    """Keeps n idle connections from source open, reopening each one the
    server drops, until stopped."""

    def __init__(self, port, source, n):
        self.port, self.source, self.n = port, source, n
        self.socks = []
        self.reopened = 0
        self.stop = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def open(self):
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                         source_address=(self.source, 0))
            s.setblocking(False)
            return s
        except OSError:
            return None

    def run(self):
        while not self.stop:
            alive = []
            for s in self.socks:
                try:
                    if s.recv(1) == b"":
                        s.close()
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
                    continue
                alive.append(s)
            while len(alive) < self.n and not self.stop:
                s = self.open()
                if s is None:
                    break
                alive.append(s)
                self.reopened += 1
            self.socks = alive
            time.sleep(0.005)

    def close(self):
        self.stop = True
        self.t.join()
        for s in self.socks:
            s.close()


@test
def one_address_holding_its_budget_does_not_lock_it_out():
    k = Server("--max-conns-per-client", "16", "--request-timeout", "30")
    try:
        h = Holder(k.port, "127.0.0.2", 16)
        time.sleep(0.5)
        got = [health(k.port, "127.0.0.2") for _ in range(20)]
        t = time.time()
        while h.reopened <= 16 and time.time() - t < 5:
            time.sleep(0.05)  # the holder sees its dropped sockets and reopens them
        h.close()
        assert got == [200] * 20, got
        assert h.reopened > 16, h.reopened
    finally:
        k.close()


@test
def a_full_server_drops_its_longest_idle_connection():
    k = Server("--max-conns", "32", "--max-conns-per-client", "32",
               "--request-timeout", "30")
    try:
        h = Holder(k.port, "127.0.0.3", 32)
        time.sleep(0.5)
        got = [health(k.port, "127.0.0.4") for _ in range(10)]
        got += [health(k.port, "127.0.0.3") for _ in range(10)]
        h.close()
        assert got == [200] * 20, got
    finally:
        k.close()


@test
def a_request_in_progress_is_not_dropped_for_room():
    """A request whose headers are on their way is not idle: filling the
    address's budget around it does not drop it, and it is answered."""
    k = Server("--max-conns-per-client", "4", "--request-timeout", "30")
    try:
        mid = socket.create_connection(("127.0.0.1", k.port), timeout=5,
                                       source_address=("127.0.0.5", 0))
        mid.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.3)
        h = Holder(k.port, "127.0.0.5", 8)
        time.sleep(1.0)
        h.close()
        mid.sendall(b"Connection: close\r\n\r\n")
        data = b""
        while True:
            chunk = mid.recv(4096)
            if not chunk:
                break
            data += chunk
        mid.close()
        assert data.startswith(b"HTTP/1.1 200"), data[:100]
    finally:
        k.close()


@test
def idle_connections_wait_the_idle_timeout_not_the_request_timeout():
    k = Server("--idle-timeout", "1", "--request-timeout", "30")
    try:
        idle = socket.create_connection(("127.0.0.1", k.port), timeout=10)
        t = time.time()
        assert idle.recv(1) == b""
        waited = time.time() - t
        idle.close()
        assert 0.9 < waited < 3, waited
        # a started request keeps its request timeout
        slow = socket.create_connection(("127.0.0.1", k.port), timeout=10)
        slow.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n")
        slow.settimeout(3)
        try:
            slow.recv(1)
            assert False, "dropped before its request timeout"
        except socket.timeout:
            pass
        slow.settimeout(10)
        slow.sendall(b"Connection: close\r\n\r\n")
        assert slow.recv(12) == b"HTTP/1.1 200"
        slow.close()
    finally:
        k.close()


@test
def idle_timeout_option_checked():
    import subprocess
    from prophecy_test import PROPHECYD
    r = subprocess.run([PROPHECYD, "serve", "--idle-timeout", "0"], capture_output=True,
                       text=True)
    assert r.returncode == 64 and "--idle-timeout wants 1..3600 seconds" in r.stderr, r


report()
