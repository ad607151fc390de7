"""The service imports the builder on first use from one thread at a time
(service.builder_import): two threads that each imported a different part of it
at once (a warm-up's proof and a live call) were handed a half-made module or a
_DeadlockError, and the live call ended INTERNAL."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter, whose builder is not imported yet: the service's modules
# are (as in a server), then a proof and a live answer start together on two threads.
# An import hook makes the two threads take turns at each module of the builder they
# look for, so their imports interleave as finely as they can: without a lock around
# them, the interleaving that breaks comes every time, not once in many runs.
RACE = r"""
import json, sys, threading

import guesswork.service.server
from guesswork.client.catalog import open_catalog
from guesswork.service.local import LocalGuesswork, builder_proof

assert not any(name.startswith("guesswork.builder.") for name in sys.modules)
turns = threading.Condition()
looked_for: dict[int, int] = {}


class TakeTurns:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("guesswork.builder"):
            me = threading.get_ident()
            with turns:
                looked_for[me] = looked_for.get(me, 0) + 1
                turns.notify_all()
                # Until the other thread has looked for as many (or it is held elsewhere).
                turns.wait_for(
                    lambda: len(looked_for) == 2 and min(looked_for.values()) >= looked_for[me],
                    0.05,
                )
        return None


sys.meta_path.insert(0, TakeTurns())
answers = LocalGuesswork(open_catalog())
held = answers.policy("wordle-2309-normal-max").policy
results: dict[str, object] = {}
start = threading.Barrier(2)


def prove() -> None:
    start.wait()
    try:
        results["faults"] = list(builder_proof(held))
    except BaseException as error:
        results["proof error"] = f"{type(error).__name__}: {error}"


def answer_live() -> None:
    start.wait()
    try:
        suggestion = answers.suggest(
            "wordle-2315-g12972-normal-neg-entropy", [("crane", "..Y..")]
        )
        results["guess"] = suggestion.guess
        results["source"] = suggestion.source
    except BaseException as error:
        results["live error"] = f"{type(error).__name__}: {error}"


threads = [threading.Thread(target=prove), threading.Thread(target=answer_live)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps(results))
"""


def test_a_proof_and_a_live_answer_may_load_the_builder_at_once() -> None:
    """Issue #42's warm-up (CI): both succeed, whatever their imports' interleaving."""
    run = subprocess.run(
        [sys.executable, "-c", RACE],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout.splitlines()[-1])
    assert "proof error" not in results and "live error" not in results, results
    assert results["faults"] == []  # the shipped policy passes its proof
    assert isinstance(results["guess"], str) and len(results["guess"]) == 5
    assert results["source"] != "stored"  # "crane" leaves the tree: a live answer


def _under_the_lock(parents: list[ast.AST]) -> bool:
    return any(
        isinstance(node, ast.With)
        and any(
            isinstance(item.context_expr, ast.Name) and item.context_expr.id == "BUILDER_IMPORT"
            for item in node.items
        )
        for node in parents
    )


def _builder_imports_in_functions(tree: ast.Module) -> list[tuple[int, bool]]:
    """Return (line, under BUILDER_IMPORT) for each import of the builder made inside a
    function (run after start-up, perhaps on several threads at once)."""
    found: list[tuple[int, bool]] = []

    def visit(node: ast.AST, parents: list[ast.AST], in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom):
                module = child.module or ""
                relative = child.level >= 2 and module.split(".")[0] == "builder"
                if in_function and (relative or module.startswith("guesswork.builder")):
                    found.append((child.lineno, _under_the_lock(parents)))
            elif (
                isinstance(child, ast.Import)
                and in_function
                and any(alias.name.startswith("guesswork.builder") for alias in child.names)
            ):
                found.append((child.lineno, _under_the_lock(parents)))
            inside = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            visit(child, [*parents, child], inside)

    visit(tree, [], False)
    return found


def test_every_import_of_the_builder_after_start_up_is_under_the_lock() -> None:
    """Each import of the builder inside a function of the service (made on first use,
    from whichever thread) is made under service.builder_import.BUILDER_IMPORT."""
    checked, outside = 0, []
    for path in sorted((ROOT / "service").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, locked in _builder_imports_in_functions(tree):
            checked += 1
            if not locked:
                outside.append(f"{path.relative_to(ROOT)}:{line}")
    assert not outside, f"imports of the builder outside BUILDER_IMPORT: {outside}"
    assert checked >= 6  # the sites of today (proof, live, analysis, bee, boards, checks)
