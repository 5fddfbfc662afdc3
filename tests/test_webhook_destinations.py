"""Webhooks go to the public internet only, and a delivery tells nothing of the network behind an address.

The finding: "The server makes requests for an attacker. An admin can register a webhook to ``127.0.0.1:6379``,
``[::1]``, ``0x7f000001``, ``2130706433``, ``user:pass@…``; deliveries POST there, follow redirects to other
internal hosts, and the recorded error tells a closed port from an open one."

No test here needs the internet: names are resolved by a table (``tests/conftest.py``'s, or one set in the
test). The loopback servers are reached only where a test opens loopback with ``WEBHOOK_ALLOWED_NETWORKS``,
which production leaves empty.
"""

from __future__ import annotations

import ipaddress
import socket
import socketserver
import ssl
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.urls import reverse

from dynasties import outbound
from dynasties.destinations import (
    BAD_PORT,
    CREDENTIALS,
    NOT_HTTP,
    ODD_HOST,
    SPACES,
    Destination,
    DestinationError,
    address_refusal,
    parse_destination,
)
from dynasties.models import Webhook, WebhookDelivery
from dynasties.outbound import CONNECTION_FAILED, NAME_NOT_PUBLIC, REDIRECTED, REFUSED, post_json
from dynasties.webhooks import webhook_queue, webhooks_deliver
from tests.factories import PASSWORD, make_table
from tests.isolation import PUBLIC_TEST_ADDRESS

# The resolver this machine really uses, taken before each test puts the table in its place.
SYSTEM_RESOLVE = outbound.resolve
LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)


def ip(text: str):
    return ipaddress.ip_address(text)


# --- Which addresses are public ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.255.255.254",
        "0.0.0.0",
        "10.1.2.3",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "100.127.255.255",
        "192.0.0.8",
        "192.0.2.1",
        "198.18.0.1",
        "198.51.100.7",
        "203.0.113.7",
        "224.0.0.1",
        "239.255.255.250",
        "240.0.0.1",
        "255.255.255.255",
        "::",
        "::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "::7f00:1",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "fec0::1",
        "ff02::1",
        "2001:db8::1",
        "2001::1",
        "2001:0:4136:e378::1",
        "100::1",
        "64:ff9b:1::1",
        "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe",
        "2002:7f00:1::1",
        "2002:a00:1::1",
        "3fff::1",
        "4000::1",
        "5f00::1",
    ],
)
def test_loopback_private_link_local_and_reserved_addresses_are_refused(address):
    """ "Refuse loopback, private, link-local and reserved destinations": IPv4, IPv6, and IPv6 that carries a
    refused IPv4 address (mapped, NAT64, 6to4)."""
    assert address_refusal(ip(address)) is not None


@pytest.mark.parametrize(
    "address",
    [
        PUBLIC_TEST_ADDRESS,
        "1.1.1.1",
        "8.8.8.8",
        "11.0.0.1",
        "172.32.0.1",
        "100.128.0.1",
        "2606:4700:4700::1111",
        "::ffff:1.1.1.1",
        "64:ff9b::101:101",
        "2002:101:101::1",
    ],
)
def test_public_addresses_are_permitted(address):
    assert address_refusal(ip(address)) is None


def test_a_refusal_says_what_the_address_is():
    assert address_refusal(ip("127.0.0.1")) == "this machine"
    assert address_refusal(ip("::ffff:192.168.0.1")) == "private network"
    assert address_refusal(ip("169.254.169.254")) == "link-local"


def test_an_operator_may_open_one_network_and_no_more():
    """``WEBHOOK_ALLOWED_NETWORKS`` opens what it names (a chat server on the same LAN), nothing beside it."""
    lan = (ipaddress.ip_network("192.168.1.20/32"),)
    assert address_refusal(ip("192.168.1.20"), allowed=lan) is None
    assert address_refusal(ip("192.168.1.21"), allowed=lan) == "private network"
    assert address_refusal(ip("127.0.0.1"), allowed=lan) == "this machine"


