"""Run the command and code examples of the README and docs/ that are marked runnable.

A Markdown example is a fenced ``console`` or ``pycon`` block right after a
``<!-- runnable -->`` line; a reStructuredText one is a ``.. code-block::
console`` (or ``pycon``) with the option ``:class: runnable``. A console
block is a shell transcript: ``$ COMMAND`` (continued by a trailing
backslash), then the output shown, compared with what the command prints
(stdout and stderr, as a terminal shows them) under doctest's rule: ``...``
stands for any text. Text typed at an interactive prompt (``reply> .G..G``
in a ``guesswork play`` transcript) is fed to the command's standard input.
A command must exit 0 unless the output shown is an error (``: error:``).
A pycon block runs as a doctest, in a fresh Python of the same environment;
a ``shell`` block (commands without their output) runs as one ``bash -e``
script that must exit 0.

Every example of one file runs in order in one scratch folder, with the
environment's ``bin`` first on PATH (as after ``source .venv/bin/activate``)
and a user catalog of its own (``XDG_DATA_HOME`` in the scratch folder), so
an example may use what an earlier one made. Progress is off
(``GUESSWORK_PROGRESS=0``, client/progress.py): a build that runs past the
progress delay on a slow or loaded machine would otherwise add a line to its
output, so what an example shows never depends on the machine's speed (a
time it prints is shown as ``...``). Examples that name the
service's default address, 127.0.0.1:50051, are pointed at a server this
module starts on free ports (the developer's own server may hold 50051), as
are those that name its HTTP address, 127.0.0.1:8080.
"""

from __future__ import annotations

import contextlib
import doctest
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: The addresses the README and docs use for the service: gRPC, and HTTP/JSON.
DOCUMENTED_ADDRESS = "127.0.0.1:50051"
DOCUMENTED_HTTP = "127.0.0.1:8080"
#: Interactive prompts whose typed text is the command's input.
PROMPTS = ("reply> ",)
_CHECKER = doctest.OutputChecker()


@dataclass(frozen=True)
class Example:
    """One runnable block: where it is, its language (console or pycon) and its text."""

    path: Path
    line: int
    language: str
    text: str

    @property
    def where(self) -> str:
        """Return ``path:line`` for messages."""
        return f"{self.path.name}:{self.line}"


