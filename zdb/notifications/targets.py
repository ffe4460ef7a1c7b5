"""Where a notification may go, and sending it there safely.

A subscription's address is checked when it is made and again before every attempt: HTTPS only
(unless ``allow_http``), and every address its name resolves to must be public — no loopback,
link-local, private, shared, multicast or reserved address (unless ``allow_private``), so that
nobody can point ZDB at the machines behind it. The connection goes to the address that was
checked (a second resolution could answer otherwise), redirects are never followed (a 3xx is a
failed attempt), the connection and the answer have time limits, and no more than
``max_answer_bytes`` of the answer is read.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from zdb.messages import Message

__all__ = ["TargetPolicy", "TargetRefusedError", "check_target", "post"]


@dataclass(frozen=True, slots=True)
class TargetPolicy:
    allow_http: bool = False
    allow_private: bool = False
    connect_seconds: float = 5.0
    read_seconds: float = 10.0
    max_answer_bytes: int = 64 * 1024


class TargetRefusedError(Exception):
    """The address may not be used: the message says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _parts(url: str, policy: TargetPolicy) -> SplitResult:
    try:
        parts = urlsplit(url)
        _ = parts.port  # a port beyond 65535 or not a number is refused here
    except ValueError:
        raise TargetRefusedError(Message("{url} is no HTTPS address", url=url)) from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise TargetRefusedError(Message("{url} is no HTTPS address", url=url))
    if parts.scheme == "http" and not policy.allow_http:
        raise TargetRefusedError(Message("{url} is no HTTPS address: notifications go over HTTPS only", url=url))
    if parts.username or parts.password:
        raise TargetRefusedError(
            Message("{url} carries a user name or password: put no secret into the address", url=url)
        )
    return parts


def _resolve(parts: SplitResult, policy: TargetPolicy) -> list[str]:
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError) as error:  # unknown, malformed or NUL-bearing names
        raise TargetRefusedError(Message("{host} cannot be resolved", host=host)) from error
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not policy.allow_private:
        # every address must be public: a name with one private address among public ones is refused
        for address in addresses:
            if not _public(address):
                raise TargetRefusedError(
                    Message(
                        "{host} resolves to {address}, a loopback, link-local or private address: notifications "
                        "go to public addresses only",
                        host=host,
                        address=address,
                    )
                )
    return addresses


def check_target(url: str, policy: TargetPolicy) -> None:
    """Refuse (``TargetRefusedError``) an address notifications may not go to."""
    _resolve(_parts(url, policy), policy)


class _PinnedHTTP(http.client.HTTPConnection):
    """A connection to the address that was checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int | None, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int | None, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str], policy: TargetPolicy) -> int:
    """POST ``body`` to ``url``; the answer's status code. Raises ``TargetRefusedError`` for an
    address that may not be used, ``OSError`` or ``http.client.HTTPException`` when the receiver
    cannot be reached or answers nonsense."""
    parts = _parts(url, policy)
    address = _resolve(parts, policy)[0]
    host = parts.hostname or ""
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(host, parts.port, address, policy.connect_seconds)
    try:
        connection.connect()
        assert connection.sock is not None
        connection.sock.settimeout(policy.read_seconds)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read(policy.max_answer_bytes)  # what is left unread is dropped with the connection
        return answer.status
    finally:
        connection.close()
