"""Built policies as a reader sees them: stored, encoded and decoded again.

Certificate and verify tests read a built tree the way ``verify`` reads a
catalog's: through StoredPolicy, the policy file's core encoding and its decoder
(which checks the core's shape), optionally with the certificate changed first.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from guesswork.builder.policies import BuiltPolicy, PolicySpec, build_policy
from guesswork.builder.publish import StoredPolicy
from guesswork.builder.wordlists import shipped_words
from guesswork.client.policy_format import PolicyData, decode_core, encode_core
from guesswork.client.probe import Policy


def stored_policy(data: PolicyData, targets: tuple[str, ...], guesses: tuple[str, ...]) -> Policy:
    """Return ``data`` over ``targets`` and ``guesses`` as a decoded stored policy."""
    stored = StoredPolicy.from_data(data, targets, guesses)
    core = encode_core(stored.data)
    return Policy(decode_core(core, "test"), targets, guesses, core, stored.content_hash)


def as_policy(built: BuiltPolicy, changes: dict[str, object] | None = None) -> Policy:
    """Return the built tree as a stored policy, its certificate changed by ``changes``."""
    certificate = {**(built.data.certificate or {}), **(changes or {})}
    data = dataclasses.replace(built.data, certificate=certificate)
    return stored_policy(data, built.tree.targets.words, built.tree.guesses.words)


def small_wordle_policy(folder: Path, every: int) -> BuiltPolicy:
    """Return a greedy normal-mode Wordle policy built in ``folder`` over every
    ``every``-th answer of the 2309, guessing from them and 90 more words of the 12972."""
    answers = shipped_words("wordle-answers-2309")[::every]
    others = [w for w in shipped_words("wordle-guesses-12972")[5::140] if w not in answers]
    (folder / "targets.txt").write_text("\n".join(answers) + "\n")
    (folder / "guesses.txt").write_text("\n".join([*answers, *others]) + "\n")
    spec = PolicySpec(
        "wordle", targets=str(folder / "targets.txt"), guesses=str(folder / "guesses.txt")
    )
    return build_policy(spec)
