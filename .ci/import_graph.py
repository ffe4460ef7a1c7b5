"""The package import graph of a ZDB checkout: its back edges and its cycles between packages.

Usage: ``python .ci/import_graph.py [ROOT]`` (ROOT defaults to the checkout this script is in).

A node is a package: ``zdb.<name>`` for a sub-package or a top-level module of ``zdb``, and
``workers``. An edge A -> B says that some module of A imports some module of B (imports in
functions count; imports under ``if TYPE_CHECKING:`` do not, they never run). Reported:
- the mutual pairs (A imports B and B imports A) with the module imports behind each side;
- the strongly connected components of more than one package (the cycles between packages);
- the back edges of a depth-first walk in name order: an edge whose removal set makes the graph
  acyclic, so their count is an upper bound of what must go for a true layering.
The script only reads files; it imports nothing of the checkout. It exits with 1 when the
packages import each other in a circle (``make lint`` runs it), so that the figures it prints
(packages, edges, cycles, back edges) are the ones of a tree without cycles.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

_ROOTS = ("zdb", "workers")


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "workers":
        return "workers"
    if parts[0] != "zdb" or len(parts) < 2 or parts[1] == "_migrations":
        return None
    return f"zdb.{parts[1]}"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append(target)
            found.extend(f"{target}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def module_edges(root: Path) -> dict[tuple[str, str], set[tuple[str, str]]]:
    """(package, package) -> the (module, imported module) pairs behind the edge."""
    modules: dict[str, Path] = {}
    for top in _ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            modules[_module_name(root, path)] = path
    edges: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for name, path in modules.items():
        source = _package(name)
        if source is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in _imports(tree, name, path.name == "__init__.py"):
            if target not in modules:
                continue
            destination = _package(target)
            if destination is not None and destination != source:
                edges[(source, destination)].add((name, target))
    return edges


def _components(nodes: list[str], graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            found.append(sorted(component))

    for node in nodes:
        if node not in index:
            connect(node)
    return found


def _back_edges(nodes: list[str], graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    state: dict[str, int] = {}  # 1 on the walk's path, 2 done
    back: list[tuple[str, str]] = []

    def walk(node: str) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                back.append((node, target))
            elif target not in state:
                walk(target)
        state[node] = 2

    for node in nodes:
        if node not in state:
            walk(node)
    return back


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    edges = module_edges(root)
    graph: dict[str, set[str]] = defaultdict(set)
    for source, destination in edges:
        graph[source].add(destination)
        graph.setdefault(destination, set())  # every package is a node
    nodes = sorted(graph)
    module_count = sum(len(pairs) for pairs in edges.values())
    print(f"{root}: {len(nodes)} packages, {len(edges)} package edges ({module_count} module imports)")
    pairs = sorted((a, b) for a, b in edges if a < b and (b, a) in edges)
    print(f"mutual pairs: {len(pairs)}")
    for a, b in pairs:
        print(f"  {a} <-> {b}  ({len(edges[(a, b)])} / {len(edges[(b, a)])} module imports)")
    cycles = [component for component in _components(nodes, graph) if len(component) > 1]
    print(f"cycles between packages (strongly connected components): {len(cycles)}")
    for component in cycles:
        print(f"  {len(component)} packages: {', '.join(component)}")
    back = _back_edges(nodes, graph)
    print(f"back edges: {len(back)} ({sum(len(edges[edge]) for edge in back)} module imports)")
    for source, destination in back:
        print(f"  {source} -> {destination}")
        for module, target in sorted(edges[(source, destination)]):
            print(f"      {module} -> {target}")
    return 1 if cycles or back else 0


if __name__ == "__main__":
    sys.exit(main())
