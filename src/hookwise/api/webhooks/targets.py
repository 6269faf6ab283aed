"""Where webhooks may go: no internal address unless the operator opts in (no SSRF).

A subscriber URL comes from a client, and a delivery is a POST the service makes from
inside the network, so by default a URL whose host is (or resolves to) a loopback,
private, shared (CGNAT), link-local, unique-local, multicast, reserved or unspecified
address is refused: when subscribing (a 400 naming ``url``) and again at every delivery,
where the connection goes to the address that was checked (``Pinned``: the URL's host is
replaced by that address, the name travels as ``Host`` and TLS SNI), so a DNS answer
that changes between the check and the connect cannot redirect it.

A host is read the way the resolver reads it: ``localhost`` and ``*.localhost`` are
loopback (RFC 6761) whatever DNS says; numeric IPv4 forms that ``inet_aton`` accepts
(``2130706433``, ``0x7f.1``, ``017700000001``, ``127.1``) are that address; IPv6 literals
are checked with the IPv4 address they embed (``::ffff:127.0.0.1``, ``::127.0.0.1``,
6to4, NAT64, Teredo); any other name is resolved and **every** A/AAAA answer must pass.

``TargetPolicy`` is the opt-in: ``allow_private`` (``--webhook-allow-private``,
``HOOKWISE_WEBHOOK_ALLOW_PRIVATE=1``) permits every unicast address, and ``allow_cidrs``
(``--webhook-allow-cidr``, ``HOOKWISE_WEBHOOK_ALLOW_CIDRS``) permits the addresses inside
the listed networks only.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[..., Sequence[tuple[Any, ...]]]

ALLOW_PRIVATE_ENV = "HOOKWISE_WEBHOOK_ALLOW_PRIVATE"
ALLOW_CIDRS_ENV = "HOOKWISE_WEBHOOK_ALLOW_CIDRS"
_NUMERIC_V4 = re.compile(r"[0-9a-fx.]+")  # what inet_aton might read as a number
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SHARED = ipaddress.IPv4Network("100.64.0.0/10")
# Never a unicast destination, whatever the opt-in (an explicit CIDR still wins).
_NEVER = frozenset({"multicast", "unspecified"})


class TargetRefusedError(ValueError):
    """The URL's host is, or resolves to, an address deliveries may not reach."""


class UnresolvableError(ValueError):
    """The host has no address right now (checked again at each delivery)."""


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries, as routers and stacks would use it."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    value = int(ip)
    if value >> 32 == 0 and value > 1:  # IPv4-compatible ::a.b.c.d (deprecated)
        return ipaddress.IPv4Address(value)
    return None


