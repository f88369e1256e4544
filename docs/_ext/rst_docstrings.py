"""A griffe extension for the API reference: hexengine's docstrings are written
for ``help()`` and doctest (reST roles, ``>>>`` examples); this turns them into
the Markdown mkdocstrings renders.

- ``:class:`Game```, ``:meth:`View.planes <hexengine.View.planes>``` and the
  like become cross-references to the reference pages;
- ````code```` becomes `code`;
- runs of ``>>>`` lines with their output become ``pycon`` code blocks;
- a paragraph ending in ``::`` introduces an indented literal block.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|meth|func|attr|data|mod|exc|obj):`~?([^`<]+?)(?:\s*<([^>]+)>)?`")
LITERAL = re.compile(r"``([^`]+)``")


def _resolve(name: str, obj: griffe.Object) -> str:
    """The full path of ``name`` as Sphinx would look it up from ``obj``: its
    members, then its parents' up to the package; the name itself if none has it."""
    scope: griffe.Object | None = obj
    while scope is not None:
        try:
            return scope[name].path if name else scope.path
        except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            scope = scope.parent
    return name


def _reference(match: re.Match[str], obj: griffe.Object) -> str:
    text, target = match.group(1).strip(), match.group(2)
    name = (target or text).strip().rstrip("()").removeprefix("hexengine.").removeprefix("hexengine")
    package = obj.package
    path = _resolve(name, obj) if name else package.path
    if not path.startswith("hexengine"):
        path = _resolve(name, package)
    # optional: a target the reference pages do not show reads as plain code, not an error
    return f'<autoref identifier="{path}" optional><code>{text}</code></autoref>'


def _fence_examples(text: str) -> str:
    lines, out, k = text.split("\n"), [], 0
    while k < len(lines):
        line = lines[k]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while k < len(lines) and lines[k].strip():
                block.append(lines[k][len(indent) :] if lines[k].startswith(indent) else lines[k].lstrip())
                k += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(">>>"):
            line = line.rstrip()[:-1]
        out.append(line)
        k += 1
    return "\n".join(out)


def markdown_of(text: str, obj: griffe.Object) -> str:
    """The Markdown of one docstring of ``obj``."""
    text = ROLE.sub(lambda m: _reference(m, obj), text)
    text = LITERAL.sub(r"`\1`", text)
    return _fence_examples(text)


class RstDocstrings(griffe.Extension):
    """Rewrites every docstring once the whole package is loaded (so that
    references can be looked up)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        seen: set[int] = set()

        def visit(obj: griffe.Object) -> None:
            if id(obj) in seen:
                return
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = markdown_of(obj.docstring.value, obj)
            for member in obj.members.values():
                if not member.is_alias:
                    visit(member)  # type: ignore[arg-type]

        visit(pkg)
