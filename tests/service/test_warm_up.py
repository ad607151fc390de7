"""Live answers are warmed before SERVING, and a stored answer never loads the builder."""

from __future__ import annotations

from guesswork.client.catalog import open_catalog
from guesswork.service.live_gate import GatedLiveSolver
from guesswork.service.local import LocalGuesswork


def test_stored_answers_need_no_live_solver_and_warming_covers_every_kind() -> None:
    with open_catalog() as catalog:
        lookups = LocalGuesswork(catalog)
        live = lookups._live
        assert isinstance(live, GatedLiveSolver)
        stored = lookups.policy("wordle-2309-normal-neg-entropy").suggest([])
        assert (stored.guess, stored.source) == ("RAISE", "stored")
        assert live._solver is None  # the builder was not needed
        kinds = {
            (info.game, info.mode, info.metric, info.weights is None)
            for info in catalog.list()
            if info.game != "guess-my-word"
        }
        assert lookups.warm_up() == len(kinds) > 5
        assert live._solver is not None
        answer = lookups.policy("wordle-2309-normal-neg-entropy").suggest([("crane", "⬛🟨⬛⬛⬛")])
        assert (answer.guess, answer.source) == ("SHOUT", "live")
