"""Tests for pipelines.chunk.sentences.split_sentences."""

from __future__ import annotations

import random
import time

import pytest

from pipelines.chunk.sentences import split_sentences


def sents(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


def check_spans(text: str) -> None:
    spans = split_sentences(text)
    prev = 0
    covered = set()
    for a, b in spans:
        assert prev <= a < b <= len(text), (a, b)
        assert not text[a].isspace() and not text[b - 1].isspace()
        covered.update(range(a, b))
        prev = b
    assert covered >= {i for i, c in enumerate(text) if not c.isspace()}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        (
            "Use e.g. apples, i.e. fruit, etc. and more. Next one.",
            ["Use e.g. apples, i.e. fruit, etc. and more.", "Next one."],
        ),
        (
            "Dr. Smith met Mr. Jones and Mrs. Brown. Prof. Lee agreed.",
            ["Dr. Smith met Mr. Jones and Mrs. Brown.", "Prof. Lee agreed."],
        ),
        ("See Fig. 3 and No. 5 for approx. 10 cases. Done.", ["See Fig. 3 and No. 5 for approx. 10 cases.", "Done."]),
        (
            "Smith et al. Showed it. Compare cf. Jones and St. Louis. Done.",
            ["Smith et al. Showed it.", "Compare cf. Jones and St. Louis.", "Done."],
        ),
        ("He moved to the U.S. Army base. J. R. R. Tolkien wrote it.", ["He moved to the U.S. Army base.", "J. R. R. Tolkien wrote it."]),
        ("Apples vs. Oranges is a comparison. Ok.", ["Apples vs. Oranges is a comparison.", "Ok."]),
        ("I said no. Then I left.", ["I said no.", "Then I left."]),
    ],
)
def test_abbreviations(text: str, expected: list[str]) -> None:
    assert sents(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pi is 3.14 roughly. It is irrational.", ["Pi is 3.14 roughly.", "It is irrational."]),
        ("Upgrade to v1.2.3 now. Version 2.0. Next.", ["Upgrade to v1.2.3 now.", "Version 2.0.", "Next."]),
        ("Edit config.py and visit example.com today. Then run.", ["Edit config.py and visit example.com today.", "Then run."]),
        ("Go to https://example.com/a.b?x=1. Then stop.", ["Go to https://example.com/a.b?x=1.", "Then stop."]),
        ("The sum was 1,234.56 USD. Fine.", ["The sum was 1,234.56 USD.", "Fine."]),
        ("Costs rose in 2020. In 2021 they fell.", ["Costs rose in 2020.", "In 2021 they fell."]),
        ("Wait... what happened? Nothing.", ["Wait... what happened?", "Nothing."]),
        ("Really?! Yes.", ["Really?!", "Yes."]),
        ("it ends. and lowercase continues.", ["it ends. and lowercase continues."]),
    ],
)
def test_numbers_urls_ellipses(text: str, expected: list[str]) -> None:
    assert sents(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
        ("(See below.) Next one.", ["(See below.)", "Next one."]),
        ('It ended. "Why?" she asked.', ["It ended.", '"Why?" she asked.']),
        ("He wrote: “Hello.” ‘Fine.’ Done.", ["He wrote: “Hello.”", "‘Fine.’", "Done."]),
        ("This is it. (Really.) Yes.", ["This is it.", "(Really.)", "Yes."]),
    ],
)
def test_quotes_and_brackets(text: str, expected: list[str]) -> None:
    assert sents(text) == expected


def test_paragraphs_and_wrapped_lines() -> None:
    text = (
        "A paragraph that is hard wrapped\nover several lines and continues\nhere. Second "
        "sentence\nwraps too\n\nNew paragraph without a period\n   \n\tAnother one."
    )
    assert sents(text) == [
        "A paragraph that is hard wrapped\nover several lines and continues\nhere.",
        "Second sentence\nwraps too",
        "New paragraph without a period",
        "Another one.",
    ]


def test_list_items() -> None:
    text = "Steps:\n- install it\n- run it\n* star item\n1. first\n2) second\na) alpha\n(b) beta\nAfter list."
    assert sents(text) == [
        "Steps:",
        "- install it",
        "- run it",
        "* star item",
        "1. first",
        "2) second",
        "a) alpha",
        "(b) beta\nAfter list.",
    ]


def test_list_item_continuation_stays_with_item() -> None:
    text = "- a long item that wraps\n  onto a second line. It has two sentences.\n- next"
    assert sents(text) == [
        "- a long item that wraps\n  onto a second line.",
        "It has two sentences.",
        "- next",
    ]


def test_code_lines_start_units() -> None:
    text = (
        "Run this:\n    x = foo(1)\n    print(x)\nThen it works.\n"
        "def main(argv):\nimport os\n>>> 1 + 1\nresult = compute()\nif (x) {\n}\nProse again."
    )
    assert sents(text) == [
        "Run this:",
        "x = foo(1)",
        "print(x)",
        "Then it works.",
        "def main(argv):",
        "import os",
        ">>> 1 + 1",
        "result = compute()",
        "if (x) {",
        "}",
        "Prose again.",
    ]


def test_prose_lines_not_mistaken_for_code() -> None:
    text = "The import duties\nwere high; the\nclass was full and\nreturn trips (rare) were\nbooked. Done."
    assert sents(text) == [
        "The import duties\nwere high; the\nclass was full and\nreturn trips (rare) were\nbooked.",
        "Done.",
    ]


def test_cjk_and_unicode() -> None:
    text = "日本語です。次の文！終わり？ Ünïcode façade. Émile arrived 🎉. Ok."
    assert sents(text) == ["日本語です。", "次の文！", "終わり？", "Ünïcode façade.", "Émile arrived 🎉.", "Ok."]


def test_edge_inputs() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\t\n ") == []
    assert sents("  single  ") == ["single"]
    assert sents("...") == ["..."]
    assert sents("End.") == ["End."]
    assert sents(". A") == [".", "A"]


def test_spans_cover_random_text() -> None:
    rng = random.Random(7)
    alphabet = list("abcXYZ019 .!?\"')(\n\t-*…。日é\u0301") + ["e.g.", "Dr.", "\n\n", "    ", "1. "]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
        check_spans(text)


def test_linear_time_on_pathological_input() -> None:
    for text in ("." * 200_000, ". " * 100_000, "a." * 100_000, "\n" * 100_000 + "x", "A. " * 60_000):
        t = time.perf_counter()
        check_spans(text) if len(text) < 50_000 else split_sentences(text)
        assert time.perf_counter() - t < 2.0
