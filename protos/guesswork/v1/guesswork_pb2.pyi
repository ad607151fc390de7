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

class HardRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HARD_RULE_UNSPECIFIED: _ClassVar[HardRule]
    HARD_RULE_CONSISTENT: _ClassVar[HardRule]
    HARD_RULE_NYT: _ClassVar[HardRule]
SOURCE_UNSPECIFIED: Source
SOURCE_STORED: Source
SOURCE_LIVE: Source
HARD_RULE_UNSPECIFIED: HardRule
HARD_RULE_CONSISTENT: HardRule
HARD_RULE_NYT: HardRule

class Policy(_message.Message):
    __slots__ = ("name", "game", "length", "mode", "metric", "targets_list", "targets_sha256", "guesses_list", "guesses_sha256", "target_count", "guess_count", "mean", "stdev", "median", "worst", "best", "histogram", "content_hash", "builder")
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
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., length: _Optional[int] = ..., mode: _Optional[str] = ..., metric: _Optional[str] = ..., targets_list: _Optional[str] = ..., targets_sha256: _Optional[str] = ..., guesses_list: _Optional[str] = ..., guesses_sha256: _Optional[str] = ..., target_count: _Optional[int] = ..., guess_count: _Optional[int] = ..., mean: _Optional[float] = ..., stdev: _Optional[float] = ..., median: _Optional[float] = ..., worst: _Optional[int] = ..., best: _Optional[int] = ..., histogram: _Optional[_Mapping[int, int]] = ..., content_hash: _Optional[str] = ..., builder: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("policy", "history", "max_alternatives")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    MAX_ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    policy: str
    history: _containers.RepeatedCompositeFieldContainer[Turn]
    max_alternatives: int
    def __init__(self, policy: _Optional[str] = ..., history: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ..., max_alternatives: _Optional[int] = ...) -> None: ...

class SuggestGuessResponse(_message.Message):
    __slots__ = ("guess", "remaining", "solved", "alternatives", "source", "turn")
    GUESS_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    guess: str
    remaining: int
    solved: bool
    alternatives: _containers.RepeatedScalarFieldContainer[str]
    source: Source
    turn: int
    def __init__(self, guess: _Optional[str] = ..., remaining: _Optional[int] = ..., solved: _Optional[bool] = ..., alternatives: _Optional[_Iterable[str]] = ..., source: _Optional[_Union[Source, str]] = ..., turn: _Optional[int] = ...) -> None: ...

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

class PingRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PingResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