# --- How an address may be written ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://0x7f000001/",
        "http://2130706433/",
        "http://127.1/",
        "http://0177.0.0.1/",
        "http://0x7f.0.0.1/",
        "http://127.0.0.1./",
        "http://127。0。0。1/",
        "http://017700000001/",
        "http://chat.example.0x1/",
        "http://-chat.example.org/",
        "http://chat..example.org/",
    ],
)
def test_odd_spellings_of_a_host_are_refused(url):
    """A host whose last label is a number is read as an IPv4 address by browsers and resolvers
    ("0x7f000001", "2130706433" are 127.0.0.1); only the usual dotted form is accepted as an address."""
    with pytest.raises(DestinationError) as refused:
        parse_destination(url)
    assert str(refused.value).startswith(ODD_HOST.split("{host}")[0])


@pytest.mark.parametrize(
    "url",
    [
        "http://user:pass@chat.example.org/",
        "http://user@chat.example.org/",
        "http://chat.example.org@127.0.0.1/",
        "https://:secret@chat.example.org/",
    ],
)
def test_credentials_in_the_address_are_refused(url):
    with pytest.raises(DestinationError) as refused:
        parse_destination(url)
    assert str(refused.value) == CREDENTIALS


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://chat.example.org/", NOT_HTTP),
        ("file:///etc/passwd", NOT_HTTP),
        ("gopher://chat.example.org/", NOT_HTTP),
        ("javascript:alert(1)", NOT_HTTP),
        ("//chat.example.org/", NOT_HTTP),
        ("http://", NOT_HTTP),
        ("http://" + "a" * 600 + ".example.org/", NOT_HTTP),
        ("http://chat.example.org:0/", BAD_PORT),
        ("http://chat.example.org:99999/", BAD_PORT),
        ("http://chat.example.org:http/", BAD_PORT),
        ("http://chat.example.org/a b", SPACES),
        ("http://chat.example.org/\x00", SPACES),
        ("http://chat.example.org/\r\nX: y", SPACES),
        ("http://[::1/", NOT_HTTP),
        ("http://\u2100.example.org/", NOT_HTTP),
    ],
)
def test_other_schemes_ports_and_characters_are_refused(url, message):
    with pytest.raises(DestinationError) as refused:
        parse_destination(url)
    assert str(refused.value) == message


def test_an_address_is_taken_apart_for_connecting():
    assert parse_destination("https://Chat.Example.org/hooks/nomic?x=1#top") == Destination(
        scheme="https", host="chat.example.org", port=443, target="/hooks/nomic?x=1", literal=None
    )
    assert parse_destination("http://[2606:4700::1111]:8080/h") == Destination(
        scheme="http", host="2606:4700::1111", port=8080, target="/h", literal=ip("2606:4700::1111")
    )
    assert parse_destination("https://bücher.example.org/ö").host == "xn--bcher-kva.example.org"
    assert parse_destination("https://bücher.example.org/ö").target == "/%C3%B6"


# --- Setting one up ---------------------------------------------------------------------------------------


@pytest.fixture
def admin(client, t0):
    make_table(5, start=t0)
    assert client.login(username="P02", password=PASSWORD)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:6379/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0x7f000001/",
        "http://2130706433/",
        "http://user:pass@chat.example.org/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.5/",
        "http://[fe80::1%25eth0]/",
        "http://localhost/",
        "http://redis:6379/",
    ],
)
def test_the_findings_addresses_are_refused_when_set_up(admin, url):
    """The finding's addresses, and the cloud's metadata service: a 400 saying why, and nothing stored."""
    response = admin.post(reverse("webhooks"), {"url": url})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("answers", [["10.0.0.5"], ["127.0.0.1"], [PUBLIC_TEST_ADDRESS, "127.0.0.1"], ["::1"], []])
