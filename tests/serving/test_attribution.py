"""Citations attributed after generation (pure logic: a hashed bag-of-words stand-in embedder)."""

from __future__ import annotations

import asyncio
import doctest
import zlib

import numpy as np
import pytest

from cluster.config import AnswerConfig
from serving.answer import attribution
from serving.answer.attribution import AttributedAnswer, attribute, with_marker
from serving.answer.citations import cited_sentences
from serving.answer.forms import WriterForm
from serving.answer.verify import check_answer, content_words

PASSAGES = [
    "The glob() function searches for all the pathnames matching pattern according to the rules used by the "
    "shell. No tilde expansion or parameter substitution is done.",
    "EPOLLET requests edge-triggered notification for the associated file descriptor. The default behavior "
    "for epoll is level-triggered.",
    "The epoll API monitors multiple file descriptors to see if I/O is possible on any of them.",
]
SETTINGS = AnswerConfig()


class FakeEmbed:
    """Hashed bag-of-words unit vectors over the verifier's content words; counts its calls."""

    def __init__(self, dim: int = 512) -> None:
        self.dim = dim
        self.calls: list[list[str]] = []

    async def __call__(self, texts: list[str]) -> list[np.ndarray]:
        self.calls.append(list(texts))
        out = []
        for text in texts:
            v = np.zeros(self.dim)
            for word in content_words(text):
                v[zlib.crc32(word.encode()) % self.dim] += 1.0
            n = float(np.linalg.norm(v))
            out.append(v / n if n else v)
        return out


def run(answer: str, passages=PASSAGES, embed=None, **kw) -> AttributedAnswer:
    kw = {"lexical_weight": SETTINGS.lexical_weight, "min_support": SETTINGS.min_support, **kw}
    return asyncio.run(attribute(answer, passages, embed or FakeEmbed(), **kw))


def test_each_sentence_cites_its_best_passage_with_one_embed_call():
    embed = FakeEmbed()
    out = run("EPOLLET requests edge-triggered notification. The glob() function searches for pathnames "
              "matching a pattern. The epoll API monitors multiple file descriptors.", embed=embed)
    assert out.answer == ("EPOLLET requests edge-triggered notification [2]. The glob() function searches for "
                          "pathnames matching a pattern [1]. The epoll API monitors multiple file descriptors [3].")
    assert [s.cited for s in out.sentences] == [[2], [1], [3]] and out.cited == [2, 1, 3]
    assert all(s.support >= SETTINGS.min_support for s in out.sentences)
    assert len(embed.calls) == 1  # the sentences and every passage window in ONE call
    assert embed.calls[0][:3] == [s.text for s in out.sentences]
    # the attributed text parses back into the same sentences and citations
    assert [(s.text, s.cited) for s in cited_sentences(out.answer)] == [(s.text, s.cited) for s in out.sentences]


def test_a_supporting_citation_is_kept():
    """Both passages contain the words; the writer's own (valid, supporting) citation stays."""
    passages = ["EPOLLET requests edge-triggered notification.",
                "EPOLLET requests edge-triggered notification for the file descriptor, see epoll_ctl."]
    out = run("EPOLLET requests edge-triggered notification [2].", passages)
    assert out.answer == "EPOLLET requests edge-triggered notification [2]."
    assert run("EPOLLET requests edge-triggered notification.", passages).sentences[0].cited == [1]  # the best
    twins = run("EPOLLET requests edge-triggered notification.", [passages[0], passages[0]])
    assert twins.sentences[0].cited == [1]  # a tie: the better-ranked (earlier) passage


def test_wrong_or_invalid_citations_are_replaced_by_the_best_passage():
    out = run("EPOLLET requests edge-triggered notification [1]. No tilde expansion is done [7].")
    assert out.answer == "EPOLLET requests edge-triggered notification [2]. No tilde expansion is done [1]."
    several = run("EPOLLET requests edge-triggered notification [1, 3, 2].")
    assert several.answer == "EPOLLET requests edge-triggered notification [2]."


def test_unsupported_and_empty_sentences_get_no_citation():
    out = run("The boiling point of tungsten is 5555 degrees [2]. It is so [1].")
    assert out.answer == "The boiling point of tungsten is 5555 degrees. It is so."
    assert [s.cited for s in out.sentences] == [[], []] and out.cited == []
    assert out.sentences[0].support < SETTINGS.min_support and out.sentences[1].support == 0.0


def test_min_support_decides():
    answer = "EPOLLET asks for edge-triggered mode on sockets."
    assert run(answer, min_support=0.1).sentences[0].cited == [2]
    assert run(answer, min_support=0.99).sentences[0].cited == []


def test_paragraphs_stay_apart_and_markers_go_before_the_final_punctuation():
    out = run("EPOLLET requests edge-triggered notification!\n\nNo tilde expansion is done.")
    assert out.answer == "EPOLLET requests edge-triggered notification [2]!\n\nNo tilde expansion is done [1]."
    assert with_marker('Use "EPOLLET".', 2) == 'Use "EPOLLET" [2].'
    assert with_marker("Use EPOLLET", 2) == "Use EPOLLET [2]"
    assert with_marker("Use EPOLLET.", None) == "Use EPOLLET."


@pytest.mark.parametrize("answer, passages", [("", PASSAGES), ("  \n ", PASSAGES), ("[1]", PASSAGES)])
def test_nothing_to_attribute_embeds_nothing(answer, passages):
    embed = FakeEmbed()
    out = run(answer, passages, embed=embed)
    assert out.answer == "" and out.sentences == [] and embed.calls == []


def test_no_passages():
    embed = FakeEmbed()
    out = run("EPOLLET requests edge-triggered notification [1].", [], embed=embed)
    assert out.answer == "EPOLLET requests edge-triggered notification." and out.sentences[0].cited == []
    assert embed.calls == []


def test_the_verifier_agrees_with_the_attribution():
    """The attributed answer passes the verifier's support check with the same support values."""
    embed = FakeEmbed()
    out = run("EPOLLET requests edge-triggered notification. The default behavior for epoll is "
              "level-triggered. No tilde expansion is done.", embed=embed)
    form = WriterForm.model_construct(answer=out.answer, answer_value="", cited_ids=out.cited, explanation="",
                                      is_blank=False)
    v = asyncio.run(check_answer(form, PASSAGES, embed, SETTINGS))
    assert v.verdict == "pass", v.reasons
    assert [c.cited for c in v.sentences] == [s.cited for s in out.sentences]
    assert [c.support for c in v.sentences] == [s.support for s in out.sentences]
    assert all(c.supported for c in v.sentences)


def test_doctests():
    assert doctest.testmod(attribution).failed == 0
