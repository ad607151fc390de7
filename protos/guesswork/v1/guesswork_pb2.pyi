from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Source(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOURCE_UNSPECIFIED: _ClassVar[Source]
    SOURCE_STORED: _ClassVar[Source]
    SOURCE_LIVE: _ClassVar[Source]
    SOURCE_LIVE_GUESS_LIST: _ClassVar[Source]

class HardRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HARD_RULE_UNSPECIFIED: _ClassVar[HardRule]
    HARD_RULE_CONSISTENT: _ClassVar[HardRule]
    HARD_RULE_NYT: _ClassVar[HardRule]

class ValueSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VALUE_SOURCE_UNSPECIFIED: _ClassVar[ValueSource]
    VALUE_SOURCE_EXACT: _ClassVar[ValueSource]
    VALUE_SOURCE_TREE: _ClassVar[ValueSource]
    VALUE_SOURCE_GREEDY_ESTIMATE: _ClassVar[ValueSource]
SOURCE_UNSPECIFIED: Source
SOURCE_STORED: Source
SOURCE_LIVE: Source
SOURCE_LIVE_GUESS_LIST: Source
HARD_RULE_UNSPECIFIED: HardRule
HARD_RULE_CONSISTENT: HardRule
HARD_RULE_NYT: HardRule
VALUE_SOURCE_UNSPECIFIED: ValueSource
VALUE_SOURCE_EXACT: ValueSource
VALUE_SOURCE_TREE: ValueSource
VALUE_SOURCE_GREEDY_ESTIMATE: ValueSource

class Policy(_message.Message):
    __slots__ = ("name", "game", "length", "mode", "metric", "targets_list", "targets_sha256", "guesses_list", "guesses_sha256", "target_count", "guess_count", "mean", "stdev", "median", "worst", "best", "histogram", "content_hash", "builder", "catalog", "colours", "weights", "uniform_mean")
    class HistogramEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: int
        def __init__(self, key: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    METRIC_FIELD_NUMBER: _ClassVar[int]
    TARGETS_LIST_FIELD_NUMBER: _ClassVar[int]
    TARGETS_SHA256_FIELD_NUMBER: _ClassVar[int]
    GUESSES_LIST_FIELD_NUMBER: _ClassVar[int]
    GUESSES_SHA256_FIELD_NUMBER: _ClassVar[int]
    TARGET_COUNT_FIELD_NUMBER: _ClassVar[int]
    GUESS_COUNT_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    STDEV_FIELD_NUMBER: _ClassVar[int]
    MEDIAN_FIELD_NUMBER: _ClassVar[int]
    WORST_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    HISTOGRAM_FIELD_NUMBER: _ClassVar[int]
    CONTENT_HASH_FIELD_NUMBER: _ClassVar[int]
    BUILDER_FIELD_NUMBER: _ClassVar[int]
    CATALOG_FIELD_NUMBER: _ClassVar[int]
    COLOURS_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    UNIFORM_MEAN_FIELD_NUMBER: _ClassVar[int]
    name: str
    game: str
    length: int
    mode: str
    metric: str
    targets_list: str
    targets_sha256: str
    guesses_list: str
    guesses_sha256: str
    target_count: int
    guess_count: int
    mean: float
    stdev: float
    median: float
    worst: int
    best: int
    histogram: _containers.ScalarMap[int, int]
    content_hash: str
    builder: str
    catalog: str
    colours: int
    weights: str
    uniform_mean: float
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., length: _Optional[int] = ..., mode: _Optional[str] = ..., metric: _Optional[str] = ..., targets_list: _Optional[str] = ..., targets_sha256: _Optional[str] = ..., guesses_list: _Optional[str] = ..., guesses_sha256: _Optional[str] = ..., target_count: _Optional[int] = ..., guess_count: _Optional[int] = ..., mean: _Optional[float] = ..., stdev: _Optional[float] = ..., median: _Optional[float] = ..., worst: _Optional[int] = ..., best: _Optional[int] = ..., histogram: _Optional[_Mapping[int, int]] = ..., content_hash: _Optional[str] = ..., builder: _Optional[str] = ..., catalog: _Optional[str] = ..., colours: _Optional[int] = ..., weights: _Optional[str] = ..., uniform_mean: _Optional[float] = ...) -> None: ...

class ListPoliciesRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class ListPoliciesResponse(_message.Message):
    __slots__ = ("policies",)
    POLICIES_FIELD_NUMBER: _ClassVar[int]
    policies: _containers.RepeatedCompositeFieldContainer[Policy]
    def __init__(self, policies: _Optional[_Iterable[_Union[Policy, _Mapping]]] = ...) -> None: ...

class GetPolicyRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class GetPolicyResponse(_message.Message):
    __slots__ = ("policy",)
    POLICY_FIELD_NUMBER: _ClassVar[int]
    policy: Policy
    def __init__(self, policy: _Optional[_Union[Policy, _Mapping]] = ...) -> None: ...

class Turn(_message.Message):
    __slots__ = ("guess", "reply")
    GUESS_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    guess: str
    reply: str
    def __init__(self, guess: _Optional[str] = ..., reply: _Optional[str] = ...) -> None: ...

class SuggestGuessRequest(_message.Message):
    __slots__ = ("policy", "history", "max_alternatives", "max_candidates")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    MAX_ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    MAX_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    policy: str
    history: _containers.RepeatedCompositeFieldContainer[Turn]
    max_alternatives: int
    max_candidates: int
    def __init__(self, policy: _Optional[str] = ..., history: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ..., max_alternatives: _Optional[int] = ..., max_candidates: _Optional[int] = ...) -> None: ...

class SuggestGuessResponse(_message.Message):
    __slots__ = ("guess", "remaining", "solved", "alternatives", "source", "turn", "alternative_values", "alternative_metric", "candidates", "candidate_weights", "guaranteed_within", "expected_guesses")
    GUESS_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVE_VALUES_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVE_METRIC_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    GUARANTEED_WITHIN_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_GUESSES_FIELD_NUMBER: _ClassVar[int]
    guess: str
    remaining: int
    solved: bool
    alternatives: _containers.RepeatedScalarFieldContainer[str]
    source: Source
    turn: int
    alternative_values: _containers.RepeatedScalarFieldContainer[float]
    alternative_metric: str
    candidates: _containers.RepeatedScalarFieldContainer[str]
    candidate_weights: _containers.RepeatedScalarFieldContainer[float]
    guaranteed_within: int
    expected_guesses: float
    def __init__(self, guess: _Optional[str] = ..., remaining: _Optional[int] = ..., solved: _Optional[bool] = ..., alternatives: _Optional[_Iterable[str]] = ..., source: _Optional[_Union[Source, str]] = ..., turn: _Optional[int] = ..., alternative_values: _Optional[_Iterable[float]] = ..., alternative_metric: _Optional[str] = ..., candidates: _Optional[_Iterable[str]] = ..., candidate_weights: _Optional[_Iterable[float]] = ..., guaranteed_within: _Optional[int] = ..., expected_guesses: _Optional[float] = ...) -> None: ...

class BoardHistory(_message.Message):
    __slots__ = ("history",)
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[Turn]
    def __init__(self, history: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ...) -> None: ...

class SuggestBoardsRequest(_message.Message):
    __slots__ = ("policy", "boards", "max_alternatives")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    MAX_ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    policy: str
    boards: _containers.RepeatedCompositeFieldContainer[BoardHistory]
    max_alternatives: int
    def __init__(self, policy: _Optional[str] = ..., boards: _Optional[_Iterable[_Union[BoardHistory, _Mapping]]] = ..., max_alternatives: _Optional[int] = ...) -> None: ...

class BoardState(_message.Message):
    __slots__ = ("remaining", "solved")
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    remaining: int
    solved: bool
    def __init__(self, remaining: _Optional[int] = ..., solved: _Optional[bool] = ...) -> None: ...

class SuggestBoardsResponse(_message.Message):
    __slots__ = ("guess", "boards", "solved", "alternatives", "source", "turn", "guess_limit", "alternative_values", "alternative_metric")
    GUESS_FIELD_NUMBER: _ClassVar[int]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    GUESS_LIMIT_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVE_VALUES_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVE_METRIC_FIELD_NUMBER: _ClassVar[int]
    guess: str
    boards: _containers.RepeatedCompositeFieldContainer[BoardState]
    solved: bool
    alternatives: _containers.RepeatedScalarFieldContainer[str]
    source: Source
    turn: int
    guess_limit: int
    alternative_values: _containers.RepeatedScalarFieldContainer[float]
    alternative_metric: str
    def __init__(self, guess: _Optional[str] = ..., boards: _Optional[_Iterable[_Union[BoardState, _Mapping]]] = ..., solved: _Optional[bool] = ..., alternatives: _Optional[_Iterable[str]] = ..., source: _Optional[_Union[Source, str]] = ..., turn: _Optional[int] = ..., guess_limit: _Optional[int] = ..., alternative_values: _Optional[_Iterable[float]] = ..., alternative_metric: _Optional[str] = ...) -> None: ...

class ScoreGuessRequest(_message.Message):
    __slots__ = ("policy", "guess", "target")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    GUESS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    policy: str
    guess: str
    target: str
    def __init__(self, policy: _Optional[str] = ..., guess: _Optional[str] = ..., target: _Optional[str] = ...) -> None: ...

class ScoreGuessResponse(_message.Message):
    __slots__ = ("reply", "reply_code", "solved")
    REPLY_FIELD_NUMBER: _ClassVar[int]
    REPLY_CODE_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    reply: str
    reply_code: int
    solved: bool
    def __init__(self, reply: _Optional[str] = ..., reply_code: _Optional[int] = ..., solved: _Optional[bool] = ...) -> None: ...

class CheckGuessRequest(_message.Message):
    __slots__ = ("policy", "history", "guess", "rule")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    GUESS_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    policy: str
    history: _containers.RepeatedCompositeFieldContainer[Turn]
    guess: str
    rule: HardRule
    def __init__(self, policy: _Optional[str] = ..., history: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ..., guess: _Optional[str] = ..., rule: _Optional[_Union[HardRule, str]] = ...) -> None: ...

class CheckGuessResponse(_message.Message):
    __slots__ = ("legal", "reason", "remaining")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    legal: bool
    reason: str
    remaining: int
    def __init__(self, legal: _Optional[bool] = ..., reason: _Optional[str] = ..., remaining: _Optional[int] = ...) -> None: ...

class EvilReplyRequest(_message.Message):
    __slots__ = ("policy", "history", "guess")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    GUESS_FIELD_NUMBER: _ClassVar[int]
    policy: str
    history: _containers.RepeatedCompositeFieldContainer[Turn]
    guess: str
    def __init__(self, policy: _Optional[str] = ..., history: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ..., guess: _Optional[str] = ...) -> None: ...

class EvilReplyResponse(_message.Message):
    __slots__ = ("reply", "reply_code", "remaining", "solved")
    REPLY_FIELD_NUMBER: _ClassVar[int]
    REPLY_CODE_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    reply: str
    reply_code: int
    remaining: int
    solved: bool
    def __init__(self, reply: _Optional[str] = ..., reply_code: _Optional[int] = ..., remaining: _Optional[int] = ..., solved: _Optional[bool] = ...) -> None: ...

class AnalyzeGameRequest(_message.Message):
    __slots__ = ("policy", "history", "answer")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    policy: str
    history: _containers.RepeatedCompositeFieldContainer[Turn]
    answer: str
    def __init__(self, policy: _Optional[str] = ..., history: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ..., answer: _Optional[str] = ...) -> None: ...

class MoveAnalysis(_message.Message):
    __slots__ = ("turn", "guess", "reply", "legal", "remaining_before", "remaining_after", "best_guess", "best_expected", "best_source", "expected", "source", "skill", "luck", "expected_remaining", "best_expected_remaining", "best_remaining")
    TURN_FIELD_NUMBER: _ClassVar[int]
    GUESS_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    REMAINING_BEFORE_FIELD_NUMBER: _ClassVar[int]
    REMAINING_AFTER_FIELD_NUMBER: _ClassVar[int]
    BEST_GUESS_FIELD_NUMBER: _ClassVar[int]
    BEST_EXPECTED_FIELD_NUMBER: _ClassVar[int]
    BEST_SOURCE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_REMAINING_FIELD_NUMBER: _ClassVar[int]
    BEST_EXPECTED_REMAINING_FIELD_NUMBER: _ClassVar[int]
    BEST_REMAINING_FIELD_NUMBER: _ClassVar[int]
    turn: int
    guess: str
    reply: str
    legal: bool
    remaining_before: int
    remaining_after: int
    best_guess: str
    best_expected: float
    best_source: ValueSource
    expected: float
    source: ValueSource
    skill: float
    luck: float
    expected_remaining: float
    best_expected_remaining: float
    best_remaining: int
    def __init__(self, turn: _Optional[int] = ..., guess: _Optional[str] = ..., reply: _Optional[str] = ..., legal: _Optional[bool] = ..., remaining_before: _Optional[int] = ..., remaining_after: _Optional[int] = ..., best_guess: _Optional[str] = ..., best_expected: _Optional[float] = ..., best_source: _Optional[_Union[ValueSource, str]] = ..., expected: _Optional[float] = ..., source: _Optional[_Union[ValueSource, str]] = ..., skill: _Optional[float] = ..., luck: _Optional[float] = ..., expected_remaining: _Optional[float] = ..., best_expected_remaining: _Optional[float] = ..., best_remaining: _Optional[int] = ...) -> None: ...

class AnalyzeGameResponse(_message.Message):
    __slots__ = ("policy", "mode", "answer", "solved", "moves", "expected_start", "expected_left", "lost_to_choices", "gained_by_luck", "skill", "luck", "off_list_policy", "weights")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_START_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_LEFT_FIELD_NUMBER: _ClassVar[int]
    LOST_TO_CHOICES_FIELD_NUMBER: _ClassVar[int]
    GAINED_BY_LUCK_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    OFF_LIST_POLICY_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    policy: str
    mode: str
    answer: str
    solved: bool
    moves: _containers.RepeatedCompositeFieldContainer[MoveAnalysis]
    expected_start: float
    expected_left: float
    lost_to_choices: float
    gained_by_luck: float
    skill: float
    luck: float
    off_list_policy: str
    weights: str
    def __init__(self, policy: _Optional[str] = ..., mode: _Optional[str] = ..., answer: _Optional[str] = ..., solved: _Optional[bool] = ..., moves: _Optional[_Iterable[_Union[MoveAnalysis, _Mapping]]] = ..., expected_start: _Optional[float] = ..., expected_left: _Optional[float] = ..., lost_to_choices: _Optional[float] = ..., gained_by_luck: _Optional[float] = ..., skill: _Optional[float] = ..., luck: _Optional[float] = ..., off_list_policy: _Optional[str] = ..., weights: _Optional[str] = ...) -> None: ...

class TopHoneycombsRequest(_message.Message):
    __slots__ = ("word_list", "allow_s", "count")
    WORD_LIST_FIELD_NUMBER: _ClassVar[int]
    ALLOW_S_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    word_list: str
    allow_s: bool
    count: int
    def __init__(self, word_list: _Optional[str] = ..., allow_s: _Optional[bool] = ..., count: _Optional[int] = ...) -> None: ...

class HoneycombSummary(_message.Message):
    __slots__ = ("letters", "center", "score", "words", "pangrams")
    LETTERS_FIELD_NUMBER: _ClassVar[int]
    CENTER_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    PANGRAMS_FIELD_NUMBER: _ClassVar[int]
    letters: str
    center: str
    score: int
    words: int
    pangrams: int
    def __init__(self, letters: _Optional[str] = ..., center: _Optional[str] = ..., score: _Optional[int] = ..., words: _Optional[int] = ..., pangrams: _Optional[int] = ...) -> None: ...

class SearchCounts(_message.Message):
    __slots__ = ("valid_words", "pangram_words", "pangram_lettersets", "candidate_honeycombs", "honeycombs_examined")
    VALID_WORDS_FIELD_NUMBER: _ClassVar[int]
    PANGRAM_WORDS_FIELD_NUMBER: _ClassVar[int]
    PANGRAM_LETTERSETS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_HONEYCOMBS_FIELD_NUMBER: _ClassVar[int]
    HONEYCOMBS_EXAMINED_FIELD_NUMBER: _ClassVar[int]
    valid_words: int
    pangram_words: int
    pangram_lettersets: int
    candidate_honeycombs: int
    honeycombs_examined: int
    def __init__(self, valid_words: _Optional[int] = ..., pangram_words: _Optional[int] = ..., pangram_lettersets: _Optional[int] = ..., candidate_honeycombs: _Optional[int] = ..., honeycombs_examined: _Optional[int] = ...) -> None: ...

class TopHoneycombsResponse(_message.Message):
    __slots__ = ("honeycombs", "counts")
    HONEYCOMBS_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    honeycombs: _containers.RepeatedCompositeFieldContainer[HoneycombSummary]
    counts: SearchCounts
    def __init__(self, honeycombs: _Optional[_Iterable[_Union[HoneycombSummary, _Mapping]]] = ..., counts: _Optional[_Union[SearchCounts, _Mapping]] = ...) -> None: ...

class ScoreHoneycombRequest(_message.Message):
    __slots__ = ("letters", "center", "word_list", "allow_s")
    LETTERS_FIELD_NUMBER: _ClassVar[int]
    CENTER_FIELD_NUMBER: _ClassVar[int]
    WORD_LIST_FIELD_NUMBER: _ClassVar[int]
    ALLOW_S_FIELD_NUMBER: _ClassVar[int]
    letters: str
    center: str
    word_list: str
    allow_s: bool
    def __init__(self, letters: _Optional[str] = ..., center: _Optional[str] = ..., word_list: _Optional[str] = ..., allow_s: _Optional[bool] = ...) -> None: ...

class RankThreshold(_message.Message):
    __slots__ = ("name", "points")
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    points: int
    def __init__(self, name: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class HintCell(_message.Message):
    __slots__ = ("letter", "length", "count")
    LETTER_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    letter: str
    length: int
    count: int
    def __init__(self, letter: _Optional[str] = ..., length: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class ScoreHoneycombResponse(_message.Message):
    __slots__ = ("honeycomb", "ranks", "words", "pangrams", "grid", "two_letter_starts")
    class TwoLetterStartsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    HONEYCOMB_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    PANGRAMS_FIELD_NUMBER: _ClassVar[int]
    GRID_FIELD_NUMBER: _ClassVar[int]
    TWO_LETTER_STARTS_FIELD_NUMBER: _ClassVar[int]
    honeycomb: HoneycombSummary
    ranks: _containers.RepeatedCompositeFieldContainer[RankThreshold]
    words: _containers.RepeatedScalarFieldContainer[str]
    pangrams: _containers.RepeatedScalarFieldContainer[str]
    grid: _containers.RepeatedCompositeFieldContainer[HintCell]
    two_letter_starts: _containers.ScalarMap[str, int]
    def __init__(self, honeycomb: _Optional[_Union[HoneycombSummary, _Mapping]] = ..., ranks: _Optional[_Iterable[_Union[RankThreshold, _Mapping]]] = ..., words: _Optional[_Iterable[str]] = ..., pangrams: _Optional[_Iterable[str]] = ..., grid: _Optional[_Iterable[_Union[HintCell, _Mapping]]] = ..., two_letter_starts: _Optional[_Mapping[str, int]] = ...) -> None: ...

class PingRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PingResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
