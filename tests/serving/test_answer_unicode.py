"""Answers in any script: the extractive answerer's words, sentences and anchors are Unicode-aware, so an
Arabic question whose passage states the answer is answered, and refused over a passage of the same article
that does not — with the shipped cross-encoder and its stored answerability model. (The Arabic figures over
ARCD: ``bench/answer_arabic.py``.)"""

from __future__ import annotations

import asyncio

import pytest

from cluster.config import load_config
from serving.answer.anchors import anchors, missing_anchors
from serving.answer.extractive import ExtractiveAnswerer, coverage, focus_words, is_prose, resolve_answerability
from serving.answer.verify import content_words

pytestmark = pytest.mark.timeout(300)

# Two passages of ARCD's article on Mecca (Arabic Wikipedia, CC BY-SA): its population, and its location.
POPULATION = ("يبلغ عدد سكان مكة بحسب إحصائيات عام 2010، حوالي 1675000 نسمة موزعين على أحياء مكة القديمة والجديدة. "
              "تضم مكة العديد من المعالم الإسلامية المقدسة، لعل من أبرزها المسجد الحرام وهو أقدس الأماكن في الأرض "
              "بالنسبة للمسلمين.")
LOCATION = ("مكة المكرمة هي مدينة مقدسة لدى المسلمين، بها المسجد الحرام، والكعبة التي تعد قبلة المسلمين في صلاتهم. "
            "تقع غرب المملكة العربية السعودية، تبعد عن المدينة المنورة حوالي 400 كيلومتر في الاتجاه الجنوبي الغربي. "
            "ويُعتبر هذا الموقع من أصعب التكوينات الجيولوجية، فأغلب صخورها جرانيتية شديدة الصلابة.")
QUESTION = "كم يبلغ عدد سكان مكة؟"  # How many people live in Mecca?


@pytest.fixture(scope="module")
def answerer() -> ExtractiveAnswerer:
    from serving.rerank.cross_encoder import CrossEncoderReranker

    cfg = load_config()
    reranker = CrossEncoderReranker.from_config(cfg, threads=1)

    async def score(question, texts):
        return reranker.score(question, texts)

    return ExtractiveAnswerer(cfg.answer.extractive, resolve_answerability(cfg), score)


def test_words_and_sentences_of_any_script():
    assert content_words(QUESTION) == ["يبلغ", "عدد", "سكان", "مكة"]
    # Arabic words meet whatever article or preposition is attached (Snowball's Arabic stemmer): "in the
    # city" (بالمدينة), "the city" (المدينة) and "city" (مدينة) are one word; without it coverage is 0.
    assert content_words("بالمدينة") == content_words("المدينة") == content_words("مدينة")
    assert coverage("أين تقع المدينة؟", "تقع بالمدينة المنورة") == 1.0
    assert coverage(QUESTION, POPULATION.split(". ")[0]) == 1.0
    assert is_prose("تقع غرب المملكة العربية السعودية، تبعد عن المدينة المنورة حوالي 400 كيلومتر.")
    assert content_words("Die Straße in Zürich") == content_words("die strasse in zurich") == ["die", "strasse", "zurich"]
    assert anchors("Wann wurde Kurt Gödel in Brünn geboren?") == ["kurt", "godel", "brunn"]
    assert missing_anchors("Where was Kurt Gödel born?", "Kurt Gödel was born in Brünn.") == []
    # English is read as before: identifiers stay whole, stop words go, light stems.
    assert content_words("The EPOLL_CTL_ADD operation registers fds.") == ["epoll_ctl_add", "operation", "register", "fds"]


def test_an_arabic_question_is_answered_from_the_passage_that_states_it(answerer):
    answered = asyncio.run(answerer.answer(QUESTION, [(POPULATION, "مكة", 0.9), (LOCATION, "مكة", 0.8)]))
    assert answered.answerable, answered.features
    assert answered.cited == [1] and "1675000" in answered.answer, answered.answer


def test_an_arabic_question_is_refused_over_the_same_article_without_its_answer(answerer):
    refused = asyncio.run(answerer.answer(QUESTION, [(LOCATION, "مكة", 0.9)]))
    assert refused.scored > 0  # its sentences were read and scored: refused on what they say
    assert not refused.answerable and refused.answer == "", refused.features


def test_arabic_figures_conjunctions_and_pronoun_suffixes_read_as_their_words():
    # A figure typed against the next word ("from 1953to 1964") is the figure: the anchor is 1953, and a
    # passage that names 1953 is not refused for lacking "1953الى". Latin identifiers keep their letters.
    question = "من هو ملك المملكة العربية السعودية من 1953الى 1964؟"
    assert anchors(question) == ["1953", "1964"]
    passage = "سعود بن عبد العزيز، ملك المملكة العربية السعودية من 9 نوفمبر 1953 إلى 2 نوفمبر 1964."
    assert missing_anchors(question, passage) == []
    assert coverage(question, passage) == 1.0
    assert anchors("Was x86 support added in 2.10h?") == ["x86", "2.10h"]
    # "and the United States" (والولايات) is "the United States" (الولايات): the conjunction before the article
    # comes off (Snowball keeps it), so coverage does not lose the word.
    assert content_words("والولايات المتحدة") == content_words("الولايات المتحدة")
    # "other than him" (غيره) is the function word "other than" (غير) with a pronoun: not a content word.
    assert content_words("بماذا يتميز اللاعب عن غيره") == content_words("بماذا يتميز اللاعب")
    # "What is the name of …" (ما اسم) and "what kind of …" (ما نوع) name the kind of answer, as "name" and "kind"
    # do in English: the sentence that states it need not say "name".
    assert focus_words("ما هو اسم والد أم كلثوم؟") == content_words("والد أم كلثوم")
    assert focus_words("ما نوع العلاقة بين كندا والولايات المتحدة؟") == content_words("العلاقة بين كندا الولايات المتحدة")
