"""Degenerate writer output is flagged at once (whole texts and streams); ordinary answers are not."""

from __future__ import annotations

import doctest

import pytest

from serving.answer import degenerate
from serving.answer.degenerate import DegenerationGuard, degeneration

# The two loops SmolLM2-135M produced as writer (the examples).
ANSWER_LOOP = "The answer to the question is: " * 12
EXCEPTION_LIST = "\n".join(f"{i}. If an exception occurs {tail}" for i, tail in enumerate([
    "during execution of the try clause, the rest of the clause is skipped.",
    "which does not match the exception named in the except clause, it is passed on to outer try statements.",
    "in the except clause, the exception is re-raised after the finally clause has been executed.",
    "in the else clause, the exception is re-raised.",
    "during the finally clause, the exception is lost.",
    "while the finally clause runs, the finally clause is executed before the exception is raised.",
    "in a with statement, the file is closed.",
    "in the handler, the handler is called.",
    "in the callback, the callback returns None.",
    "in a generator, the generator is closed.",
    "at the top level, the traceback is printed.",
    "in the class body, the class is not created.",
], start=1))
INLINE_EXCEPTION_LIST = EXCEPTION_LIST.replace("\n", " ")

# Ordinary answers and technical prose: never flagged.
FINE = [
    "EPOLLET requests edge-triggered notification [1].",
    "Use the EPOLLET flag.",
    "42",
    "I cannot answer from these passages.",
    # a flag quoted twice
    "Pass --force to overwrite existing files; without --force, tar refuses to overwrite them.",
    "Use -x to extract. The -x option extracts files from the archive named by -f.",
    # a 3-sentence answer
    "The epoll API monitors multiple file descriptors to see if I/O is possible on any of them. "
    "It can be used as an edge-triggered or a level-triggered interface. The default behavior is level-triggered.",
    # man-page prose (epoll(7), glob(3), tar(1))
    "The epoll API performs a similar task to poll(2): monitoring multiple file descriptors to see if I/O is "
    "possible on any of them. The epoll API can be used either as an edge-triggered or a level-triggered interface "
    "and scales well to large numbers of watched file descriptors. The central concept of the epoll API is the "
    "epoll instance, an in-kernel data structure which, from a user-space perspective, can be considered as a "
    "container for two lists: The interest list (sometimes also called the epoll set): the set of file descriptors "
    "that the process has registered an interest in monitoring. The ready list: the set of file descriptors that "
    "are \"ready\" for I/O. The ready list is a subset of (or, more precisely, a set of references to) the file "
    "descriptors in the interest list. The ready list is dynamically populated by the kernel as a result of I/O "
    "activity on those file descriptors.",
    "The glob() function searches for all the pathnames matching pattern according to the rules used by the shell "
    "(see glob(7)). No tilde expansion or parameter substitution is done; if you want these, use wordexp(3). "
    "The globfree() function frees the dynamically allocated storage from an earlier call to glob(). "
    "The results of a glob() call are stored in the structure pointed to by pglob.",
    "-f, --file=ARCHIVE\n    Use archive file or device ARCHIVE. If this option is not given, tar will first "
    "examine the environment variable `TAPE'. If it is set, its value will be used as the archive name. Otherwise, "
    "tar will assume the compiled-in default.\n-x, --extract, --get\n    Extract files from an archive. Arguments "
    "are optional. When given, they specify names of the archive members to be extracted.",
    # a legitimate numbered list and sentences sharing a short start
    "1. Create the environment with python -m venv tutorial-env.\n2. Activate it with source "
    "tutorial-env/bin/activate.\n3. Install packages with python -m pip install novas.",
    "If the file exists, it is truncated. If the file does not exist, it is created. If the file is a "
    "directory, open() fails with EISDIR.",
    "EPOLL_CTL_ADD adds an entry, EPOLL_CTL_MOD changes the settings of an entry and EPOLL_CTL_DEL removes it.",
]


@pytest.mark.parametrize("text", FINE, ids=range(len(FINE)))
def test_ordinary_answers_are_not_degenerate(text):
    assert degeneration(text) is None


@pytest.mark.parametrize("text", FINE, ids=range(len(FINE)))
def test_ordinary_answers_stream_through_the_guard(text):
    guard = DegenerationGuard()
    for i in range(0, len(text), 3):
        assert guard.feed(text[i:i + 3]) is None, text[: i + 3]
    assert guard.finish() is None and guard.text == text


def test_the_answer_to_the_question_loop():
    reason = degeneration(ANSWER_LOOP)
    assert reason is not None and "'the answer to the question' repeat 3 times" in reason
    assert degeneration("The flag is EPOLLET. " + ANSWER_LOOP) is not None


@pytest.mark.parametrize("text", [EXCEPTION_LIST, INLINE_EXCEPTION_LIST])
def test_numbered_list_repeating_one_stem(text):
    reason = degeneration(text)
    assert reason is not None and "if an exception occurs" in reason


