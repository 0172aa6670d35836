"""Names shown inside other text, isolated (issue 37, item 7).

A name typed with right-to-left letters, or kept from before names were cleaned
with a right-to-left override in it, must not reorder the line it is shown in
("Bruno pays Ana 3,00 €", a title, a list of players). Rather than asking every
template to remember it, the templates' environment does it for any text they
interpolate (`engine.names.isolate`: text that cannot move its neighbours, which is
every left-to-right name, is shown as it is):

- every `{{ … }}` that is plain text (not markup already): the environment's
  `finalize`;
- every variable given to `_()` / `ngettext()` ("%(payer)s pays %(payee)s"): each
  name on its own, so that the sentence keeps its own direction;
- each item of `join` ("Ana, Bruno, نور").

Python code that puts names into text itself (flash messages, the charts' SVG, the
sheet's lines) calls `isolate` on each name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from flask import Flask
from jinja2 import pass_context, pass_eval_context
from jinja2.filters import do_join
from jinja2.nodes import EvalContext
from jinja2.runtime import Context

from referee.engine.names import isolate


def shown(value: Any) -> Any:
    """`value` as a page shows it inside other text: plain text isolated if it can
    reorder the line; anything else (markup, numbers) as it is."""
    return isolate(value) if type(value) is str else value


def isolating(call: Callable[..., Any]) -> Callable[..., Any]:
    """A template `gettext`/`ngettext` whose variables are each isolated."""

    @pass_context
    def translated(context: Context, *args: Any, **variables: Any) -> Any:
        return call(context, *args, **{k: shown(v) for k, v in variables.items()})

    return translated


@pass_eval_context
def join(
    eval_ctx: EvalContext, value: Iterable[Any], d: str = "", attribute: str | int | None = None
) -> str:
    """Jinja's `join`, each item isolated."""
    items = value if attribute is not None else [shown(item) for item in value]
    return cast(str, do_join(eval_ctx, items, d, attribute))  # markup when escaping


def register(app: Flask) -> None:
    """Set the templates' environment to isolate what they show (before any template
    is compiled: `finalize` is compiled into them)."""
    app.jinja_env.finalize = shown
    app.jinja_env.filters["join"] = join
    for name in ("gettext", "ngettext"):
        call = app.jinja_env.globals.get(name)
        if callable(call):
            app.jinja_env.globals[name] = isolating(call)
