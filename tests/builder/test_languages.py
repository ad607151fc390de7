# ruff: noqa: RUF001  (Greek and Cyrillic letters that look Latin are the point here)
"""Word lists in any alphabet: the letter rule, invalid entries, replies, builds,
policy files, Jotto, and the generated language lists (guesswork-build wordlist).

The letter rule is client.letters'; these tests hold it to hand-checked cases
(accented and repeated letters, ß, Ñ, Greek final sigma) and run lists of
Spanish, German and Greek words through every stage the builder has.
"""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.catalog_specs import LANGUAGE_SPECS
from guesswork.builder.cli import run
from guesswork.builder.errors import WordListError
from guesswork.builder.greedy import step_of
from guesswork.builder.greedy_tree import build_greedy_tree
from guesswork.builder.matrices import alphabet_of, compute_reply_matrix, letter_array
from guesswork.builder.policies import (
    PolicySpec,
    build_policy,
)
from guesswork.builder.wordlists import (
    SHIPPED,
    WordList,
    load_wordlist,
    parse_words,
    shipped_words,
)
from guesswork.client.catalog import open_catalog, open_policy_file
from guesswork.client.games import Jotto, Wordle
from guesswork.client.letters import (
    KEEP_ACCENTS,
    LANGUAGES,
    LetterRule,
    list_language,
    rule_for,
    upper_word,
)

WORDLE = Wordle()
SPANISH = (
    "árbol",
    "ñandú",
    "cañón",
    "añejo",
    "niñez",
    "papel",
    "perro",
    "reloj",
    "ruido",
    "ÁRBOL",
    "gatos",
    "nieve",
    "señor",
    "sueño",
    "mañas",
    "leñas",
)
GERMAN = (
    "straße",
    "grüßen",
    "größer",
    "bäcker",
    "fußweg",
    "mädels",
    "schöne",
    "brücke",
    "weiße",
    "müssen",
)
GREEK = (
    "λόγος",
    "σοφός",
    "κόσμος",
    "φίλος",
    "ποταμός",
    "ήλιος",
    "νερό",
    "δρόμος",
    "καλός",
    "θάλασσα",
    "μήλος",
    "δάσος",
    "τοίχος",
    "βουνό",
    "λαγός",
    "ψωμί",
    "χρόνος",
)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def write(tmp_path: Path, name: str, words: tuple[str, ...] | list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(f"{word}\n" for word in words), encoding="utf-8")
    return str(path)


def reply(guess: str, target: str, rule: LetterRule = KEEP_ACCENTS) -> str:
    """Return the Wordle reply as text, both words read with ``rule``."""
    game = Wordle(len(rule.word(guess)))
    return game.format_reply(game.reply(rule.word(guess), rule.word(target)))


# -- the letter rule ------------------------------------------------------------


def test_words_keep_their_length_in_upper_case() -> None:
    assert upper_word("straße") == "STRAẞE"  # not STRASSE: one letter stays one
    assert upper_word("λογος") == "ΛΟΓΟΣ" == upper_word("ΛΟΓΟΣ")  # final sigma is sigma
    decomposed = "n\u0303andu\u0301"  # ñandú typed as letters and combining marks
    assert upper_word(decomposed) == "ÑANDÚ" and len(upper_word(decomposed)) == 5
    assert unicodedata.is_normalized("NFC", upper_word(decomposed))
    assert upper_word("crane") == "CRANE"


def test_each_language_has_its_accent_rule() -> None:
    spanish, german, greek, russian = (rule_for(code) for code in ("es", "de", "el", "ru"))
    assert spanish.word("ñandú") == "ÑANDU" and spanish.word("pingüino") == "PINGUINO"
    assert german.word("größer") == "GRÖẞER" and german.word("café") == "CAFÉ"
    assert rule_for("de", fold_accents=True).word("grüße café") == "GRÜẞE CAFE"
    assert rule_for("es", fold_accents=False).word("árbol") == "ÁRBOL"
    assert greek.word("λόγος") == "ΛΟΓΟΣ" and greek.word("ΐσως") == "ΙΣΩΣ"
    assert russian.word("ещё") == "ЕЩЕ" and russian.word("йод") == "ЙОД"
    assert rule_for("fr").word("élève") == "ELEVE" and rule_for().word("élève") == "ÉLÈVE"
    assert set(LANGUAGES) >= {"es", "de", "fr", "el", "ru"}