def test_a_name_that_leads_inside_or_nowhere_is_refused(admin, monkeypatch, answers):
    """ "Refuse … after resolving the name": a name with any address inside is refused outright."""
    monkeypatch.setattr(outbound, "resolve", lambda host, port: [ip(a) for a in answers])
    response = admin.post(reverse("webhooks"), {"url": "https://chat.example.org/hook"})
    assert response.status_code == 400
    assert NAME_NOT_PUBLIC.format(host="chat.example.org") in response.content.decode()
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_localhost_is_refused_through_the_real_resolver(admin, monkeypatch):
    """The machine's own resolver (its hosts file, no network) says where "localhost" is; it is refused."""
    monkeypatch.setattr(outbound, "resolve", SYSTEM_RESOLVE)
    assert admin.post(reverse("webhooks"), {"url": "http://localhost:6379/"}).status_code == 400
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_a_public_address_is_set_up(admin):
    assert admin.post(reverse("webhooks"), {"url": " https://chat.example.org/hook "}).status_code == 302
    assert Webhook.objects.get().url == "https://chat.example.org/hook"


# --- Delivering -------------------------------------------------------------------------------------------


class _Receiver(BaseHTTPRequestHandler):
    """Answers every POST with ``status`` (and, for a redirect, a Location elsewhere on this server)."""

    status = 204
    requests: list

    def do_POST(self):  # noqa: N802 - the http.server API
        self.rfile.read(int(self.headers["Content-Length"]))
        type(self).requests.append((self.path, self.headers["Host"]))
        self.send_response(type(self).status)
        if 300 <= type(self).status < 400:
            self.send_header("Location", f"http://{self.headers['Host']}/elsewhere")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


# ``shutdown()`` waits until the server's loop next checks for it, every half second by default: half a second
# of each test's teardown.
QUICK_SHUTDOWN = {"poll_interval": 0.02}


@pytest.fixture
def receiver():
    handler = type("Receiver", (_Receiver,), {"requests": [], "status": 204})
    server = HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, kwargs=QUICK_SHUTDOWN, daemon=True).start()
    yield server, handler
    server.shutdown()
    server.server_close()


def queue_one(url: str, t0) -> WebhookDelivery:
    Webhook.objects.create(url=url, created_at=t0)
    webhook_queue(key="k", payload={"event": "matter_posted"}, now=t0)
    return WebhookDelivery.objects.get()


@pytest.mark.django_db
def test_a_name_that_turns_inward_after_it_was_set_up_is_not_delivered_to(receiver, monkeypatch, t0):
    """ "At delivery time again: DNS can change": the name led to a public address when it was set up, and
    now leads to this machine, where something listens; nothing is sent."""
    server, handler = receiver
    delivery = queue_one(f"http://hooks.example.org:{server.server_port}/hook", t0)
    monkeypatch.setattr(outbound, "resolve", lambda host, port: [ip("127.0.0.1")])
    webhooks_deliver(now=t0)
    delivery.refresh_from_db()
    assert handler.requests == []
    assert delivery.status == "pending" and delivery.last_error == REFUSED


