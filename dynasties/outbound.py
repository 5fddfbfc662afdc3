"""Requests the server makes of its own (a webhook's POST), only ever to a checked public address.

A name is resolved once, every address it resolves to is checked with ``address_refusal``, and the connection
is made to one of those checked addresses rather than to the name: a name that answers differently between
the check and the connection (DNS rebinding) leads nowhere else. The Host header and, for https, the name the
certificate must hold are still the name typed. Redirects are never followed. What went wrong is recorded in
words that say nothing of the network behind the address: a closed port, a silent one and one that speaks
another protocol all read "connection failed".
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
from collections.abc import Iterable

from dynasties.destinations import (
    NOT_PUBLIC,
    Destination,
    DestinationError,
    IPAddress,
    IPNetwork,
    address_refusal,
    parse_destination,
)

NAME_NOT_PUBLIC = (
    "“{host}” was not found, or it leads to an address that is not on the public internet; a "
    "webhook must go to a public address."
)
REFUSED = "could not deliver: the address is not allowed, or its name was not found"
CONNECTION_FAILED = "could not deliver: connection failed"
REDIRECTED = "could not deliver: the receiver answered HTTP {status}, a redirect, which is not followed"
HTTP_STATUS = "could not deliver: the receiver answered HTTP {status}"

# A name with many addresses is tried at a few of them, each with the full timeout.
MAX_ADDRESSES_TRIED = 3


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to now, in the resolver's order; empty when it resolves to none."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    addresses: list[IPAddress] = []
    for family, _, _, _, sockaddr in found:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        try:
            address = ipaddress.ip_address(sockaddr[0])
        except ValueError:
            continue
        if address not in addresses:
            addresses.append(address)
    return addresses


def checked_addresses(destination: Destination, *, allowed: Iterable[IPNetwork]) -> list[IPAddress]:
    """The addresses the server may connect to for ``destination``; a ``DestinationError`` when there are none
    or when any of them is not public (a name that leads inside is refused outright, not half used)."""
    if destination.literal is not None:
        why = address_refusal(destination.literal, allowed=allowed)
        if why:
            raise DestinationError(NOT_PUBLIC.format(address=destination.literal, why=why))
        return [destination.literal]
    addresses = resolve(destination.host, destination.port)
    if not addresses or any(address_refusal(address, allowed=allowed) for address in addresses):
        raise DestinationError(NAME_NOT_PUBLIC.format(host=destination.host))
    return addresses


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to ``address``, whatever ``host`` (still named in the Host header) resolves to by now."""

    def __init__(self, host: str, port: int, *, address: IPAddress, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((str(self.address), self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to ``address``, with the certificate checked against ``host``."""

    def __init__(self, host: str, port: int, *, address: IPAddress, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self.address = address
        self.tls = context

    def connect(self) -> None:
        sock = socket.create_connection((str(self.address), self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def _connection(destination: Destination, address: IPAddress, timeout: float) -> http.client.HTTPConnection:
    if destination.scheme == "https":
        return _PinnedHTTPSConnection(
            destination.host, destination.port, address=address, timeout=timeout, context=ssl.create_default_context()
        )
    return _PinnedHTTPConnection(destination.host, destination.port, address=address, timeout=timeout)


def post_json(url: str, payload: dict, *, allowed: Iterable[IPNetwork] = (), timeout: float) -> str | None:
    """POST ``payload`` as JSON to ``url``; None when the receiver accepted it (2xx), else why not, in words
    fit to record and show. Resolves and checks the address again: it may have changed since it was set up."""
    try:
        destination = parse_destination(url)
        addresses = checked_addresses(destination, allowed=tuple(allowed))
    except DestinationError:
        return REFUSED
    body = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "BlogNomic"}
    for address in addresses[:MAX_ADDRESSES_TRIED]:
        connection = _connection(destination, address, timeout)
        try:
            try:
                connection.connect()
            except OSError:
                continue  # the next address, if the name has another
            connection.request("POST", destination.target, body=body, headers=headers)
            status = connection.getresponse().status
        except (OSError, http.client.HTTPException, ValueError):
            return CONNECTION_FAILED
        finally:
            connection.close()
        if 200 <= status < 300:
            return None
        return (REDIRECTED if 300 <= status < 400 else HTTP_STATUS).format(status=status)
    return CONNECTION_FAILED
