"""Where a script's settings come from: argparse parsers, config objects and dicts.

Worker counts are rarely literals at the call: ``num_workers=args.workers`` with an argparse
default, ``cfg.num_workers`` from an EasyDict / OmegaConf / SimpleNamespace built from a
literal, ``loader_kwargs.get("num_workers", 4)``. These functions give such library objects
their meaning as :class:`~dldoctor.lint.values.Mapping` values (a parsed namespace holds each
option's default, by its ``dest``). They hold data and start nothing, so they are apart from
:mod:`dldoctor.lint.effects`, which decides where processes start.
"""

from __future__ import annotations

from typing import Dict

from dldoctor.lint.operators import map1
from dldoctor.lint.values import Args, Known, Mapping, Opaque, Parser, Ref, Seq, Unknown, Value, join, known


def parser_method(owner: Parser, attr: str, args: Args) -> Value:
    """``parser.add_argument(...)``, ``set_defaults(...)``, ``parse_args()`` and groups."""
    if attr in ("add_argument_group", "add_mutually_exclusive_group"):
        return owner
    if attr == "add_argument":
        add_argument(owner, args)
    elif attr == "set_defaults":
        owner.defaults.update(args.kwargs)
    elif attr in ("parse_args", "parse_known_args"):
        namespace = Mapping(dict(owner.defaults), complete=True)
        return namespace if attr == "parse_args" else Seq((namespace, Unknown()))
    return Opaque(attr)


def add_argument(owner: Parser, args: Args) -> None:
    """Record an option's default under its ``dest``; a required or positional one is unknown."""
    flags = [next(iter(a.values)) for a in args.args if isinstance(a, Known) and a.values]
    names = [f for f in flags if isinstance(f, str)]
    dest_v = args.kwargs.get("dest")
    if isinstance(dest_v, Known) and len(dest_v.values) == 1:
        dest = str(next(iter(dest_v.values)))
    else:
        longs = [n for n in names if n.startswith("--")] or names
        if not longs:
            return
        dest = longs[0].lstrip("-").replace("-", "_")
    action = args.kwargs.get("action")
    default = args.kwargs.get("default")
    if default is None and isinstance(action, Known):
        acts = {str(v) for v in action.values}
        default = known(False) if acts == {"store_true"} else known(True) if acts == {"store_false"} else None
    if default is None:
        required = args.kwargs.get("required")
        positional = bool(names) and not names[0].startswith("-")
        unknown = positional or (isinstance(required, Known) and True in required.values)
        default = Unknown(dest) if unknown else known(None)
    kind = args.kwargs.get("type")
    if isinstance(default, Known) and isinstance(kind, Ref) and kind.qualname == "builtins.int":
        default = map1(lambda x: int(x) if isinstance(x, str) else x, default)
    owner.defaults[dest] = default


def config(args: Args) -> Value:
    """A config object built from dicts and keywords (``EasyDict({...})``, ``dict(a=1)``)."""
    items: Dict[str, Value] = {}
    complete = not args.star_args
    for value in [*args.args, *args.star_kwargs]:
        if isinstance(value, Mapping):
            items.update(value.items)
            complete = complete and value.complete
        else:
            complete = False
    items.update(args.kwargs)
    return Mapping(items, complete)


def mapping_method(owner: Mapping, attr: str, args: Args) -> Value:
    """``d.get(key, default)``, ``d.copy()``, ``d.update(...)`` on a known dict."""
    values = args.args
    if attr == "get" and values and isinstance(values[0], Known) and len(values[0].values) == 1:
        key = str(next(iter(values[0].values)))
        if key in owner.items:
            return owner.items[key]
        default = values[1] if len(values) > 1 else known(None)
        return default if owner.complete else join([default, Unknown(key)])
    if attr == "copy":
        return Mapping(dict(owner.items), owner.complete)
    if attr == "update":
        for value in [*values, *args.star_kwargs]:
            if isinstance(value, Mapping):
                owner.items.update(value.items)
            else:
                owner.complete = False
        owner.items.update(args.kwargs)
    return Opaque(attr)
