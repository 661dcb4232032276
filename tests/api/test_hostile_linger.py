"""Red team, issue 34 item 12: early answers to bodies sent anyway.

A 9 MiB body (over the 8 MiB limit) sent without Expect: 100-continue was
answered 413 at once and the connection closed on the unread body: the
client got a TCP reset instead of the answer (Python's clients, 3 of 3), and
a spooling uploader retried what can never succeed. Now the answer still
goes at once, and the refused body is read and dropped after it (up to
LIMIT_LINGER_BODY, 64 MiB, or the request timeout) before the socket
closes, as nginx's lingering close does."""
import http.client
import json
import socket
import time

from prophecy_test import Server, report, test

S = Server()
BIG = b"[" + b" " * (9 << 20) + b"]"


def post(body, headers):
    c = http.client.HTTPConnection("127.0.0.1", S.port, timeout=30)
    try:
        c.request("POST", "/api/v1/runs", body=body, headers=headers)
        r = c.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        c.close()


@test
def a_9_mib_body_reads_its_413():
    for _ in range(3):
        st, b = post(BIG, {"Authorization": "Bearer " + S.token,
                           "Content-Type": "application/json"})
        assert st == 413 and b["error"]["code"] == "too_large", (st, b)
        assert b["error"]["message"] == "request body over the limit of 8388608 bytes"


@test
def an_unauthorised_body_reads_its_401():
    st, b = post(b"{" + b" " * (1 << 20) + b"}", {"Content-Type": "application/json"})
    assert st == 401, (st, b)


@test
def expect_100_continue_is_answered_before_the_body():
    s = socket.create_connection(("127.0.0.1", S.port), timeout=10)
    s.sendall(("POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
               "Content-Type: application/json\r\nContent-Length: %d\r\n"
               "Expect: 100-continue\r\n\r\n" % (S.token, len(BIG))).encode())
    assert s.recv(12) == b"HTTP/1.1 413"
    s.close()


@test
def a_body_past_the_linger_bound_is_answered_at_once():
    s = socket.create_connection(("127.0.0.1", S.port), timeout=10)
    s.sendall(("POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
               "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
               % (S.token, 100 << 20)).encode())
    t = time.time()
    assert s.recv(12) == b"HTTP/1.1 413"
    assert time.time() - t < 2
    s.close()


@test
def the_server_keeps_answering_after_lingering():
    st, b = S.get("/api/v1/health")
    assert st == 200, b


report()