def test_a_list_name_says_its_language() -> None:
    assert list_language("es-5-top2000") == "es"
    assert list_language("/tmp/lists/ru-6-top3000.txt") == "ru"
    for other in ("wordle-answers-2309", "es.txt", "xx-5-top10", "enable1-5"):
        assert list_language(other) == ""


# -- invalid entries ----------------------------------------------------------


def test_invalid_entries_are_refused_by_line(tmp_path: Path) -> None:
    path = write(
        tmp_path, "bad.txt", ["árbol", "d0s12", "pαpel", "it's", "x\u0303yzw", "ñandú", "casa-"]
    )
    with pytest.raises(WordListError) as caught:
        load_wordlist(path, WORDLE)
    message = str(caught.value)
    assert message.startswith("5 invalid entries in ")
    assert "line 2: 'd0s12' not made only of letters ('0' is not a letter)" in message
    assert "line 3: 'pαpel' mixes scripts (Latin P and Greek Α)" in message
    assert 'line 4: "it\'s" not made only of letters ("\'" is not a letter)' in message
    assert "(and 2 more)" in message  # the rest are counted, never dropped silently
    assert "\n" not in message
    report = parse_words(Path(path).read_text(encoding="utf-8"), WORDLE, path)
    assert [line for line, _, _ in report.invalid] == [2, 3, 4, 5, 7]
    assert "has an accent no single letter holds (COMBINING TILDE)" in report.invalid[3][2]
    assert report.kept == ["ÁRBOL", "ÑANDÚ"]


def test_the_issues_spanish_list_builds_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "es.txt", ["árbol", "perro", "ñandú", "gatos"])
    status, out, err = run_cli(capsys, "evaluate", "--targets", path, "--json", "--quiet")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["targets"] == 4 and report["first_guess"] in {"ÁRBOL", "PERRO", "ÑANDÚ", "GATOS"}


def test_folding_accents_merges_words_and_keeps_the_languages_letters(tmp_path: Path) -> None:
    path = write(tmp_path, "es.txt", SPANISH)
    kept = load_wordlist(path, WORDLE)
    folded = load_wordlist(path, WORDLE, rule_for("es"))
    assert "ÁRBOL" in kept.words and "ARBOL" not in kept.words and len(kept) == len(SPANISH) - 1
    assert "ARBOL" in folded.words and "ÑANDU" in folded.words and "CAÑON" in folded.words
    assert len(folded) == len(SPANISH) - 1  # árbol and ÁRBOL were one word already
    assert kept.sha256 != folded.sha256


# -- replies ------------------------------------------------------------------


def test_replies_are_right_for_repeated_and_accented_letters() -> None:
    # Two Ñ against one: the first is yellow, the second a miss (the NYT rule).
    assert reply("ÑAÑOS", "AÑEJO") == "YY.Y."
    assert reply("AÑEJO", "ÑAÑOS") == "YY..Y"
    assert reply("NIÑOS", "AÑEJO") == "..YY."  # N and Ñ are different letters
    assert reply("ÑAÑOS", "ÑAÑOS") == "GGGGG" and reply("ÑAÑOS", "NANOS") == ".G.GG"
    # Accents kept, Á is not A; folded, they are one.
    assert reply("árbol", "ARBOL") == ".GGGG"
    assert reply("árbol", "ARBOL", rule_for("es")) == "GGGGG"
    # Two Ä against one, in either order; ẞ is a letter of its own, not S.
    assert reply("äpfäl", "lärms") == "Y...Y" and reply("lärms", "äpfäl") == "YY..."
    assert reply("weiße", "weise") == "GGG.G" and reply("grüßen", "größer") == "GG.GG."
    # Greek: final and medial sigma are one letter.
    assert reply("σοφός", "λόγος", rule_for("el")) == ".G.GG"
    assert reply("σοφος", "ΣΟΦΟΣ") == "GGGGG"


