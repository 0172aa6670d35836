"""The API's operations, declared once, and the OpenAPI 3.1 document written from them.

Each view is registered by `Declarations.operation`, which adds its route to the
blueprint and keeps what it takes and answers: the route, the request's model,
the answers' models and statuses, the problems it may answer. The document is
written from that list and the models' JSON Schemas (pydantic writes JSON Schema
2020-12, the dialect of OpenAPI 3.1), so a route cannot be served undocumented,
nor documented unserved. Why pydantic: it is the most used, best kept library for
declaring data in Python; one declaration both checks a request and describes it,
and the view builds its answer from the same model.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from flask import Blueprint
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from referee.api.schemas import ProblemDetails
from referee.engine.records import MAX_DEPTH, MAX_DIGITS, MAX_RECORD_BYTES

#: What every request body is held to before its fields are read (the engine's
#: `decode_json`): said in the document, since no schema keyword says it.
REQUEST_LIMITS: Final = (
    f"Every request body is JSON of at most {MAX_RECORD_BYTES // 1024 // 1024} MiB, nested "
    f"at most {MAX_DEPTH} levels deep, whose numbers have at most {MAX_DIGITS} digits "
    "(no NaN or Infinity, no key named twice): a body that is not is refused with 400."
)

View = TypeVar("View", bound=Callable[..., Any])

#: A route's variables, as Flask writes them: `<name>` or `<converter:name>`.
_VARIABLE: Final = re.compile(r"<(?:(\w+):)?(\w+)>")
PROBLEM_TYPE: Final = "application/problem+json"
REF: Final = "#/components/schemas/{model}"


@dataclass(frozen=True)
class Answer:
    """A successful answer of an operation: its status, model and meaning."""

    status: int
    model: type[BaseModel]
    description: str


@dataclass(frozen=True)
class Operation:
    """One route of the API, as the document describes it."""

    method: str
    rule: str
    name: str
    summary: str
    description: str
    tag: str
    body: type[BaseModel] | None
    answers: tuple[Answer, ...]
    problems: Mapping[int, str]


@dataclass(frozen=True)
class Parameter:
    """A route variable: its schema and what it is."""

    schema: Mapping[str, Any]
    description: str


class Declarations:
    """The operations of one blueprint, and the document they make."""

    def __init__(self, blueprint: Blueprint, parameters: Mapping[str, Parameter]) -> None:
        self.blueprint = blueprint
        self.parameters = parameters
        self.operations: list[Operation] = []

    def operation(
        self,
        method: str,
        rule: str,
        *,
        tag: str,
        answers: tuple[Answer, ...],
        problems: Mapping[int, str],
        body: type[BaseModel] | None = None,
    ) -> Callable[[View], View]:
        """Route the view and declare it; its docstring's first line is the summary."""

        def wrap(view: View) -> View:
            self.blueprint.add_url_rule(rule, view.__name__, view, methods=[method])
            doc = inspect.getdoc(view) or view.__name__
            summary, _, description = doc.partition("\n\n")
            self.operations.append(
                Operation(
                    method.lower(),
                    rule,
                    view.__name__,
                    " ".join(summary.split()),
                    " ".join(description.split()),
                    tag,
                    body,
                    answers,
                    problems,
                )
            )
            return view

        return wrap

    def document(self, server: str, title: str, version: str) -> dict[str, Any]:
        """The OpenAPI 3.1 document of every declared operation, served at `server`."""
        wanted: list[tuple[type[BaseModel], Any]] = [(ProblemDetails, "serialization")]
        for op in self.operations:
            wanted.extend((a.model, "serialization") for a in op.answers)
            if op.body is not None:
                wanted.append((op.body, "validation"))
        refs, schemas = models_json_schema(list(dict.fromkeys(wanted)), ref_template=REF)
        paths: dict[str, dict[str, Any]] = {}
        for op in self.operations:
            path = _VARIABLE.sub(lambda m: "{" + m.group(2) + "}", op.rule)
            item: dict[str, Any] = {
                "operationId": op.name,
                "summary": op.summary,
                "tags": [op.tag],
                "responses": {},
            }
            if op.description:
                item["description"] = op.description
            names = [m.group(2) for m in _VARIABLE.finditer(op.rule)]
            if names:
                item["parameters"] = [
                    {
                        "name": name,
                        "in": "path",
                        "required": True,
                        "description": self.parameters[name].description,
                        "schema": dict(self.parameters[name].schema),
                    }
                    for name in names
                ]
            if op.body is not None:
                item["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": refs[(op.body, "validation")]}},
                }
            for answer in op.answers:
                item["responses"][str(answer.status)] = {
                    "description": answer.description,
                    "content": {
                        "application/json": {"schema": refs[(answer.model, "serialization")]}
                    },
                }
            for status, meaning in sorted(op.problems.items()):
                item["responses"][str(status)] = {
                    "description": meaning,
                    "content": {PROBLEM_TYPE: {"schema": refs[(ProblemDetails, "serialization")]}},
                }
            paths.setdefault(path, {})[op.method] = item
        return {
            "openapi": "3.1.0",
            "info": {"title": title, "version": version, "description": REQUEST_LIMITS},
            "servers": [{"url": server}],
            "paths": paths,
            "components": {"schemas": schemas.get("$defs", {})},
        }