def special_kind(ip: IPAddress) -> str | None:
    """Why ``ip`` is not a public unicast address (e.g. ``"loopback"``), or None."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_v4(ip)
        if inner is not None:
            kind = special_kind(inner)
            if kind is not None:
                return kind
        if ip.ipv4_mapped is None and ip in ipaddress.IPv6Network("fc00::/7"):
            return "unique-local"
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("multicast", ip.is_multicast),
        ("link-local", ip.is_link_local),
        ("shared (CGNAT)", isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
    )
    for kind, hit in checks:
        if hit:
            return kind
    return None if ip.is_global else "not globally routable"


@dataclass(frozen=True)
class TargetPolicy:
    """Which special addresses the operator lets webhooks reach (none by default)."""

    allow_private: bool = False
    allow_cidrs: tuple[IPNetwork, ...] = ()

    def refusal(self, ip: IPAddress) -> str | None:
        """Why a delivery may not go to ``ip``, or None when it may."""
        candidates: list[IPAddress] = [ip]
        if isinstance(ip, ipaddress.IPv6Address) and (inner := _embedded_v4(ip)) is not None:
            candidates.append(inner)
        if any(c in net for c in candidates for net in self.allow_cidrs):
            return None
        kind = special_kind(ip)
        if kind is None or (self.allow_private and kind not in _NEVER):
            return None
        return kind

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str],
        *,
        allow_private: bool = False,
        allow_cidrs: Iterable[str] = (),
    ) -> TargetPolicy:
        """Command-line choices plus ``HOOKWISE_WEBHOOK_ALLOW_PRIVATE`` (1/true/yes) and
        ``HOOKWISE_WEBHOOK_ALLOW_CIDRS`` (comma-separated); ValueError naming a bad one."""
        flag = env.get(ALLOW_PRIVATE_ENV, "").strip().lower()
        if flag not in {"", "0", "1", "true", "false", "yes", "no"}:
            raise ValueError(f"{ALLOW_PRIVATE_ENV}: expected 1 or 0, got {flag!r}")
        listed = [c.strip() for c in env.get(ALLOW_CIDRS_ENV, "").split(",") if c.strip()]
        networks: list[IPNetwork] = []
        for text in (*allow_cidrs, *listed):
            try:
                networks.append(ipaddress.ip_network(text, strict=False))
            except ValueError as err:
                raise ValueError(f"webhook allow CIDR {text!r}: {err}") from None
        return cls(allow_private or flag in {"1", "true", "yes"}, tuple(networks))

    def env(self) -> dict[str, str]:
        """The same policy as environment variables (how worker processes receive it)."""
        return {
            ALLOW_PRIVATE_ENV: "1" if self.allow_private else "0",
            ALLOW_CIDRS_ENV: ",".join(map(str, self.allow_cidrs)),
        }


def literal_addresses(host: str) -> list[IPAddress] | None:
    """The addresses ``host`` names without DNS (a literal, a numeric IPv4 form, or a
    ``localhost`` name), or None when it is a name to resolve."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return [ipaddress.IPv4Address("127.0.0.1"), ipaddress.IPv6Address("::1")]
    try:
        return [ipaddress.ip_address(name.partition("%")[0])]
    except ValueError:
        pass
    if _NUMERIC_V4.fullmatch(name):
        try:
            return [ipaddress.IPv4Address(socket.inet_aton(name))]
        except OSError:
            return None
    return None


def resolve(host: str, port: int, resolver: Resolver | None = None) -> list[IPAddress]:
    """Every address ``host`` stands for, in the resolver's order; UnresolvableError if none."""
    literal = literal_addresses(host)
    if literal is not None:
        return literal
    lookup = socket.getaddrinfo if resolver is None else resolver
    try:
        answers = lookup(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise UnresolvableError(f"{host} does not resolve: {err}") from None
    found: list[IPAddress] = []
    for _family, _type, _proto, _canon, sockaddr in answers:
        ip = ipaddress.ip_address(str(sockaddr[0]).partition("%")[0])
        if ip not in found:
            found.append(ip)
    if not found:
        raise UnresolvableError(f"{host} has no address")
    return found


def checked_address(
    host: str, port: int, policy: TargetPolicy, resolver: Resolver | None = None
) -> IPAddress:
    """The address to connect to: the first answer, once every answer has passed.

    One refused answer refuses the host: a name that also points inside the network is
    a rebinding attempt or a mistake, never a receiver to trust."""
    addresses = resolve(host, port, resolver)
    for ip in addresses:
        kind = policy.refusal(ip)
        if kind is not None:
            shown = host if str(ip) == host.strip("[]") else f"{host} ({ip})"
            raise TargetRefusedError(
                f"{shown} is a {kind} address; webhooks may not reach internal addresses "
                "unless the server runs with --webhook-allow-private or --webhook-allow-cidr"
            )
    return addresses[0]


def host_and_port(url: str) -> tuple[str, int]:
    """The host (without brackets) and port a subscriber URL names."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return host, port


def url_refusal(url: str, policy: TargetPolicy, resolver: Resolver | None = None) -> str | None:
    """Why a subscriber may not have ``url`` (checked when it is set), or None.

    A name that does not resolve now is accepted: it is checked at every delivery."""
    host, port = host_and_port(url)
    try:
        checked_address(host, port, policy, resolver)
    except TargetRefusedError as err:
        return str(err)
    except UnresolvableError:
        return None
    return None
