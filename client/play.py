"""``guesswork play``: the interactive helper.

The helper shows the policy's next guess and reads what the game replied,
until the game is won. Besides a reply it understands (``help`` lists them):

* ``WORD REPLY``: the player played another word (any word the game accepts;
  the answer is then computed live);
* a blank line: the game refused the guess shown, so the next-best one is
  shown (the seed's "skip");
* ``undo``: take back the last turn (a mistyped reply);
* a pasted share text (``Wordle 1,234 4/6*``, a blank line, rows of squares),
  followed by the words played, in order: the game so far, replacing the
  turns typed (client.replies.share_history reads it, as ``--history`` does);
* ``help`` or ``?``, and ``q`` to quit.

A pasted share text is told from typing by its header line, the one line
holding an ``n/m`` count: after a header the blank line and the rows it
announces are the share text's, never a refusal or a reply. Only a blank line
typed at the reply prompt outside a paste takes the next-best guess.

When no target of the policy fits the replies (the secret is outside its
answer list, e.g. TACOS for the 2,309 answers), the helper says so in one
line and goes on over the policy's guess list as possible secrets (answers
with source ``live-guess-list``; see client.catalog_lookup). At the end it prints the
game's share text (Wordle-like games) and the policy's guess histogram with
this game's count marked.

Its start says, after the policy's name, why the policy was chosen when the
player named none (client.policy_choice.Choice) and whether it is guaranteed
within Wordle's six guesses (client.policy_info.guarantee; for a named
policy only when it is not, as a warning).

Like all of ``client``, this module imports neither ``builder`` nor ``service``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import ContradictoryHistoryError, GuessworkError
from .games import code_to_colours, make_game
from .letters import upper_word
from .policy_info import guarantee, guess_limit
from .replies import (
    format_share,
    is_share_row,
    share_header_rows,
    share_history,
)
from .rules import HARD, NYT_HARD, nyt_hard_problem
from .suggestion import LIVE, LIVE_GUESS_LIST, STORED
from .text import plural

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .core import Guesswork
    from .policy_info import PolicyInfo

History = list[tuple[str, str]]

PLAY_HELP = (
    "Type the reply your game gave (e.g. .Y..G, gybbb, 01002, coloured squares, or a Jotto "
    "count); 'WORD REPLY' if you played another word; a blank line if the game refused the "
    "guess (take the next one); undo; help or ? for every command; q to quit."
)
PLAY_COMMANDS = (
    "At the reply> prompt:",
    "  REPLY          the reply to the guess shown: .Y..G, gybbb, 01002, coloured squares,",
    "                 a Jotto count, Mastermind pegs (2B1W), before/after/correct",
    "  WORD REPLY     you played WORD instead (any word the game accepts) and it got REPLY",
    "  (blank line)   the game refused the guess shown: show the next-best one",
    "  undo           take back the last turn (a mistyped reply, say)",
    "  a share text   paste it whole (header line, blank line, rows of squares), then type",
    "                 the words you played, in order: that game replaces the turns so far",
    "  help, ?        this list",
    "  q, quit        stop",
)
#: Alternatives asked for at each turn: the next-best guesses blank lines walk through.
PLAY_ALTERNATIVES = 20
#: Games whose replies are coloured squares: a finished game prints a share text.
SHARED_GAMES = ("wordle", "antiwordle")
_QUIT = ("q", "quit", "exit")


def read_until_taken(read: Callable[[str], str], prompt: str, take: Callable[[str], bool]) -> bool:
    """Read lines at ``prompt`` until ``take`` acts on one and returns True (the turns
    changed); return False when the player quits (q, quit, exit) or the input ends.
    The interactive helpers (this one and client.play_boards) share it."""
    while True:
        try:
            line = read(prompt).strip()
        except EOFError:
            print()
            return False
        if line.lower() in _QUIT:
            return False
        if take(line):
            return True


_HELP = ("help", "?")
_UNDO = "undo"


@dataclass
class _SharePaste:
    """A share text arriving line by line: its header, the rows it announces, then the
    words played (asked for once the rows are in)."""

    header: str
    expected: int
    rows: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Return True once every announced row has arrived."""
        return len(self.rows) >= self.expected

    def text(self, words: str) -> str:
        """Return the share text with ``words`` (the guesses) given alongside."""
        return "\n".join([words, self.header, "", *self.rows])


