"""Properties of the webhook address checks: any text is read or refused with a message, never anything
else; and an IPv4 address and the IPv6 addresses that carry it (mapped, NAT64, 6to4) are judged alike."""

from __future__ import annotations

import ipaddress

from hypothesis import example, given, settings
from hypothesis import strategies as st

from dynasties.destinations import DestinationError, address_refusal, parse_destination

hosts = st.one_of(
    st.text(max_size=30),
    st.ip_addresses().map(lambda a: f"[{a}]" if a.version == 6 else str(a)),
    st.integers(min_value=0, max_value=2**32).map(str),
    st.integers(min_value=0, max_value=2**32).map(hex),
    st.sampled_from(
        [
            "chat.example.org",
            "bücher.example.org",
            "127.1",
            "0177.0.0.1",
            "localhost.",
            "[::1]",
            "ｅｘａｍｐｌｅ．ｏｒｇ",
            "xn--",
            "a" * 70 + ".org",
            "[fe80::1%25eth0]",
            "[::ffff:7f00:1]",
        ]
    ),
)
urls = st.one_of(
    st.text(max_size=60),
    st.builds(
        lambda scheme, userinfo, host, port, path: f"{scheme}://{userinfo}{host}{port}{path}",
        st.sampled_from(["http", "https", "HTTP", "ftp", ""]),
        st.sampled_from(["", "u:p@", "@", "u@"]),
        hosts,
        st.sampled_from(["", ":80", ":0", ":65536", ":x", ":"]),
        st.text(max_size=20),
    ),
)


@settings(max_examples=500, deadline=None)
@given(url=urls)
@example(url="http://[::1")
@example(url="http://\u2100.example.org/")
def test_any_text_is_an_address_to_check_or_refused_with_a_message(url):
    try:
        destination = parse_destination(url)
    except DestinationError as error:
        assert str(error)
        return
    assert destination.scheme in ("http", "https") and 1 <= destination.port <= 65535
    assert destination.host.isascii() and destination.target.isascii() and destination.target.startswith("/")
    if destination.literal is None:
        assert not destination.host.rsplit(".", 1)[-1].isdigit()  # a number is never taken for a name


@settings(max_examples=500, deadline=None)
@given(address=st.ip_addresses(v=4))
def test_ipv6_that_carries_an_ipv4_address_is_judged_as_that_address(address):
    carriers = [
        ipaddress.IPv6Address(f"::ffff:{address}"),
        ipaddress.IPv6Address((0x64FF9B << 96) | int(address)),
        ipaddress.IPv6Address((0x2002 << 112) | (int(address) << 80) | 1),
    ]
    refused = address_refusal(address) is not None
    assert all((address_refusal(carrier) is not None) == refused for carrier in carriers)