@pytest.mark.parametrize("letters", [6, 30, 40, 70])
def test_reply_matrices_agree_with_the_rule_for_any_alphabet(letters: int) -> None:
    """Up to 32 letters the kernel's letter sets are 32-bit, up to 64 64-bit, past that
    replies are computed per guess: each agrees with the scalar rule (Wordle, Jotto)."""
    rng = random.Random(letters)
    alphabet = [chr(0x100 + i) for i in range(letters)]  # Latin Extended-A: one script
    common = alphabet[:5]  # repeated letters in many words
    words = sorted(
        {
            "".join(rng.choice(common if rng.random() < 0.5 else alphabet) for _ in range(5))
            for _ in range(200)
        }
    )
    listed = WordList.from_words("any", words)
    matrix = compute_reply_matrix(WORDLE, listed, listed)
    assert (matrix == [[WORDLE.reply(g, t) for t in words] for g in words]).all()
    distinct = sorted(w for w in words if len(set(w)) == 5)
    jotto = WordList.from_words("jotto", distinct)
    counts = compute_reply_matrix(Jotto(), jotto, jotto)
    assert (counts == [[Jotto().reply(g, t) for t in distinct] for g in distinct]).all()


def test_letter_codes_are_shared_by_the_lists_compared() -> None:
    guesses, targets = ("ΑΒΓΔΕ",), ("ΕΔΓΒΑ", "ΩΨΧΦΥ")
    alphabet = alphabet_of(guesses, targets)
    assert alphabet == "".join(sorted("ΑΒΓΔΕΩΨΧΦΥ"))
    assert letter_array(guesses, 5, alphabet)[0].tolist() == [0, 1, 2, 3, 4]
    assert letter_array(["CRANE"], 5).tolist() == [[2, 17, 0, 13, 4]]  # A-Z: A=0..Z=25
    with pytest.raises(ValueError, match="outside the alphabet"):
        letter_array(["ΑΒΓΔΖ"], 5, alphabet)


# -- builds, policy files, Jotto ---------------------------------------------------


@pytest.mark.parametrize(
    ("words", "language", "mode", "metric"),
    [
        (SPANISH, "es", "normal", "neg_entropy"),
        (SPANISH, None, "nyt-hard", "neg_entropy"),
        (GERMAN, None, "normal", "approx_entropy"),
        (GERMAN, "de", "hard", "max"),
        (GREEK, "el", "normal", "neg_entropy"),
        (GREEK, "el", "nyt-hard", "expectation"),
    ],
)
def test_lists_of_any_alphabet_build_and_round_trip_through_a_policy_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    words: tuple[str, ...],
    language: str | None,
    mode: str,
    metric: str,
) -> None:
    lengths = {len(upper_word(w)) for w in words}
    length = max(lengths, key=lambda n: sum(len(upper_word(w)) == n for w in words))
    path = write(tmp_path, "list.txt", [w for w in words if len(upper_word(w)) == length])
    catalog = str(tmp_path / "catalog.sqlite")
    options = [
        "--targets",
        path,
        "--length",
        str(length),
        "--mode",
        mode,
        "--metric",
        metric,
        "--quiet",
        *(["--language", language] if language else []),
    ]
    status, out, _ = run_cli(capsys, "evaluate", *options, "--json")
    assert status == 0
    evaluated = json.loads(out)
    status, out, _ = run_cli(
        capsys, "build", *options, "--catalog", catalog, "--name", "mine", "--json"
    )
    assert status == 0 and json.loads(out)["mean"] == evaluated["mean"]
    exported = str(tmp_path / "mine.gwp")
    assert run_cli(capsys, "export", "mine", "--catalog", catalog, "--output", exported)[0] == 0
    other = str(tmp_path / "other.sqlite")
    assert run_cli(capsys, "import", exported, "--catalog", other)[0] == 0
    assert run_cli(capsys, "verify", "--catalog", other)[0] == 0
    with open_catalog(catalog) as built, open_catalog(other) as imported:
        policy, again = built.policy("mine"), imported.policy("mine")
        assert again.content_hash == policy.content_hash
        assert again.vocabulary == policy.vocabulary and not "".join(policy.vocabulary).isascii()
        for target in policy.targets:
            assert again.play(target)[-1] == target
    with open_policy_file(Path(exported)) as single:
        assert single.policy("mine").content_hash == policy.content_hash