def start_lines(
    summary: PolicyInfo, policies: Sequence[PolicyInfo], reason: str | None
) -> list[str]:
    """Return the lines ``play`` prints after its first: why the policy was chosen
    (``reason``; None: the player named it) and whether it is guaranteed within
    its game's guess limit (:func:`guarantee`). A named policy that is guaranteed
    gets no line: the player chose it. One that is not names a policy of
    ``policies`` over the same lists, in the same mode, that is, or says that
    none is known.
    """
    lines = [] if reason is None else [f"Default policy: {reason}."]
    said = guarantee(summary)
    limit = guess_limit(summary)
    if said is None or limit is None:
        return lines
    if summary.worst <= limit:
        return [*lines, f"{summary.name} is {said}."] if reason is not None else lines
    same = [
        info.name
        for info in policies
        if info.worst <= limit
        and (info.game, info.length, info.mode) == (summary.game, summary.length, summary.mode)
        and _lists(info) == _lists(summary)
    ]
    other = (
        f"{min(same)} is (--policy {min(same)})"
        if same
        else f"no tree within {limit} over these lists is in the catalog"
    )
    return [*lines, f"{summary.name} is {said}; {other}."]


def _lists(info: PolicyInfo) -> tuple[str, str]:
    """Return what tells ``info``'s word lists apart: their hashes where the summary
    has them (a list's name may be any file's stem), else their names."""
    if info.targets_sha256 and info.guesses_sha256:
        return info.targets_sha256, info.guesses_sha256
    return info.targets, info.guesses


def histogram_line(summary: PolicyInfo, guesses: int) -> str:
    """Return the policy's guess histogram, this game's count marked ``[n:count]``."""
    histogram = dict(summary.histogram)
    numbers = range(min([*histogram, guesses]), max([*histogram, guesses]) + 1)
    cells = [f"{n}:{histogram.get(n, 0)}" for n in numbers]
    marked = " ".join(
        f"[{cell}]" if n == guesses else cell for n, cell in zip(numbers, cells, strict=True)
    )
    return (
        f"Guesses over the {plural(summary.count, 'target')} of {summary.name}: "
        f"{marked} (this game: {guesses}, marked)"
    )


def game_summary(summary: PolicyInfo, history: History) -> list[str]:
    """Return the lines printed after a won game: its share text (games with coloured
    replies; ``*`` when the policy plays a hard mode and every guess kept the NYT hard
    rule) and :func:`histogram_line`."""
    lines: list[str] = []
    if summary.game in SHARED_GAMES:
        game = make_game(summary.game, summary.length)
        played = [
            (game.normalise_word(word), game.parse_reply(reply, word)) for word, reply in history
        ]
        hard = (
            summary.mode in (HARD, NYT_HARD)
            and game.coloured_replies
            and all(
                nyt_hard_problem(game, played[:i], word) is None
                for i, (word, _) in enumerate(played)
            )
        )
        rows = [code_to_colours(code, game.length) for _, code in played]
        title = game.name[0].upper() + game.name[1:]
        lines += ["", format_share(title, rows, hard=hard), ""]
    lines.append(histogram_line(summary, len(history)))
    return lines


