"""The API's errors, as RFC 9457 problem details (application/problem+json).

Every refusal names its kind (`type`, a URN), says it in the answer's language,
and lists what it blames field by field (`errors`), each with the message a player
reads. A request the API cannot read, a rule that refuses a deal, a link that opens
nothing, a deal another client recorded first: all are problems, never a page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from flask import Response
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException

from referee.api.declare import PROBLEM_TYPE
from referee.api.schemas import ProblemDetails, Refusal
from referee.engine.errors import Problem, problem

#: Each kind of problem: its status and title.
KINDS: Final[Mapping[str, tuple[int, Any]]] = {
    "invalid": (400, _l("The request cannot be read")),
    "not-found": (404, _l("Nothing at this address")),
    "method": (405, _l("This address does not take this method")),
    "taken": (409, _l("Another client recorded this deal first")),
    "taken-back": (409, _l("The game has fewer deals than you counted")),
    "stale": (409, _l("The game changed meanwhile")),
    "gone": (409, _l("This deal was taken back meanwhile")),
    "not-last": (409, _l("Only the last deal can be taken back")),
    "other-game": (409, _l("This key was used for another game")),
    "key-reused": (409, _l("This key recorded another deal")),
    "accepted": (409, _l("This result was accepted already")),
    "round-over": (409, _l("The concours round is over at this table")),
    "forbidden": (403, _l("This needs the table's code")),
    "too-large": (413, _l("The request is too large")),
    "refused": (422, _l("The rules refuse it")),
    "too-many": (429, _l("Too many requests")),
    "server": (500, _l("Something went wrong on the server")),
    "busy": (503, _l("The server is busy")),
}
#: Problems of the JSON text itself, not of what it says: 400, not 422.
UNREADABLE: Final = frozenset(
    {
        "bad_json",
        "bad_encoding",
        "too_deep",
        "number_too_long",
        "not_json_value",
        "duplicate_key",
        "file_text_unusable",
    }
)
#: An HTTP error of Flask's, by status, as a kind of problem.
_HTTP_KINDS: Final = {
    400: "invalid",
    404: "not-found",
    405: "method",
    413: "too-large",
    429: "too-many",
    500: "server",
}


class ApiProblem(Exception):
    """An answer of the API that is a problem: raised by a view, answered by the
    blueprint's handler."""

    def __init__(
        self,
        kind: str,
        detail: str,
        *,
        problems: Iterable[Problem] = (),
        number: int | None = None,
        version: int | None = None,
        headers: Mapping[str, str] | None = None,
        under: str | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(kind)
        self.kind = kind
        self.detail = detail
        self.problems = tuple(problems)
        self.number = number
        self.version = version
        self.headers = dict(headers or {})
        #: The body's field the engine read (`deal`): the problems' fields are under it.
        self.under = under
        #: Where Flask's own error has a status of its own (415, 416...).
        self.status = status or KINDS[kind][0]


def lang() -> str:
    """The answer's language (its `Accept-Language`)."""
    return str(get_locale() or "fr")


def refusals(problems: Iterable[Problem], under: str | None = None) -> list[Refusal]:
    """Each problem as the API lists it: its field (under `under`, the body's name
    for what the engine read) and its message in the answer's language."""
    out = []
    for found in problems:
        field = found.field
        if under:
            # What the engine says of the record's deals (one after the win, too
            # many) is said of the one deal sent.
            field = under if field in (None, "deals") else f"{under}.{field}"
        out.append(
            Refusal(code=found.code, field=field, deal=found.deal, message=found.message(lang()))
        )
    return out


def response(error: ApiProblem) -> Response:
    """The problem's answer."""
    status, title = error.status, KINDS[error.kind][1]
    body = ProblemDetails(
        type=f"urn:referee:{error.kind}",
        title=str(title),
        status=status,
        detail=error.detail,
        errors=refusals(error.problems, error.under),
        number=error.number,
        version=error.version,
    )
    data = body.model_dump(mode="json")
    for name in ("number", "version"):  # said only where they apply
        if data[name] is None:
            del data[name]
    answer = Response(json.dumps(data, ensure_ascii=False), status, mimetype=PROBLEM_TYPE)
    answer.headers["Cache-Control"] = "no-store"
    answer.headers["Content-Language"] = lang()
    for name, value in error.headers.items():
        answer.headers[name] = value
    return answer


def from_http(error: HTTPException) -> Response:
    """Flask's own errors on the API's addresses (no route, a body too large, the
    rate limit) as problems, with their headers (`Retry-After`, `Allow`)."""
    code = error.code or 500
    kind = _HTTP_KINDS.get(code, "invalid" if code < 500 else "server")
    headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    return response(ApiProblem(kind, str(KINDS[kind][1]), headers=headers, status=code))


def from_validation(error: ValidationError, model: type[Any]) -> list[Problem]:
    """What pydantic found wrong with a request's envelope, as the engine's problems
    (so that they read as every other refusal, in both languages)."""
    found: list[Problem] = []
    for item in error.errors(include_url=False):
        location = [str(part) for part in item["loc"]]
        field = ".".join(location) or None
        kind, value = item["type"], item.get("input")
        if kind == "missing":
            found.append(problem("missing", field))
        elif kind == "extra_forbidden":
            found.append(problem("unknown_field", field, value=location[-1]))
        elif kind in ("int_type", "int_from_float", "int_parsing"):
            found.append(problem("not_integer", field, value=value))
        elif kind in ("greater_than_equal", "less_than_equal") and field:
            low, high = _bounds(model, location[0])
            found.append(problem("out_of_range", field, value=value, low=low, high=high))
        elif kind.startswith("string") and location[-1] == "key":
            found.append(problem("key_malformed", field, value=value))
        elif kind.startswith("string"):  # a name, a reason: text wanted
            found.append(problem("event_text", field, value=value))
        else:  # not an object where one is wanted
            found.append(problem("not_object", field, value=value))
    return found


def _bounds(model: type[Any], name: str) -> tuple[object, object]:
    """A number field's lowest and highest values, as its model declares them (and
    the document says them)."""
    schema = model.model_json_schema()["properties"][name]
    for branch in (schema, *schema.get("anyOf", ())):
        if "minimum" in branch or "maximum" in branch:
            return branch.get("minimum"), branch.get("maximum")
    return None, None