def test_list_items_with_one_stem_are_flagged_even_when_far_apart():
    """Items longer than the n-gram window: the list check sees their common start."""
    text = "\n".join(f"{i}. Set the flag to " + " ".join(f"word{i}x{k}" for k in range(40)) + "." for i in range(1, 4))
    assert degeneration(text) == "3 list items start with 'set the flag to'"


def test_repeated_sentences_and_lines():
    assert degeneration("EPOLLET is edge-triggered. EPOLLET is edge-triggered.") == \
        "the sentence 'epollet is edge-triggered' repeats 2 times"
    assert degeneration("Yes. Yes. Yes.") is not None
    assert degeneration("Yes. Yes.") is None  # a short sentence twice: not yet a loop
    assert "line" in degeneration("Answer: the EPOLLET flag\nAnswer: the EPOLLET flag\n")


def test_long_repeated_sequences_and_runaway_text():
    sentence = "the kernel delivers an event for the file descriptor when it becomes ready"
    assert "repeated word sequences" in degeneration(f"{sentence} and {sentence} too")
    assert "in a row" in degeneration("It is very very very very very very slow.")
    words = " ".join(["alpha beta gamma delta epsilon zeta eta theta iota kappa".split()[k % 10] + f" x{k % 7}"
                      for k in range(60)])
    assert "distinct" in degeneration(words)


def test_empty_and_punctuation_only():
    assert degeneration("") == "empty answer"
    assert degeneration(" \n\t") == "empty answer"
    assert degeneration("... !!! ?") == "only punctuation"
    assert degeneration("See " + "=" * 50) == "40 '=' characters in a row"
    guard = DegenerationGuard()
    assert guard.feed(". " * 45) == "only punctuation"  # caught while streaming


def test_guard_stops_a_loop_early_and_keeps_its_reason():
    guard = DegenerationGuard()
    reason = None
    fed = 0
    while reason is None:
        piece = ANSWER_LOOP[fed:fed + 4]
        assert piece, "the loop was never flagged"
        reason = guard.feed(piece)
        fed += len(piece)
    assert fed < len("The answer to the question is: ") * 3 + 20  # within the third repetition
    assert guard.feed("anything else") == reason == guard.finish() == guard.reason


def test_guard_on_the_list_loop_stops_before_its_end():
    guard = DegenerationGuard()
    reasons = [guard.feed(EXCEPTION_LIST[i:i + 5]) for i in range(0, len(EXCEPTION_LIST), 5)]
    first = next(i for i, r in enumerate(reasons) if r is not None)
    assert first * 5 < EXCEPTION_LIST.index("4. If")  # stopped at the end of the third item, not the twelfth


def test_guard_agrees_with_the_whole_text_check():
    for text in FINE + [ANSWER_LOOP, EXCEPTION_LIST, "It lists files. It lists files.", ""]:
        guard = DegenerationGuard()
        for i in range(0, len(text), 7):
            guard.feed(text[i:i + 7])
        assert (guard.finish() is None) == (degeneration(text) is None), text[:60]


def test_doctests():
    assert doctest.testmod(degenerate).failed == 0


def test_list_markers_split_across_deltas():
    text = "Steps:\n  - Set the flag to EPOLLET.\n  - Set the flag to EPOLLIN.\n  - Set the flag to EPOLLOUT.\n"
    assert degeneration(text) == "3 list items start with 'set the flag to'"
    for size in (1, 2, 3, 5):
        guard = DegenerationGuard()
        reasons = [guard.feed(text[i:i + size]) for i in range(0, len(text), size)]
        assert reasons[-1] == guard.finish() == degeneration(text), size  # found while streaming


def test_man_page_prose_windows_are_not_degenerate():
    """Every 3-sentence window of real man pages (what a long quoted answer looks like)."""
    import gzip
    import re
    from pathlib import Path

    from pipelines.chunk.sentences import split_sentences

    man7 = Path(__file__).resolve().parents[2] / "samples" / "corpus" / "man7"
    for name in ("epoll.7.gz", "glob.7.gz", "futex.7.gz"):
        lines = [line for line in gzip.open(man7 / name, "rt").read().splitlines()
                 if not line.startswith((".", "'", '\\"'))]
        text = re.sub(r"\\f[BIRP]|\\[-e&(]\S?", "", " ".join(lines))
        sentences = [text[a:b] for a, b in split_sentences(text)]
        for i in range(len(sentences)):
            window = " ".join(sentences[i:i + 3])
            assert degeneration(window) is None, (name, window[:200])


def test_sentences_repeating_one_stem():
    text = ("If an exception occurs, the clause is skipped. If an exception occurs, the handler runs. "
            "If an exception occurs, it is re-raised. Done.")
    assert degeneration(text) == "3 sentences start with 'if an exception occurs'"
    assert degeneration(text.replace("If an exception occurs, it", "When nothing fails, it")) is None
