"""Print how the code is held together: the figures issue #45 compares before and after.

For the packages ``builder``, ``client``, ``service`` and ``guesswork`` (the
generated protobuf code excluded):

* modules and lines;
* imports inside functions (read with ``ast``), the layering tool #45 retires;
* ``isinstance`` switches on game classes outside the games' own modules;
* the largest modules (the size report ``docs/development.rst`` keeps);
* with ``--trace``: the modules of ours an HTTP suggestion passes through, counted
  on a real server (gRPC and HTTP on free loopback ports, the shipped catalog),
  every thread profiled during one off-tree SuggestGuess after a warm-up call;
  and the calls it makes from one of our modules into another, or into ours from
  outside (a thread pool, the event loop): the hops between layers.

Usage: python scripts/structure_report.py [--trace] [--top N]
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("builder", "client", "service", "guesswork")
#: An isinstance test on one of the game classes (the pattern issue #45 greps for).
GAME_SWITCH = re.compile(r"isinstance\(.*\b(Wordle|Jotto|Mastermind|GuessMyWord|Antiwordle)\b")
#: The games' own modules, where a switch on their classes is the game's own business.
GAME_MODULES = re.compile(r"^client/games(/|\.py$)")


def modules() -> list[Path]:
    """Return our Python modules, generated code excluded, sorted."""
    found = [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts and "protos" not in path.parts
    ]
    return sorted(found)


def function_level_imports(tree: ast.Module) -> int:
    """Return how many import statements of ``tree`` sit inside a function (each once,
    however deeply its functions nest)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    inside.add(id(inner))
    return len(inside)


def module_lines() -> dict[str, int]:
    """Return each of our modules' line count, by its path from the repository root."""
    return {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in modules()
    }


def largest_modules(top: int) -> list[tuple[str, int]]:
    """Return the ``top`` largest modules as (path, lines), largest first (ties by path):
    the size report docs/development.rst shows, written at each docs build."""
    return sorted(module_lines().items(), key=lambda item: (-item[1], item[0]))[:top]


def game_switches(sources: dict[str, str]) -> list[str]:
    """Return ``path:line`` for each isinstance test on a game class in ``sources``
    (repository path -> text) outside the games' own modules: a game's behaviour is
    its own capability (issue #45), chosen by no type switch."""
    return [
        f"{name}:{number}"
        for name, text in sources.items()
        if not GAME_MODULES.match(name)
        for number, line in enumerate(text.splitlines(), 1)
        if GAME_SWITCH.search(line)
    ]


def static_figures(top: int) -> None:
    """Print the figures read from the source files."""
    files = modules()
    lines = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}
    inner = sum(function_level_imports(ast.parse(text)) for text in lines.values())
    switches = game_switches(lines)
    sizes = {name: len(text.splitlines()) for name, text in lines.items()}
    print(f"modules: {len(files)}")
    print(f"lines: {sum(sizes.values())}")
    print(f"imports inside functions: {inner}")
    print(f"isinstance switches on game classes outside the games' modules: {len(switches)}")
    print(f"largest modules (lines), top {top}:")
    for name, size in largest_modules(top):
        print(f"  {size:5d} {name}")


def traced_modules() -> tuple[list[str], int]:
    """Return the modules of ours whose functions run during one HTTP SuggestGuess
    answered live, on a real server over the shipped catalog, and how many calls
    entered a module of ours from another module (ours or not)."""
    sys.path.insert(0, str(ROOT))
    import http.client
    import json

    from guesswork.client.catalog import open_catalog
    from guesswork.service.server import ServerOptions, start_server

    seen: set[str] = set()
    hops = [0]
    recording = threading.Event()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if recording.is_set() and event == "call":
            name = frame.f_globals.get("__name__", "")
            if isinstance(name, str) and name.startswith("guesswork."):
                seen.add(name)
                # The nearest caller of ours (a library's frames in between, such as
                # a thread pool's, do not count as a module of ours).
                caller = frame.f_back
                while caller is not None and not str(
                    caller.f_globals.get("__name__", "")
                ).startswith("guesswork."):
                    caller = caller.f_back
                if caller is None or caller.f_globals.get("__name__") != name:
                    hops[0] += 1

    threading.setprofile(profile)  # threads the server starts from here on
    sys.setprofile(profile)
    catalog = open_catalog()
    started, _ = start_server(
        ServerOptions(address="127.0.0.1:0", http_address="127.0.0.1:0"), catalog
    )
    assert started.http_port is not None

    def suggest(history: list[dict[str, str]]) -> None:
        body = json.dumps({"policy": "wordle-2309-normal-neg-entropy", "history": history})
        connection = http.client.HTTPConnection("127.0.0.1", started.http_port, timeout=60)
        connection.request(
            "POST",
            "/guesswork.v1.Guesswork/SuggestGuess",
            body=body,
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        assert response.status == 200, response.read()
        response.read()
        connection.close()

    try:
        suggest([{"guess": "crane", "reply": "....."}])  # warm: imports and caches filled
        recording.set()
        suggest([{"guess": "salet", "reply": ".Y..Y"}])
        recording.clear()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        started.stop(0, drain=0)
    return sorted(seen), hops[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", action="store_true", help="also trace an HTTP suggestion")
    parser.add_argument("--top", type=int, default=10, help="largest modules listed")
    args = parser.parse_args()
    static_figures(args.top)
    if args.trace:
        passed, hops = traced_modules()
        print(f"modules an HTTP suggestion passes: {len(passed)}")
        print(f"calls into a module of ours from another: {hops}")
        for name in passed:
            print(f"  {name}")


if __name__ == "__main__":
    main()
