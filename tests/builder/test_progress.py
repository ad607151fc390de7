"""Progress reports: phases with known totals, plain lines off a terminal, a bar on one."""

from __future__ import annotations

import io

import pytest

from guesswork.builder.optimal.problem import SearchOptions, make_problem
from guesswork.builder.optimal.root import RootSearch
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.progress import ENVIRONMENT, Progress, duration

#: These tests read the reports themselves (tests/conftest.py turns them off elsewhere).
pytestmark = pytest.mark.progress


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_are_throttled_counted_and_estimated() -> None:
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("search", delay=0, stream=stream, interval=10, clock=clock)
    progress.phase("openers", "opener", 40)
    for done in range(1, 41):
        clock.now += 1
        progress.update(done, 40, elapsed=clock.now - 100, status=f"best {8000 - done}")
    progress.close()
    progress.close()  # nothing more to say
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines[0] == "openers: 1 of 40 openers; best 7999; 1s, about 39s left"
    assert lines[1].startswith("openers: 11 of 40 openers; best 7989; 11s, about 29s left")
    assert lines[-1] == "openers: 40 of 40 openers; best 7960; 40s"
    assert len(lines) == 5  # 1, 11, 21, 31, and the end


def test_a_phase_ends_with_its_last_count_and_the_next_starts_afresh() -> None:
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("search", delay=0, stream=stream, interval=60, clock=clock)
    progress.phase("first pass", "opener", 100)
    clock.now += 5
    progress.update(1, 100, 5)
    clock.now += 5
    progress.update(57, 100, 10, "3 survive")
    progress.phase("survivors", "opener", 3)  # closes the first pass with its last count
    lines = stream.getvalue().splitlines()
    assert lines == [
        "first pass: 1 of 100 openers; 5s, about 8m15s left",
        "first pass: 57 of 100 openers; 3 survive; 10s, about 8s left",
    ]


def test_nothing_is_shown_before_the_delay_or_when_disabled() -> None:
    stream = io.StringIO()
    Progress("x", delay=2, stream=stream).update(1, 10, elapsed=1.0)
    Progress("x", enabled=False, delay=0, stream=stream).update(1, 10, elapsed=5.0)
    assert stream.getvalue() == ""


def test_a_terminal_gets_a_bar_with_the_status() -> None:
    stream = Terminal()
    progress = Progress("search", delay=0, stream=stream)
    progress.phase("openers", "opener", 4)
    progress.update(2, 4, 1.0, "best 7920 (SALET)")
    progress.close()
    shown = stream.getvalue()
    assert "\r" in shown and "best 7920 (SALET)" in shown and "2/4" in shown


def test_durations() -> None:
    assert [duration(s) for s in (0, 12.4, 185, 3725)] == ["0s", "12s", "3m05s", "1h02m"]


def test_a_search_over_every_opener_reports_its_survivors_up_front() -> None:
    """The phases a long search reports: the first pass over the openers (with how
    many survive), then the survivors settled one by one, with the best so far and
    the least bound still unsettled."""
    game = Wordle()
    answers = load_wordlist("wordle-answers-2315", game).words
    rhymes = tuple(w for w in answers if w.endswith(("ATCH", "IGHT", "OUND")))
    guesses = tuple(
        sorted(set(rhymes) | set(load_wordlist("wordle-guesses-12972", game).words[::400]))
    )
    problem, vocabulary = make_problem(
        game, WordList.from_words("a", rhymes), WordList.from_words("g", guesses)
    )
    stream = io.StringIO()
    progress = Progress("search", delay=0, stream=stream, interval=0)
    search = RootSearch(problem, SearchOptions(), progress=progress, words=vocabulary.words)
    outcome = search.run(None)
    lines = stream.getvalue().splitlines()
    survivors = [line for line in lines if line.startswith("openers that survived")]
    assert any(line.startswith("first pass: one-level bounds: ") for line in lines)
    assert survivors[-1].startswith(
        f"openers that survived the first pass: 17 of 17 openers; best {outcome.value} ("
    )
    assert "least bound left" in survivors[0]


def test_root_branches_are_counted_so_far_without_a_promise_of_time_left() -> None:
    """optimize's report (issue #23): the plural is right, a total that may grow says
    "so far", and no time left is guessed from branches of very unequal size."""
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress(
        "search",
        delay=0,
        stream=stream,
        interval=0,
        clock=clock,
        unit="root branch",
        open_ended=True,
        estimate=False,
    )
    clock.now += 15
    progress.update(1, 58, 15)
    clock.now += 1
    progress.update(2, 60, 16)  # the search found more branches
    clock.now += 1
    progress.update(60, 60, 17)
    progress.close()
    assert stream.getvalue().splitlines() == [
        "search: 1 of 58 root branches so far; 15s",
        "search: 2 of 60 root branches so far; 16s",
        "search: 60 of 60 root branches; 17s",
    ]


def test_a_terminal_bar_without_an_estimate_shows_no_time_left() -> None:
    stream = Terminal()
    progress = Progress("search", delay=0, stream=stream, unit="root branch", estimate=False)
    progress.update(2, 58, 1.0)
    progress.close()
    shown = stream.getvalue()
    assert "2/58 root branchs" not in shown and "2/58 root branch" in shown and "<" not in shown


def test_a_phase_may_stop_estimating_and_keeps_its_label() -> None:
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("build", delay=0, stream=stream, interval=60, clock=clock)
    progress.phase(progress.label, "node", 10, estimate=False)
    clock.now += 3
    progress.update(4, 10, 3)
    progress.update(10, 10, 3)
    assert progress.label == "build"
    assert stream.getvalue().splitlines() == [
        "build: 4 of 10 nodes; 3s",
        "build: 10 of 10 nodes; 3s",
    ]


def test_ranking_the_alternatives_is_counted_by_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build's last long phase (each node's ranked alternatives, a third of the
    8-letter enable1 build) reports its own count, after the tree's."""
    from guesswork.builder.policies import PolicySpec, build_policy

    monkeypatch.delenv(ENVIRONMENT, raising=False)  # reports on; no status lines in a pipe
    stream = io.StringIO()
    progress = Progress("mine", delay=0, stream=stream, interval=3600)
    built = build_policy(PolicySpec(targets="wordle-answers-2309", metric="max"), progress=progress)
    lines = stream.getvalue().splitlines()
    nodes = len(built.tree.node_guess)
    assert lines[0].startswith("mine: ") and " of 2,309 targets" in lines[0]
    assert lines[-1].startswith(f"mine: {nodes:,} of {nodes:,} nodes; ")
    assert lines.index(next(line for line in lines if " nodes" in line)) > max(
        i for i, line in enumerate(lines) if " targets" in line
    )
