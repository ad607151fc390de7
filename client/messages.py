"""The application core's values (client.core) as the gRPC contract's messages, both ways.

The one mapping between the typed values and ``guesswork.v1`` protobuf: the
servicer (service.server) writes responses with the ``*_message`` functions
and parses requests with :func:`history` and :func:`rule`; the remote client
(client.remote) writes requests with :func:`turns` and :func:`rule_value` and
reads responses back into the same values. A field added to a value or a
message is mapped here, once. The contract's own conventions live here too:
resource names carry ``policies/``, an absent text or number is "" or 0 where
the value says None.

It is also the one JSON (:func:`json_object`, :func:`json_text`): every answer
that is a message is printed as its proto3 JSON mapping, as the HTTP edge
(service.web_answers) answers it, by the command line's ``--json`` too; the
command line adds only what the message lacks (:func:`policy_json`, and the
keys client.cli names).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from ..protos.guesswork.v1 import guesswork_pb2 as pb
from .analysis import EXACT, GREEDY_ESTIMATE, TREE, GameAnalysis, MoveAnalysis
from .core import RULE_CONSISTENT, RULE_NYT, EvilAnswer, GuessCheck, GuessScore, HoneycombReport
from .errors import BadRequestError
from .letters import list_language
from .multiboard import BoardsSuggestion, BoardState
from .policy_info import PolicyInfo
from .spelling_bee import BeeTable, Hints, HoneycombSummary
from .suggestion import LIVE, LIVE_GUESS_LIST, STORED, Suggestion

#: Each answer source (client.suggestion) as the proto's Source value.
SOURCE_VALUES = {
    STORED: pb.SOURCE_STORED,
    LIVE: pb.SOURCE_LIVE,
    LIVE_GUESS_LIST: pb.SOURCE_LIVE_GUESS_LIST,
}
#: Each analysed value's source (client.analysis) as the proto's ValueSource value.
VALUE_SOURCE_VALUES = {
    EXACT: pb.VALUE_SOURCE_EXACT,
    TREE: pb.VALUE_SOURCE_TREE,
    GREEDY_ESTIMATE: pb.VALUE_SOURCE_GREEDY_ESTIMATE,
}
#: Each hard-mode rule (client.core) as the proto's HardRule value.
RULE_VALUES = {RULE_CONSISTENT: pb.HARD_RULE_CONSISTENT, RULE_NYT: pb.HARD_RULE_NYT}
#: The prefix of a policy's resource name.
POLICIES = "policies/"


def json_object(message: Message) -> dict[str, Any]:
    """Return ``message``'s proto3 JSON mapping, the one JSON every answer is printed in
    (HTTP's body, the command line's ``--json``): lowerCamelCase keys, enums by name
    (``SOURCE_STORED``), a field at its default (0, "", false, empty) left out unless
    it tracks presence (``optional``), and each map's entries in the order of their
    keys (the mapping leaves that order open, and protobuf's hash tables give a new
    one in every process)."""
    value: dict[str, Any] = json_format.MessageToDict(message)
    _sort_maps(message, value)
    return value


def _sort_maps(message: Message, value: dict[str, Any]) -> None:
    """Put the entries of every map field of ``message`` (its JSON mapping ``value``,
    changed in place) in the order of their keys, in nested messages too."""
    for field in message.DESCRIPTOR.fields:
        kind = field.message_type
        if field.json_name not in value or kind is None or kind.full_name.startswith("google."):
            continue  # a scalar, absent, or a well-known type with a JSON form of its own
        held = getattr(message, field.name)
        if kind.GetOptions().map_entry:
            entries = value[field.json_name]
            ordered = {}
            for key in sorted(held):
                text = ("true" if key else "false") if isinstance(key, bool) else str(key)
                ordered[text] = entries[text]
                if isinstance(held[key], Message):
                    _sort_maps(held[key], ordered[text])
            value[field.json_name] = ordered
        elif field.is_repeated:
            for item, item_value in zip(held, value[field.json_name], strict=True):
                _sort_maps(item, item_value)
        else:
            _sort_maps(held, value[field.json_name])


def json_text(
    message: Message, extra: Mapping[str, object] | None = None, indent: int | None = None
) -> str:
    """Return ``message``'s JSON mapping (:func:`json_object`) as text, with ``extra``'s
    keys after its own (a key it has keeps its place and takes ``extra``'s value),
    indented by ``indent`` spaces (None: one line, as HTTP answers). With no
    ``extra`` and no indent it is the HTTP body byte for byte."""
    return json.dumps({**json_object(message), **(extra or {})}, indent=indent)


def _inverse(mapping: Mapping[str, int]) -> dict[int, str]:
    return {number: name for name, number in mapping.items()}


def turns(history: Iterable[tuple[str, str]]) -> list[pb.Turn]:
    """Return a history as the requests' ``Turn`` messages."""
    return [pb.Turn(guess=guess, reply=reply) for guess, reply in history]


def history(messages: Iterable[pb.Turn]) -> list[tuple[str, str]]:
    """Return a request's ``history`` as (guess, reply text) pairs."""
    return [(turn.guess, turn.reply) for turn in messages]


def rule_value(name: str) -> pb.HardRule:
    """Return a hard-mode rule's HardRule value.

    Raises:
        BadRequestError: ``name`` is not a rule (client.core's RULE_*).
    """
    if name not in RULE_VALUES:
        raise BadRequestError(
            f"rule must be {RULE_CONSISTENT!r} or {RULE_NYT!r}", metadata={"field": "rule"}
        )
    return RULE_VALUES[name]


def rule(value: int) -> str:
    """Return the rule a request's HardRule value names (unspecified: RULE_CONSISTENT)."""
    return _inverse(RULE_VALUES).get(value, RULE_CONSISTENT)


def policy_message(info: PolicyInfo) -> pb.Policy:
    """Return a policy's summary as a ``Policy`` message."""
    return pb.Policy(
        name=POLICIES + info.name,
        game=info.game,
        length=info.length,
        mode=info.mode,
        metric=info.metric,
        targets_list=info.targets,
        targets_sha256=info.targets_sha256,
        guesses_list=info.guesses,
        guesses_sha256=info.guesses_sha256,
        target_count=info.count,
        guess_count=info.guess_count,
        mean=info.mean,
        stdev=info.stdev,
        median=info.median,
        worst=info.worst,
        best=info.best,
        histogram=dict(info.histogram),
        content_hash=info.content_hash,
        builder=info.builder,
        catalog=info.catalog,
        colours=info.colours,
        weights=info.weights or "",
        uniform_mean=info.uniform_mean or 0.0,
    )


def policy_json(info: PolicyInfo) -> dict[str, Any]:
    """Return a policy's summary as the listings print it (``guesswork policies
    --json``, ``guesswork-build list --json``): its ``Policy`` message's JSON mapping
    (:func:`json_object`), with the keys the listings have always had where the
    message spells them otherwise: ``name``, the policy's name as ``--policy`` takes
    it (the message's is the resource name ``policies/NAME``); ``targets`` and
    ``guesses``, the lists' names (also the message's ``targetsList`` and
    ``guessesList``); ``weights`` on every row, null where the targets are alike
    (the message leaves an empty one out); and ``language``, which the message
    lacks (client.letters.list_language; "" for a list that names none)."""
    return {
        **json_object(policy_message(info)),
        "name": info.name,
        "targets": info.targets,
        "guesses": info.guesses,
        "weights": info.weights,
        "language": info.language,
    }


def policy_info(message: pb.Policy) -> PolicyInfo:
    """Return a ``Policy`` message as the summary it carries."""
    return PolicyInfo(
        name=message.name.removeprefix(POLICIES),
        game=message.game,
        length=message.length,
        mode=message.mode,
        metric=message.metric,
        targets=message.targets_list,
        guesses=message.guesses_list,
        count=message.target_count,
        mean=message.mean,
        worst=message.worst,
        content_hash=message.content_hash,
        catalog=message.catalog,
        language=list_language(message.targets_list),
        weights=message.weights or None,
        stdev=message.stdev,
        median=message.median,
        best=message.best,
        histogram=tuple(sorted(message.histogram.items())),
        targets_sha256=message.targets_sha256,
        guesses_sha256=message.guesses_sha256,
        guess_count=message.guess_count,
        builder=message.builder,
        colours=message.colours,
        # No policy has a mean of 0 guesses: 0 is the proto's "not weighted".
        uniform_mean=message.uniform_mean or None,
    )


def suggestion_message(answer: Suggestion) -> pb.SuggestGuessResponse:
    """Return a suggestion as a SuggestGuess response."""
    return pb.SuggestGuessResponse(
        guess=answer.guess,
        remaining=answer.remaining,
        solved=answer.solved,
        alternatives=answer.alternatives,
        source=SOURCE_VALUES[answer.source],
        turn=answer.turn,
        alternative_values=answer.alternative_values,
        alternative_metric=answer.alternative_metric,
        candidates=answer.candidates,
        candidate_weights=answer.candidate_weights,
        guaranteed_within=answer.guaranteed_within,
        expected_guesses=answer.expected_guesses,
    )


def suggestion(message: pb.SuggestGuessResponse) -> Suggestion:
    """Return a SuggestGuess response as the suggestion it carries."""
    return Suggestion(
        guess=message.guess,
        remaining=message.remaining,
        solved=message.solved,
        alternatives=tuple(message.alternatives),
        source=_inverse(SOURCE_VALUES).get(message.source, STORED),
        turn=message.turn,
        alternative_values=tuple(message.alternative_values),
        alternative_metric=message.alternative_metric,
        candidates=tuple(message.candidates),
        candidate_weights=tuple(message.candidate_weights),
        guaranteed_within=(
            message.guaranteed_within if message.HasField("guaranteed_within") else None
        ),
        expected_guesses=(
            message.expected_guesses if message.HasField("expected_guesses") else None
        ),
    )


def board_histories(histories: Iterable[Iterable[tuple[str, str]]]) -> list[pb.BoardHistory]:
    """Return one history per board as the request's ``BoardHistory`` messages."""
    return [pb.BoardHistory(history=turns(history)) for history in histories]


def boards(messages: Iterable[pb.BoardHistory]) -> list[list[tuple[str, str]]]:
    """Return a SuggestBoards request's ``boards`` as one (guess, reply) list per board."""
    return [history(board.history) for board in messages]


def boards_suggestion_message(answer: BoardsSuggestion) -> pb.SuggestBoardsResponse:
    """Return a multi-board suggestion as a SuggestBoards response."""
    return pb.SuggestBoardsResponse(
        guess=answer.guess,
        boards=[pb.BoardState(remaining=b.remaining, solved=b.solved) for b in answer.boards],
        solved=answer.solved,
        alternatives=answer.alternatives,
        source=SOURCE_VALUES[answer.source],
        turn=answer.turn,
        guess_limit=answer.guess_limit,
        alternative_values=answer.alternative_values,
        alternative_metric=answer.alternative_metric,
    )


def boards_suggestion(message: pb.SuggestBoardsResponse) -> BoardsSuggestion:
    """Return a SuggestBoards response as the multi-board suggestion it carries."""
    return BoardsSuggestion(
        guess=message.guess,
        boards=tuple(BoardState(board.remaining, board.solved) for board in message.boards),
        solved=message.solved,
        alternatives=tuple(message.alternatives),
        source=_inverse(SOURCE_VALUES).get(message.source, LIVE),
        turn=message.turn,
        guess_limit=message.guess_limit,
        alternative_values=tuple(message.alternative_values),
        alternative_metric=message.alternative_metric,
    )


def score_message(score: GuessScore) -> pb.ScoreGuessResponse:
    """Return a guess's score as a ScoreGuess response."""
    return pb.ScoreGuessResponse(
        reply=score.reply, reply_code=score.reply_code, solved=score.solved
    )


def guess_score(message: pb.ScoreGuessResponse) -> GuessScore:
    """Return a ScoreGuess response as the score it carries."""
    return GuessScore(message.reply, message.reply_code, message.solved)


def check_message(check: GuessCheck) -> pb.CheckGuessResponse:
    """Return a hard-mode check as a CheckGuess response."""
    return pb.CheckGuessResponse(legal=check.legal, reason=check.reason, remaining=check.remaining)


def guess_check(message: pb.CheckGuessResponse) -> GuessCheck:
    """Return a CheckGuess response as the check it carries."""
    return GuessCheck(message.legal, message.reason, message.remaining)


def evil_message(answer: EvilAnswer) -> pb.EvilReplyResponse:
    """Return the Evil replier's answer as an EvilReply response."""
    return pb.EvilReplyResponse(
        reply=answer.reply,
        reply_code=answer.reply_code,
        remaining=answer.remaining,
        solved=answer.solved,
    )


def evil_answer(message: pb.EvilReplyResponse) -> EvilAnswer:
    """Return an EvilReply response as the answer it carries."""
    return EvilAnswer(message.reply, message.reply_code, message.remaining, message.solved)


def _move_message(move: MoveAnalysis) -> pb.MoveAnalysis:
    return pb.MoveAnalysis(
        turn=move.turn,
        guess=move.guess,
        reply=move.reply,
        legal=move.legal,
        remaining_before=move.remaining_before,
        remaining_after=move.remaining_after,
        best_guess=move.best_guess,
        best_expected=move.best_expected,
        best_source=VALUE_SOURCE_VALUES[move.best_source],
        expected=move.expected,
        source=VALUE_SOURCE_VALUES[move.source],
        skill=move.skill,
        luck=move.luck,
        expected_remaining=move.expected_remaining,
        best_expected_remaining=move.best_expected_remaining,
        best_remaining=move.best_remaining,  # a presence-aware field: None leaves it absent
    )


def analysis_message(analysis: GameAnalysis) -> pb.AnalyzeGameResponse:
    """Return a game's analysis as an AnalyzeGame response."""
    return pb.AnalyzeGameResponse(
        policy=POLICIES + analysis.policy,
        mode=analysis.mode,
        answer=analysis.answer,
        solved=analysis.solved,
        moves=[_move_message(move) for move in analysis.moves],
        expected_start=analysis.expected_start,
        expected_left=analysis.expected_left,
        lost_to_choices=analysis.lost_to_choices,
        gained_by_luck=analysis.gained_by_luck,
        skill=analysis.skill,
        luck=analysis.luck,
        off_list_policy=POLICIES + analysis.off_list_policy if analysis.off_list_policy else "",
        weights=analysis.weights,
    )


def game_analysis(message: pb.AnalyzeGameResponse) -> GameAnalysis:
    """Return an AnalyzeGame response as the analysis it carries."""
    sources = _inverse(VALUE_SOURCE_VALUES)
    moves = tuple(
        MoveAnalysis(
            turn=move.turn,
            guess=move.guess,
            reply=move.reply,
            legal=move.legal,
            remaining_before=move.remaining_before,
            remaining_after=move.remaining_after,
            best_guess=move.best_guess,
            best_expected=move.best_expected,
            best_source=sources.get(move.best_source, GREEDY_ESTIMATE),
            expected=move.expected,
            source=sources.get(move.source, GREEDY_ESTIMATE),
            skill=move.skill,
            luck=move.luck,
            expected_remaining=move.expected_remaining,
            best_expected_remaining=move.best_expected_remaining,
            best_remaining=move.best_remaining if move.HasField("best_remaining") else None,
        )
        for move in message.moves
    )
    return GameAnalysis(
        policy=message.policy.removeprefix(POLICIES),
        mode=message.mode,
        answer=message.answer,
        solved=message.solved,
        moves=moves,
        expected_start=message.expected_start,
        expected_left=message.expected_left,
        lost_to_choices=message.lost_to_choices,
        gained_by_luck=message.gained_by_luck,
        skill=message.skill,
        luck=message.luck,
        off_list_policy=message.off_list_policy.removeprefix(POLICIES),
        weights=message.weights,
    )


def _honeycomb_message(summary: HoneycombSummary) -> pb.HoneycombSummary:
    return pb.HoneycombSummary(
        letters=summary.letters,
        center=summary.center,
        score=summary.score,
        words=summary.words,
        pangrams=summary.pangrams,
    )


def _honeycomb(message: pb.HoneycombSummary) -> HoneycombSummary:
    return HoneycombSummary(
        message.letters, message.center, message.score, message.words, message.pangrams
    )


def top_message(table: BeeTable) -> pb.TopHoneycombsResponse:
    """Return a top-honeycomb table as a TopHoneycombs response."""
    return pb.TopHoneycombsResponse(
        honeycombs=[_honeycomb_message(row) for row in table.top],
        counts=pb.SearchCounts(**table.counts),
    )


def top_table(message: pb.TopHoneycombsResponse, word_list: str, allow_s: bool) -> BeeTable:
    """Return a TopHoneycombs response to a request for ``word_list`` as the table it
    carries (its list's SHA-256 unknown: empty)."""
    counts = {field.name: value for field, value in message.counts.ListFields()}
    rows = tuple(_honeycomb(row) for row in message.honeycombs)
    return BeeTable(word_list, "", allow_s, counts, rows)


def honeycomb_message(report: HoneycombReport) -> pb.ScoreHoneycombResponse:
    """Return a honeycomb's report as a ScoreHoneycomb response."""
    return pb.ScoreHoneycombResponse(
        honeycomb=_honeycomb_message(report.honeycomb),
        ranks=[pb.RankThreshold(name=name, points=points) for name, points in report.ranks.items()],
        words=report.words,
        pangrams=report.pangrams,
        grid=[
            pb.HintCell(letter=letter, length=length, count=count)
            for letter, row in report.hints.grid.items()
            for length, count in row.items()
        ],
        two_letter_starts=report.hints.two_letter,
    )


def honeycomb_report(message: pb.ScoreHoneycombResponse) -> HoneycombReport:
    """Return a ScoreHoneycomb response as the report it carries."""
    grid: dict[str, dict[int, int]] = {}
    for cell in message.grid:
        grid.setdefault(cell.letter, {})[cell.length] = cell.count
    return HoneycombReport(
        honeycomb=_honeycomb(message.honeycomb),
        words=tuple(message.words),
        pangrams=tuple(message.pangrams),
        ranks={rank.name: rank.points for rank in message.ranks},
        hints=Hints(grid, dict(sorted(message.two_letter_starts.items()))),
    )