class _Session:
    """One game in the helper: the turns so far, the answer to them, a share text
    being pasted, and the words the game refused (the first other guess is shown)."""

    def __init__(self, backend: Guesswork, policy: str) -> None:
        self.backend = backend
        self.policy = policy
        self.history: History = []
        self.answer = backend.suggest(policy, self.history, PLAY_ALTERNATIVES)
        self.paste: _SharePaste | None = None
        #: Words the game refused (blank lines): never shown again, never the secret.
        self.refused: list[str] = []
        self._win_reply: str | None = None

    @property
    def choices(self) -> list[str]:
        """Return the guess shown first and its alternatives, best first, less the words
        the game refused (all of them, if nothing else is left)."""
        ranked = [self.answer.guess, *self.answer.alternatives]
        return [word for word in ranked if word not in self.refused] or ranked

    def possible_count(self) -> int:
        """Return how many secrets are possible: the answer's count, less the refused words
        among them (as in the Wordle-player seed, a word the game refuses is not its secret)."""
        return self.answer.remaining - sum(self._possible_secret(word) for word in self.refused)

    def _possible_secret(self, word: str) -> bool:
        """Return True if ``word`` is one of the policy's targets the turns so far allow."""
        try:
            if self._win_reply is None:
                summary = self.backend.policy_info(self.policy)
                game = make_game(summary.game, summary.length)
                self._win_reply = game.format_reply(game.win_reply)
            won = self.backend.suggest(self.policy, [*self.history, (word, self._win_reply)], 0)
        except GuessworkError:
            return False
        return won.solved and won.source in (STORED, LIVE)

    def show(self, was_off_list: bool) -> None:
        """Print the next guess (first saying so when the game has just left the targets)."""
        if self.answer.source == LIVE_GUESS_LIST and not was_off_list:
            print(
                f"No target of {self.policy} gives these replies: the secret is outside its "
                "answer list, so the helper goes on over its guess list as possible secrets."
            )
        print(
            f"Guess {len(self.history) + 1}: {self.choices[0]}  ({self.possible_count()} possible)"
        )

    def take(self, line: str) -> bool:
        """Act on one line typed at the reply prompt (stripped; not a quit).

        Returns True when the turns changed (a reply, an undo, a share text), so
        the next guess is to be shown; False when the same guess stands.
        """
        command = line.lower()
        if command in _HELP:
            print("\n".join(PLAY_COMMANDS))
            return False
        if command == _UNDO:
            return self._undo()
        if self.paste is not None:
            if not line or "://" in line:
                return False  # the blank line after the header; the link after the rows
            if self.paste.complete:
                return self._take_share(line)
            if is_share_row(line):
                self.paste.rows.append(line)
                if self.paste.complete:
                    words = plural(self.paste.expected, "word")
                    print(f"Share text read: type the {words} you played, in order.")
                return False
            print(f"Share text dropped: {line!r} is not a row of squares.")
            self.paste = None
        announced = share_header_rows(line)
        if announced:
            self.paste = _SharePaste(line, announced)
            return False
        if not line:
            self._skip()
            return False
        words = line.split()
        if len(words) > 1 and not is_share_row(line):
            return self._play((words[0], " ".join(words[1:])))
        return self._play((self.choices[0], line), reply_alone=True)

    def _play(self, turn: tuple[str, str], reply_alone: bool = False) -> bool:
        """Add ``turn`` if the policy accepts it (else say why); return whether it did.

        ``reply_alone``: the line held only the reply, for the suggested guess;
        if it was refused and looks like a word of the guess's length, the
        message says how to enter a word played instead (WORD REPLY).
        """
        try:
            self.answer = self.backend.suggest(
                self.policy, [*self.history, turn], PLAY_ALTERNATIVES
            )
        except ContradictoryHistoryError as error:
            print(f"Not accepted: {error} (if an earlier reply was mistyped, undo takes it back)")
            return False
        except GuessworkError as error:
            guess, typed = turn
            if reply_alone and typed.isalpha() and len(typed) == len(guess):
                word = typed.upper()
                print(
                    f"Not accepted: {typed!r} is not a reply to {guess}. If you played {word} "
                    f"instead, type it with the reply your game gave, e.g. '{word} "
                    f"{'.' * (len(word) - 1)}G'; else type the reply to {guess}"
                )
            else:
                print(f"Not accepted: {error}")
            return False
        self.history.append(turn)
        return True

    def _skip(self) -> None:
        """Show the next-best guess: the game refused the one shown (a blank line).

        As in the Wordle-player seed, the refused word is dropped for the rest of the
        game, as a guess and as a possible secret (the count shown drops by one when
        it was one).
        """
        if len(self.choices) < 2:
            print("No more alternatives; type the reply, or 'WORD REPLY'.")
            return
        self.refused.append(self.choices[0])
        skipped = sum(
            word in self.refused for word in [self.answer.guess, *self.answer.alternatives]
        )
        print(
            f"Guess {len(self.history) + 1}: {self.choices[0]}  "
            f"({self.possible_count()} possible; alternative {skipped})"
        )

    def _undo(self) -> bool:
        """Drop the share text being pasted, else take back the last turn."""
        if self.paste is not None:
            self.paste = None
            print("Share text dropped.")
            return False
        if not self.history:
            print("Nothing to undo.")
            return False
        guess, reply = self.history.pop()
        print(f"Took back turn {len(self.history) + 1}: {upper_word(guess)} {reply}")
        self.answer = self.backend.suggest(self.policy, self.history, PLAY_ALTERNATIVES)
        return True

    def _take_share(self, words: str) -> bool:
        """Replace the turns with the pasted share text's game, ``words`` its guesses."""
        assert self.paste is not None
        try:
            turns = share_history(self.paste.text(words))
            self.answer = self.backend.suggest(self.policy, turns, PLAY_ALTERNATIVES)
        except GuessworkError as error:
            print(f"Not accepted: {error} (type the words again; undo drops the share text)")
            return False
        self.history, self.paste = turns, None
        return True


def play(
    backend: Guesswork,
    policy: str,
    read: Callable[[str], str] = input,
    reason: str | None = None,
) -> int:
    """Run the interactive helper: suggest, read the reply, repeat until solved.

    It starts with the policy's name and the commands, then :func:`start_lines`
    (``reason``: why the policy was chosen, None when the player named it).

    Returns the exit status: 0 when the game is won, quit or the input ends.

    Raises:
        GuessworkError: the first suggestion fails (e.g. no such policy);
            later refusals are printed and the reply asked for again.
    """
    session = _Session(backend, policy)  # first: a policy refused is the only line printed
    summary = backend.policy_info(policy)
    print(f"{policy}: {PLAY_HELP}")
    for line in start_lines(summary, backend.policies(), reason):
        print(line)
    off_list = False
    while not session.answer.solved:
        session.show(off_list)
        off_list = session.answer.source == LIVE_GUESS_LIST
        if not read_until_taken(read, "reply> ", session.take):
            return 0
    print(f"Solved in {plural(len(session.history), 'guess')}.")
    print("\n".join(game_summary(summary, session.history)))
    return 0