@pytest.mark.django_db
def test_the_connection_goes_to_the_address_that_was_checked(receiver, monkeypatch, settings, t0):
    """The name is resolved once, and the connection is made to that checked address: a second answer (DNS
    rebinding between the check and the connection) is never asked for. The Host header is the name."""
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    server, handler = receiver
    answers = [[ip("127.0.0.1")], [ip("10.0.0.1")]]
    monkeypatch.setattr(outbound, "resolve", lambda host, port: answers.pop(0))
    # .invalid never resolves anywhere, so only the checked address can have been reached.
    delivery = queue_one(f"http://hooks.example.invalid:{server.server_port}/hook?room=1", t0)
    webhooks_deliver(now=t0)
    delivery.refresh_from_db()
    assert delivery.status == "sent"
    assert handler.requests == [("/hook?room=1", f"hooks.example.invalid:{server.server_port}")]
    assert len(answers) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed_and_the_delivery_is_not_sent(receiver, settings, t0, status):
    """ "Follow no redirects": one request, and the redirect is recorded as a failed delivery."""
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    server, handler = receiver
    handler.status = status
    delivery = queue_one(f"http://127.0.0.1:{server.server_port}/hook", t0)
    webhooks_deliver(now=t0)
    delivery.refresh_from_db()
    assert len(handler.requests) == 1
    assert delivery.status == "pending" and delivery.last_error == REDIRECTED.format(status=status)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _NotHTTP(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.sendall(b"-ERR unknown command 'POST'\r\n")


class _Hangs(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.recv(65536)


@pytest.fixture
def tcp_servers():
    servers = {}
    for name, handler in (("not_http", _NotHTTP), ("silent", _Hangs)):
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs=QUICK_SHUTDOWN, daemon=True).start()
        servers[name] = server.server_address[1]
        servers[name + "_server"] = server
    yield servers
    for name in ("not_http", "silent"):
        servers[name + "_server"].shutdown()
        servers[name + "_server"].server_close()


def test_a_closed_port_an_open_one_and_a_silent_one_read_the_same(tcp_servers):
    """ "Record generic errors": whether nothing listens, something that is not a web server answers, or
    something listens and never answers, the recorded words are the same and carry no system message."""
    problems = {
        name: post_json(f"http://127.0.0.1:{port}/", {"event": "x"}, allowed=LOOPBACK, timeout=0.5)
        for name, port in (
            ("closed", _closed_port()),
            ("not_http", tcp_servers["not_http"]),
            ("silent", tcp_servers["silent"]),
        )
    }
    assert problems == {"closed": CONNECTION_FAILED, "not_http": CONNECTION_FAILED, "silent": CONNECTION_FAILED}


def test_a_refused_address_reads_the_same_whatever_is_there():
    """Without the operator's opening, this machine is refused before any connection, closed port or not."""
    assert post_json(f"http://127.0.0.1:{_closed_port()}/", {}, timeout=0.5) == REFUSED
    assert post_json("http://0x7f000001/", {}, timeout=0.5) == REFUSED
    assert post_json("http://user:pass@chat.example.org/", {}, timeout=0.5) == REFUSED


def test_https_checks_the_certificate_against_the_name_while_connecting_to_the_checked_address(
    tcp_servers, monkeypatch
):
    """For https the connection still goes to the checked address, and the name the certificate must hold
    (SNI) is the name typed, not the address."""
    seen = {}

    class Recording(ssl.SSLContext):
        def wrap_socket(self, sock, server_hostname=None, **kwargs):
            seen["peer"], seen["name"] = sock.getpeername(), server_hostname
            raise ssl.SSLCertVerificationError("certificate verify failed")

    monkeypatch.setattr(outbound.ssl, "create_default_context", lambda: Recording(ssl.PROTOCOL_TLS_CLIENT))
    monkeypatch.setattr(outbound, "resolve", lambda host, port: [ip("127.0.0.1")])
    port = tcp_servers["silent"]
    problem = post_json(f"https://hooks.example.invalid:{port}/", {}, allowed=LOOPBACK, timeout=0.5)
    assert problem == CONNECTION_FAILED
    assert seen == {"peer": ("127.0.0.1", port), "name": "hooks.example.invalid"}


@pytest.mark.django_db
def test_an_address_stored_before_the_check_is_refused_at_delivery_and_retried_like_any_failure(t0):
    """A webhook set up before addresses were checked (or imported) is checked at every delivery."""
    delivery = queue_one("http://127.0.0.1:6379/", t0)
    webhooks_deliver(now=t0)
    delivery.refresh_from_db()
    assert delivery.last_error == REFUSED
    assert delivery.attempts == 1 and delivery.next_attempt_at == t0 + timedelta(minutes=1)
