"""The addresses this server answers to, and the one its links are built from.

A request names the site it asked for in its `Host:` header, which anybody can
write. Two harms come of it: a malformed name (a label of 64 characters, `a..b`)
made Werkzeug fail while building the page's links, so every route answered 500
and logged three tracebacks (issue 37); and a name the server does not own could
reach the pages through DNS rebinding, or end up in a shared link. So:

- `HostCheck`, the outermost WSGI layer, answers 400 (a page of its own, both
  languages, nothing logged) to a `Host:` that is not a well-formed host and port,
  or that is not one of the allowed hosts; the app never sees such a request.
- The allowed hosts: `REFEREE_HOSTS` (names, comma-separated; `*` for any
  well-formed name), else the host of `REFEREE_URL`; loopback names are always
  allowed (a health check, a proxy on the same machine). With neither set (a
  laptop at the table), any IP address and this machine's own names (`laptop`,
  `laptop.local`, `laptop.lan`: any name that starts with its own): phones open
  the address `referee serve` prints, and no other name can lead a browser here.
- `public_url`: the links and QR codes of the share pages start with `REFEREE_URL`
  when it is set, never with what a request's header said.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from flask import current_app, url_for

#: One label of a host name: letters, digits and hyphens, 1 to 63 of them, no
#: hyphen at either end (RFC 1123).
_LABEL: Final = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)", re.ASCII)
_PORT: Final = re.compile(r"[0-9]{1,5}", re.ASCII)
LOOPBACK: Final = frozenset({"localhost", "127.0.0.1", "::1"})

_REFUSED: Final = (
    b'<!doctype html>\n<html lang="fr"><head><meta charset="utf-8">'
    b'<meta name="viewport" content="width=device-width, initial-scale=1">'
    b"<title>400</title><style>body{font-family:system-ui,sans-serif;margin:1.5rem;"
    b"line-height:1.5;max-width:40rem}h1{font-size:1.4rem}</style></head><body>\n"
    b"<h1>Adresse inconnue</h1>\n<p>Ce serveur ne r\xc3\xa9pond pas \xc3\xa0 cette "
    b"adresse\xe2\x80\xaf: ouvrez le lien que la table a partag\xc3\xa9.</p>\n"
    b'<h1 lang="en">Unknown address</h1>\n<p lang="en">This server does not answer '
    b"to that address: open the link the table shared.</p>\n</body></html>\n"
)


def host_name(header: str) -> str | None:
    """The host name of a `Host:` header (lower case, IPv6 without its brackets), or
    None when the header is not a well-formed host with an optional port."""
    if not header or len(header) > 300 or not header.isascii():
        return None
    name, port = header, ""
    if header.startswith("["):
        end = header.find("]")
        name, rest = header[1:end], header[end + 1 :]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else ""
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    else:
        if ":" in header:
            name, port = header.rsplit(":", 1)
        if not _is_name(name):
            return None
    if ":" in header.rpartition("]")[2] and not (_PORT.fullmatch(port) and 0 < int(port) < 65536):
        return None
    return name.lower().rstrip(".")


def _is_name(name: str) -> bool:
    """A DNS name (RFC 1123; one final dot allowed) or an IPv4 address."""
    bare = name[:-1] if name.endswith(".") else name
    if not bare or len(bare) > 253:
        return False
    if not all(_LABEL.fullmatch(label) for label in bare.split(".")):
        return False
    try:  # an xn-- label must be punycode Werkzeug can read back
        bare.encode("ascii").decode("idna")
    except UnicodeError:
        return False
    return True


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


#: The domains a local network's router or mDNS gives a machine's name, and those
#: the internet never delegates (RFC 6761: `test`, `localhost`).
LOCAL_DOMAINS: Final = frozenset(
    {
        "local",
        "lan",
        "home",
        "home.arpa",
        "localdomain",
        "internal",
        "fritz.box",
        "box",
        "station",
        "test",
        "localhost",
    }
)


@dataclass(frozen=True)
class Hosts:
    """Which host names this server answers to (see the module's docstring)."""

    names: frozenset[str]
    any_name: bool = False
    any_address: bool = False
    #: First labels that make a name this machine's (`laptop` for `laptop.lan`,
    #: `laptop.fritz.box`: the names a table's router gives it).
    own_labels: frozenset[str] = frozenset()

    def allow(self, name: str) -> bool:
        """Whether a well-formed host name (`host_name`'s) is one of them."""
        return (
            self.any_name
            or name in self.names
            or name in LOOPBACK
            or (self.any_address and _is_address(name))
            or self._own(name)
        )

    def _own(self, name: str) -> bool:
        """This machine by its name alone, or under a local network's domain
        (`laptop.local`, `laptop.fritz.box`): never under a domain of the internet
        (`laptop.evil.example` is anyone's to point here, issue 51)."""
        label, _, domain = name.partition(".")
        return label in self.own_labels and (not domain or domain in LOCAL_DOMAINS)


def own_label() -> str:
    """This machine's name's first label (`laptop`), as a phone on the local network
    writes it at the start of `laptop`, `laptop.local` or `laptop.lan`; no lookup is
    made (a resolver that does not answer would hold the start-up)."""
    return socket.gethostname().lower().split(".")[0]


def public_url_setting(text: str | None) -> str | None:
    """`REFEREE_URL` checked: `http(s)://host[:port][/path]`, without a final slash.
    ValueError, saying what is wrong, for anything else."""
    text = (text or "").strip()
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or host_name(parts.netloc) is None:
        raise ValueError(f"REFEREE_URL={text!r} is not an address like https://scores.example.org")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"REFEREE_URL={text!r}: the site's address alone, without a path")
    return text.rstrip("/")


def hosts_setting(hosts: str | None, public_url: str | None) -> Hosts:
    """The allowed hosts from `REFEREE_HOSTS` and `REFEREE_URL` (module docstring)."""
    listed = [h.strip().lower().rstrip(".") for h in (hosts or "").split(",") if h.strip()]
    if listed:
        bad = [h for h in listed if h != "*" and host_name(h) is None]
        if bad:
            raise ValueError(f"REFEREE_HOSTS: {bad[0]!r} is not a host name")
        return Hosts(frozenset(h.strip("[]") for h in listed), any_name="*" in listed)
    if public_url:
        name = host_name(urlsplit(public_url).netloc)
        return Hosts(frozenset({name} if name else ()))
    own = own_label()
    return Hosts(frozenset(), any_address=True, own_labels=frozenset({own} if own else ()))


class HostCheck:
    """WSGI middleware: a request for a host that is not well formed, or not allowed,
    is answered 400 here, before Flask builds anything from it."""

    def __init__(self, app: Callable[..., Any], hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if "HTTP_HOST" in environ:
            header = environ["HTTP_HOST"]  # an empty one is no host (issue 51)
        elif environ.get("SERVER_PROTOCOL") == "HTTP/1.0":
            header = environ.get("SERVER_NAME", "")  # HTTP/1.0 may send none
        else:
            header = ""  # HTTP/1.1 requires one (RFC 9112, 3.2)
        name = host_name(header)
        if name is not None and self.hosts.allow(name):
            return self.app(environ, start_response)
        start_response(
            "400 Bad Request",
            [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Length", str(len(_REFUSED))),
                ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ],
        )
        return [_REFUSED]


def public_url(endpoint: str, **values: Any) -> str:
    """The full address of a page, as a link to share or a QR code: `REFEREE_URL`
    followed by the page's path when it is set, else the address the (allowed)
    request came by."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return str(base) + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)
