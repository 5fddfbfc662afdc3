"""Where the server may send a request of its own (a webhook's POST): public internet addresses only.

An admin types a webhook's address, and the server then connects to it. Without a check that is a way to
make the server talk to itself (Redis on 127.0.0.1:6379), to its private network or to a cloud's metadata
service (169.254.169.254). ``address_refusal`` says whether one IP address is out of bounds, and why;
``parse_destination`` reads an address as typed and refuses what a browser or a resolver would read
differently from the way it looks (``0x7f000001``, ``2130706433``, ``127.1``, ``user:pass@…``).

The check is on IP addresses after the name is resolved, never on the name: any name can be made to
resolve anywhere. Pure functions: the resolving and connecting are ``dynasties.outbound``'s.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

NOT_HTTP = "A webhook address must start with http:// or https:// and name a host."
CREDENTIALS = "A webhook address may not hold a name or a password (user:password@…)."
ODD_HOST = (
    "“{host}” is not a host name: give a name such as chat.example.org, or an IP address written the "
    "usual way (203.0.113.7, [2001:db8::7])."
)
SPACES = "A webhook address may not contain spaces or control characters."
BAD_PORT = "The port of a webhook address must be a number from 1 to 65535."
NOT_PUBLIC = "{address} is not a public internet address ({why}); a webhook must go to one."

MAX_URL_LENGTH = 500

# IANA's special-purpose registries, and the rest of the space that is not public unicast. An address in any
# of these is refused, whatever the name that led to it.
_IPV4_REFUSED: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "this network"),
    ("10.0.0.0/8", "private network"),
    ("100.64.0.0/10", "carrier-grade NAT"),
    ("127.0.0.0/8", "this machine"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private network"),
    ("192.0.0.0/24", "reserved for protocols"),
    ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "6to4 relay"),
    ("192.168.0.0/16", "private network"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),  # and 255.255.255.255, broadcast
)
_IPV6_REFUSED: tuple[tuple[str, str], ...] = (
    ("::/128", "unspecified"),
    ("::1/128", "this machine"),
    ("64:ff9b:1::/48", "local NAT64"),
    ("100::/64", "discard-only"),
    ("2001::/23", "reserved for protocols"),  # Teredo's 2001::/32 among them
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("5f00::/16", "segment routing"),
    ("fc00::/7", "private network"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
)
_IPV4_NETWORKS = tuple((ipaddress.IPv4Network(net), why) for net, why in _IPV4_REFUSED)
_IPV6_NETWORKS = tuple((ipaddress.IPv6Network(net), why) for net, why in _IPV6_REFUSED)
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SIXTOFOUR = ipaddress.IPv6Network("2002::/16")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries and reaches (mapped, NAT64, 6to4), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _SIXTOFOUR:
        return address.sixtofour
    return None


def address_refusal(address: IPAddress, *, allowed: Iterable[IPNetwork] = ()) -> str | None:
    """Why the server may not connect to ``address`` (such as "this machine"), or None when it may.

    ``allowed`` lists the networks an operator deliberately opened (a chat server on the same LAN); nothing
    else that is not public is ever permitted.
    """
    if any(address.version == network.version and address in network for network in allowed):
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return "link-local"
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return address_refusal(embedded, allowed=allowed)
        for network, why in _IPV6_NETWORKS:
            if address in network:
                return why
        if address not in _GLOBAL_UNICAST:
            return "reserved"
        return None
    for v4_network, why in _IPV4_NETWORKS:
        if address in v4_network:
            return why
    return None


@dataclass(frozen=True)
class Destination:
    """A webhook address taken apart: ``host`` is ASCII (IDNA) or an IP address without brackets, ``literal``
    that IP address when the host is one, ``target`` the path and query to request."""

    scheme: str
    host: str
    port: int
    target: str
    literal: IPAddress | None


class DestinationError(ValueError):
    """The address cannot be used as given; the message says why."""


# WHATWG's URL standard reads a host whose last label is a number ("2130706433", "127.1", "0x7f.1") as an
# IPv4 address, and so does the C library's resolver; only the usual dotted form is accepted as one.
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$", re.IGNORECASE)
_NAME_LABEL = re.compile(r"^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$", re.IGNORECASE)


def _host(raw: str) -> tuple[str, IPAddress | None]:
    try:
        literal = ipaddress.ip_address(raw)
    except ValueError:
        pass
    else:
        return str(literal), literal
    try:
        ascii_host = raw.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise DestinationError(ODD_HOST.format(host=raw)) from None
    name = ascii_host[:-1] if ascii_host.endswith(".") else ascii_host
    labels = name.split(".")
    if (
        not name
        or len(name) > 253
        or _NUMERIC_LABEL.match(labels[-1])
        or not all(_NAME_LABEL.match(label) for label in labels)
    ):
        raise DestinationError(ODD_HOST.format(host=raw))
    return name, None


def parse_destination(url: str) -> Destination:
    """The parts of an http(s) address the server may connect to, or a ``DestinationError`` saying why not.

    Names are not resolved here: an IP literal is checked by ``address_refusal`` by the caller, as is every
    address a name resolves to.
    """
    if not isinstance(url, str) or len(url) > MAX_URL_LENGTH:
        raise DestinationError(NOT_HTTP)
    if not url.isprintable() or any(character.isspace() for character in url):
        raise DestinationError(SPACES)
    try:
        parts = urlsplit(url)
    except ValueError:  # an unclosed "[", or a host that Unicode normalisation would turn into another
        raise DestinationError(NOT_HTTP) from None
    try:
        port = parts.port
    except ValueError:
        raise DestinationError(BAD_PORT) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DestinationError(NOT_HTTP)
    if "@" in parts.netloc:
        raise DestinationError(CREDENTIALS)
    if port == 0:
        raise DestinationError(BAD_PORT)
    host, literal = _host(parts.hostname)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    # A request line is ASCII: percent-encode what is not, keeping the escapes already there.
    target = quote(target, safe="!$%&'()*+,/:;=?@[]~")
    return Destination(
        scheme=parts.scheme,
        host=host,
        port=port or (443 if parts.scheme == "https" else 80),
        target=target,
        literal=literal,
    )