def test_jotto_counts_distinct_letters_of_any_alphabet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jotto = Jotto()
    assert jotto.word_problem("AÑEJO") is None and jotto.word_problem("ÑAÑOS") == "repeats a letter"
    assert jotto.reply("ÁRBOL", "ARBOL") == 4 and jotto.reply("ΛΟΓΟΣ", "ΣΟΦΟΣ") == 2
    path = write(tmp_path, "el.txt", [w for w in GREEK if len(w) == 5])
    status, out, _ = run_cli(
        capsys,
        "evaluate",
        "--game",
        "jotto",
        "--targets",
        path,
        "--language",
        "el",
        "--mode",
        "hard",
        "--json",
        "--quiet",
    )
    report = json.loads(out)
    # Words of five distinct letters, one per set of letters (the seeds' Jotto list).
    folded = (rule_for("el").word(word) for word in GREEK)
    kept = {frozenset(word) for word in folded if len(set(word)) == 5 == len(word)}
    assert status == 0 and report["targets"] == len(kept)


# -- the generated language lists --------------------------------------------------


def test_the_shipped_language_lists_and_their_policies() -> None:
    for spec in LANGUAGE_SPECS:
        words = shipped_words(spec.targets)
        language = LANGUAGES[list_language(spec.targets)]
        assert len(words) == 2000 == SHIPPED[spec.targets].count
        assert set("".join(words)) <= language.letters(language.rule)
        assert spec.name() == f"wordle-{spec.targets}-normal-neg-entropy"
    greek = build_policy(next(s for s in LANGUAGE_SPECS if s.targets == "el-5-top2000"))
    assert greek.data.stats["count"] == 2000 and greek.data.stats["worst"] <= 7


def test_the_shipped_spanish_list_regenerates_byte_for_byte(tmp_path: Path) -> None:
    from guesswork.builder.language_lists import DATA, write_list

    output = tmp_path / "es-5-top2000.txt"
    _, count, _ = write_list("es", 5, 2000, rule_for("es"), output)
    assert output.read_bytes() == (DATA / "es-5-top2000.txt").read_bytes()
    assert count == 2000


def test_wordlist_writes_to_stdout_or_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        capsys, "wordlist", "--language", "el", "--length", "5", "--top", "50"
    )
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(
        "# el-5-top50: the 50 most frequent 5-letter Greek words of wordfreq"
    )
    assert lines[0].endswith("Made by: guesswork-build wordlist --language el --length 5 --top 50")
    # The same source and filters: the first 50 words of the shipped 2000.
    assert [upper_word(w) for w in lines[1:]] == list(shipped_words("el-5-top2000")[:50])
    output = tmp_path / "es-6-top30.txt"
    status, out, _ = run_cli(
        capsys,
        "wordlist",
        "--language",
        "es",
        "--length",
        "6",
        "--top",
        "30",
        "--no-fold-accents",
        "--output",
        str(output),
        "--json",
    )
    info = json.loads(out)
    text = output.read_text(encoding="utf-8")
    assert status == 0 and info["words"] == 30 and info["name"] == "es-6-top30"
    assert "--no-fold-accents" in text.splitlines()[0] and "accents kept" in text.splitlines()[0]
    words = load_wordlist(str(output), Wordle(6)).words
    assert len(words) == 30 and not "".join(words).isascii()  # accents kept: Á, É ...
    status, _, err = run_cli(capsys, "wordlist", "--language", "xx")
    assert status == 2 and "invalid choice: 'xx'" in err


def test_an_alphabet_past_the_kernel_widths_still_builds() -> None:
    """Forty letters: 64-bit letter sets in the reply kernel and wider NYT states."""
    rng = random.Random(7)
    alphabet = [chr(0x100 + i) for i in range(40)]
    words = sorted({"".join(rng.sample(alphabet, 5)) for _ in range(120)})
    listed = WordList.from_words("wide", words)
    for mode in ("normal", "nyt-hard", "hard"):
        spec = PolicySpec("wordle", targets="unused", mode=mode)
        step = step_of(spec.strategy(WORDLE), len(listed), WORDLE, nyt_hard=spec.nyt_hard)
        tree = build_greedy_tree(WORDLE, listed, listed, step.options)
        scores = np.asarray(tree.target_scores)
        assert len(scores) == len(words) and scores.min() >= 1
