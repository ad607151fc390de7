"""Benchmark: the top Spelling Bee honeycomb on enable1, ours against the seed's
branch and bound (a plain copy of the notebook's top_honeycomb3) in the same run.

Both start from the list of valid Spelling Bee words, as the seed's timing does.
Usage: python benchmarks/bench_bee.py
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guesswork.builder.spelling_bee import top_honeycombs
from guesswork.builder.wordlists import shipped_words
from guesswork.client.spelling_bee import valid_words


def seed_top_honeycomb3(words: list[str]) -> tuple[int, tuple[str, str]]:
    """The seed notebook's branch and bound, as written there (honeycombs as tuples)."""

    def letterset(word: str) -> str:
        return "".join(sorted(set(word)))

    def word_score(word: str) -> int:
        return 1 if len(word) == 4 else len(word) + 7 * (len(set(word)) == 7)

    points_table: dict[str, int] = defaultdict(int)
    for word in words:
        points_table[letterset(word)] += word_score(word)

    def game_score2(letters: str, center: str) -> int:
        subsets = [
            "".join(s)
            for n in range(2, 8)
            for s in combinations(letters, n)
            if center in "".join(s)
        ]
        return sum(points_table[s] for s in subsets)

    top_score, top = -1, ("", "")
    for pangram in [s for s in points_table if len(s) == 7]:
        if game_score2(pangram, "") > top_score:
            for center in pangram:
                score = game_score2(pangram, center)
                if score > top_score:
                    top_score, top = score, (pangram, center)
    return top_score, top


def best_time(repeats: int, action: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    enable1 = list(shipped_words("enable1"))
    for allow_s in (False, True):
        words = valid_words(enable1, allow_s)
        ours, (top, counts) = best_time(5, lambda w=words, s=allow_s: top_honeycombs(w, 1, s))
        seed, seed_top = best_time(3, lambda w=words: seed_top_honeycomb3(w))
        ten, _ = best_time(3, lambda w=words, s=allow_s: top_honeycombs(w, 10, s))
        score, honeycomb = top[0]
        print(
            f"enable1 {'with' if allow_s else 'without'} S: {honeycomb.letters}/{honeycomb.center} "
            f"{score} points ({counts.honeycombs_examined:,} honeycombs examined); "
            f"ours {ours * 1e3:.0f} ms, seed's branch and bound {seed * 1e3:.0f} ms "
            f"({seed / ours:.1f}x faster; seed's answer {seed_top}); top 10: {ten * 1e3:.0f} ms"
        )


if __name__ == "__main__":
    main()