def markdown_examples(path: Path) -> list[Example]:
    """Return the runnable blocks of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    for index, line in enumerate(lines):
        if not line.strip().startswith("<!-- runnable"):
            continue
        fence = lines[index + 1]
        language = fence.removeprefix("```").strip()
        end = lines.index("```", index + 2)
        found.append(Example(path, index + 2, language, "\n".join(lines[index + 2 : end])))
    return found


def rst_examples(path: Path) -> list[Example]:
    """Return the runnable blocks of a reStructuredText file (``:class: runnable``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    for index, line in enumerate(lines):
        match = re.fullmatch(r"\.\. code-block:: (console|pycon|shell)", line.strip())
        if not match:
            continue
        body = index + 1
        options: list[str] = []
        while body < len(lines) and lines[body].strip().startswith(":"):
            options.append(lines[body].strip())
            body += 1
        if ":class: runnable" not in options:
            continue
        indent = len(line) - len(line.lstrip()) + 3
        text: list[str] = []
        for content in lines[body + 1 :]:
            if content.strip() and len(content) - len(content.lstrip()) < indent:
                break
            text.append(content[indent:])
        found.append(Example(path, body + 2, match.group(1), "\n".join(text).rstrip("\n")))
    return found


def examples(path: Path) -> list[Example]:
    """Return the runnable blocks of ``path`` (Markdown or reStructuredText)."""
    return markdown_examples(path) if path.suffix == ".md" else rst_examples(path)


@dataclass
class Step:
    """One ``$ COMMAND`` of a console block, what it is typed and what it shows."""

    command: str
    typed: list[str]
    shown: list[str]


def console_steps(text: str) -> list[Step]:
    """Return the commands of a console transcript with their input and output."""
    steps: list[Step] = []
    continuing = False
    for line in text.splitlines():
        if continuing:
            steps[-1].command += "\n" + line
            continuing = line.endswith("\\")
        elif line.startswith("$ "):
            steps.append(Step(line[2:], [], []))
            continuing = line.endswith("\\")
        elif steps:
            # A prompt answered with a blank line ends in its space, which editors trim.
            prompt = next((p for p in PROMPTS if line.startswith(p) or line == p.rstrip()), None)
            if prompt is not None:
                steps[-1].typed.append(line[len(prompt) :])
                steps[-1].shown.append(prompt + "\0")  # the next output follows on its line
            else:
                steps[-1].shown.append(line)
        else:
            raise ValueError(f"a console block must start with '$ ': {line!r}")
    return steps


def _expected(shown: list[str]) -> str:
    return "".join(line[:-1] if line.endswith("\0") else line + "\n" for line in shown)


def _normalized(output: str) -> str:
    return "\n".join(line.rstrip() for line in output.splitlines()) + ("\n" if output else "")


def free_port() -> int:
    """Return a free TCP port on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def scratch_server(bin_dir: Path, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """Run ``guesswork-serve`` from ``bin_dir`` on free ports; yield its gRPC and HTTP
    addresses."""
    address, http = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    command = [str(bin_dir / "guesswork-serve"), "--address", address, "--http", http]
    process = subprocess.Popen(
        [*command, "--log-level", "WARNING"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Ready once health says SERVING (live answers warm), asked over HTTP.
        health = urllib.request.Request(
            f"http://{http}/grpc.health.v1.Health/Check",
            data=b"{}",
            headers={"Content-Type": "application/json"},
        )
        for _ in range(600):
            if process.poll() is not None:
                ended = process.stderr.read() if process.stderr else ""
                raise AssertionError(f"guesswork-serve ended: {ended}")
            with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=2) as answer:
                if json.loads(answer.read()) == {"status": "SERVING"}:
                    break
            time.sleep(0.2)
        yield address, http
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def run_examples(found: list[Example], bin_dir: Path, folder: Path) -> list[str]:
    """Run ``found`` in order in ``folder`` with ``bin_dir`` first on PATH; return the
    differences (empty: every example printed what it shows)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GUESSWORK_")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        XDG_DATA_HOME=str(folder / "data"),
        XDG_CACHE_HOME=str(folder / "cache"),
        PYTHONDONTWRITEBYTECODE="1",
        GUESSWORK_PROGRESS="0",  # no progress line, however slow the machine
    )
    env.pop("PYTHONPATH", None)  # the environment's own install, as a user has it
    needs_server = any(
        DOCUMENTED_ADDRESS in example.text or DOCUMENTED_HTTP in example.text for example in found
    )
    problems: list[str] = []
    with _maybe_server(needs_server, bin_dir, env) as addresses:
        for example in found:
            text = example.text
            if addresses is not None:
                text = text.replace(DOCUMENTED_ADDRESS, addresses[0])
                text = text.replace(DOCUMENTED_HTTP, addresses[1])
            if example.language == "pycon":
                problems += _run_pycon(example, text, bin_dir, env, folder)
            elif example.language == "shell":
                problems += _run_shell(example, text, env, folder)
            else:
                problems += _run_console(example, text, env, folder)
    return problems


@contextmanager
def _maybe_server(
    needed: bool, bin_dir: Path, env: dict[str, str]
) -> Iterator[tuple[str, str] | None]:
    if not needed:
        yield None
        return
    with scratch_server(bin_dir, env) as addresses:
        yield addresses


def _bash(
    arguments: list[str], typed: str, env: dict[str, str], folder: Path
) -> subprocess.CompletedProcess[str]:
    """Run bash with ``arguments`` in ``folder``, ``typed`` on its input; stdout and
    stderr together, as a terminal shows them."""
    return subprocess.run(
        ["bash", *arguments],
        input=typed,
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )


def _run_console(example: Example, text: str, env: dict[str, str], folder: Path) -> list[str]:
    problems: list[str] = []
    for step in console_steps(text):
        typed = "".join(line + "\n" for line in step.typed)
        result = _bash(["-c", step.command], typed, env, folder)
        got, want = _normalized(result.stdout), _normalized(_expected(step.shown))
        failed = result.returncode != 0 and ": error: " not in want
        if failed or (step.shown and not _CHECKER.check_output(want, got, doctest.ELLIPSIS)):
            problems.append(
                f"{example.where}: $ {step.command}\n(exit {result.returncode})\n"
                f"--- shown\n{want}--- printed\n{got}"
            )
    return problems


def _run_shell(example: Example, text: str, env: dict[str, str], folder: Path) -> list[str]:
    result = _bash(["-e", "-c", text], "", env, folder)
    if result.returncode == 0:
        return []
    return [f"{example.where}: the commands failed (exit {result.returncode})\n{result.stdout}"]


_DOCTEST_RUNNER = """
import doctest, sys
text = sys.stdin.read()
test = doctest.DocTestParser().get_doctest(text, {}, sys.argv[1], sys.argv[1], 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
sys.exit(1 if runner.failures else 0)
"""


def _run_pycon(
    example: Example, text: str, bin_dir: Path, env: dict[str, str], folder: Path
) -> list[str]:
    result = subprocess.run(
        [str(bin_dir / "python"), "-c", _DOCTEST_RUNNER, example.where],
        input=text,
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode == 0:
        return []
    return [f"{example.where}: the doctest failed\n{result.stdout}{result.stderr}"]
