"""The shipped cross-encoder: installed offline from the repository, loaded by the serving loader,
reorders known cases with real scores; the serving stage interpolates; training runs end to end."""

from __future__ import annotations

import shutil

import pytest

from cluster.config import load_config
from cluster.models.install import (
    DEFAULT_RERANKER,
    RERANKER_ARTIFACT,
    RERANKER_MODEL_SHA256,
    ModelInstallError,
    install_reranker,
)
from serving.rerank import CrossEncoderReranker

CLAIM = "Vitamin D deficiency increases the risk of developing multiple sclerosis."
RELEVANT = ("Vitamin D and risk of multiple sclerosis\nIn this prospective cohort, women in the lowest quintile of "
            "serum 25-hydroxyvitamin D had a higher incidence of multiple sclerosis than women in the highest quintile; "
            "low vitamin D status was associated with an increased risk of MS.")
DISTRACTORS = [
    "Statin therapy and cardiovascular events\nLowering LDL cholesterol with statins reduced major vascular events "
    "in patients with coronary heart disease.",
    "epoll(7)\nThe epoll API performs a similar task to poll: monitoring multiple file descriptors to see if I/O is "
    "possible on any of them.",
    "Creating virtual environments\nThe venv module supports creating lightweight virtual environments, each with "
    "its own independent set of Python packages.",
    "Malaria transmission in sub-Saharan Africa\nInsecticide-treated bed nets reduced Plasmodium falciparum "
    "infection in children under five.",
]
CLAIM_2 = "Insecticide-treated bed nets reduce malaria infection in young children."

# The trained artifact ships once a full `strata reranker train` run has produced it (issue: quality).
shipped = pytest.mark.skipif(not (RERANKER_ARTIFACT / "strata-model.json").is_file(),
                             reason="the trained reranker is not in the repository yet (strata reranker train)")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    home = tmp_path_factory.mktemp("models-home")
    manifest = install_reranker(home / DEFAULT_RERANKER)
    return home, manifest


@pytest.fixture(scope="module")
def reranker(installed):
    home, _ = installed
    return CrossEncoderReranker.from_config(load_config(models={"home": str(home)}))


@shipped
def test_shipped_artifact_is_small_int8_with_a_card():
    assert (RERANKER_ARTIFACT / "model.onnx").stat().st_size < 40_000_000
    card = (RERANKER_ARTIFACT / "MODEL_CARD.md").read_text()
    for needle in ("reranker train", "seed", "Validation", "Held-out", "Apache-2.0"):
        assert needle in card, needle


@shipped
def test_install_verifies_checksums(installed, tmp_path):
    home, manifest = installed
    assert manifest.kind == "reranker" and manifest.model_sha256 == RERANKER_MODEL_SHA256
    assert install_reranker(home / DEFAULT_RERANKER) == manifest  # intact: kept as is
    broken = tmp_path / "broken"
    shutil.copytree(RERANKER_ARTIFACT, broken)
    with open(broken / "vocab.txt", "a") as fh:
        fh.write("tampered\n")
    with pytest.raises(ModelInstallError, match="checksum mismatch"):
        install_reranker(tmp_path / "target", source=broken)
    with pytest.raises(ModelInstallError, match="vetted"):
        install_reranker(tmp_path / "target", source=RERANKER_ARTIFACT, model_sha256="0" * 64)


@shipped
def test_reorders_a_known_case(reranker):
    texts = DISTRACTORS[:2] + [RELEVANT] + DISTRACTORS[2:]
    scores = reranker.score(CLAIM, texts)
    assert max(range(len(texts)), key=scores.__getitem__) == 2, scores


# Two domains the reranker was not trained on: technical documentation and business reports.
OTHER_DOMAINS = [
    ("Which epoll flag requests edge-triggered notification?",
     "epoll(7) > Level-triggered and edge-triggered\nThe epoll event distribution interface is able to behave both "
     "as edge-triggered (ET) and as level-triggered (LT). Edge-triggered behavior is requested with the EPOLLET flag."),
    ("How are carbon removal companies bringing their costs down?",
     "From Science to Scale > Part 3\nThe finalists reduced the cost per tonne of carbon removed by deploying at "
     "larger scale, sharing infrastructure and buying cheaper low-carbon energy."),
]


@shipped
@pytest.mark.parametrize("question, relevant", OTHER_DOMAINS, ids=["technical-docs", "business-report"])
def test_reorders_known_cases_outside_its_training_domain(reranker, question, relevant):
    texts = DISTRACTORS[:2] + [relevant] + DISTRACTORS[2:] + [RELEVANT]
    scores = reranker.score(question, texts)
    assert max(range(len(texts)), key=scores.__getitem__) == 2, scores


@shipped
def test_scores_depend_on_the_pair(reranker):
    """Swapping which claim reads which passage swaps the preference: scores come from the model
    reading both texts, not from the passage alone (length, position) or a constant."""
    malaria = DISTRACTORS[3]
    a = reranker.score_pairs([(CLAIM, RELEVANT), (CLAIM, malaria), (CLAIM_2, RELEVANT), (CLAIM_2, malaria)])
    assert a[0] > a[1] and a[3] > a[2], a
    assert len({round(s, 4) for s in a}) == 4


def test_missing_model_is_a_clear_error(tmp_path):
    from cluster.models.registry import resolve_reranker_dir

    with pytest.raises(FileNotFoundError, match="strata models install"):
        resolve_reranker_dir(load_config(models={"home": str(tmp_path)}))


@shipped
def test_serving_stage_interpolates(sample_index, installed):
    """Through SearchPipeline: weight 0 keeps the retrieval order, weight 1 is the cross-encoder's."""
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    cfg, _ = sample_index
    home, _ = installed
    request = SearchRequest(query="How do I create a virtual environment?", top_k=5, mode="hybrid", rerank=True,
                            use_cache=False)
    plain = SearchPipeline(cfg).search(request.model_copy(update={"rerank": False}))
    runs = {}
    for weight in (0.0, 1.0):
        on = cfg.model_copy(deep=True)
        on.rerank.model_dir = home / DEFAULT_RERANKER
        on.rerank.enabled, on.rerank.weight, on.rerank.top_n = True, weight, 10
        runs[weight] = SearchPipeline(on).search(request)
    assert runs[0.0].route.rerank and not plain.route.rerank
    assert [h.chunk_id for h in runs[0.0].hits] == [h.chunk_id for h in plain.hits]
    ce = [h.scores["rerank"] for h in runs[1.0].hits]
    assert ce == sorted(ce, reverse=True) and all("fused" in h.scores for h in runs[1.0].hits)
    assert [h.ranks["rerank"] for h in runs[1.0].hits] == [1, 2, 3, 4, 5]
    assert "venv" in runs[1.0].hits[0].path


def _toy_lists():
    """Two hand-made training queries, each with the relevant passage and the distractors."""
    from offline.reranker.mining import Candidate, QueryCandidates

    passages = [RELEVANT] + DISTRACTORS
    return [QueryCandidates(f"q{i}", q, {f"d{i}": 1},
                            [Candidate(f"c{j}", f"d{j}", 1.0 - 0.1 * j, p) for j, p in enumerate(passages)])
            for i, q in ((0, CLAIM), (4, CLAIM_2))]


def test_training_smoke(tmp_path):
    """A few steps on hand-made groups, ONNX export, int8, and the model loads through fastembed."""
    from offline.reranker.card import write_model_dir
    from offline.reranker.export import agreement, export_onnx, quantize_int8
    from offline.reranker.loop import TrainSettings, train_cross_encoder
    from offline.reranker.model import PairTokenizer, base_model_dir, load_base_model, score_pairs

    lists = _toy_lists()
    passages = [RELEVANT] + DISTRACTORS
    settings = TrainSettings(epochs=2, negatives=2, negative_depth=5, max_length=96, groups_per_step=1, lr=1e-4)
    tokenizer = PairTokenizer.from_dir(base_model_dir(), max_length=settings.max_length)
    model = load_base_model(base_model_dir(), seed=settings.seed)
    history = train_cross_encoder(model, tokenizer, lists, settings, on_epoch=lambda e: float(e))
    assert [e.epoch for e in history.epochs] == [1, 2] and history.best_epoch == 2 and history.steps == 4

    out = tmp_path / "model"
    out.mkdir()
    fp32 = export_onnx(model, tmp_path / "fp32.onnx")
    quantize_int8(fp32, out / "model.onnx")
    assert (out / "model.onnx").stat().st_size < fp32.stat().st_size / 3
    record = {"name": "smoke", "command": "pytest", "settings": settings.model_dump()}
    manifest = write_model_dir(out, tokenizer_source=base_model_dir(), record=record, max_length=settings.max_length,
                               model_config=model.config.to_dict())
    assert manifest.kind == "reranker" and set(manifest.files) >= {"model.onnx", "tokenizer.json", "MODEL_CARD.md"}

    loaded = CrossEncoderReranker.load(load_config().rerank, directory=out)
    pairs = [(q, p) for q in (CLAIM, CLAIM_2) for p in passages]
    served = loaded.score_pairs(pairs)
    assert agreement(score_pairs(model, tokenizer, pairs), served)["pearson"] > 0.9


def test_training_resumes_from_checkpoint(tmp_path):
    """A run killed after an epoch continues from its checkpoint to the same weights as an
    uninterrupted run (same groups, optimizer state, RNG state and step)."""
    import torch

    from offline.reranker.loop import TrainSettings, train_cross_encoder
    from offline.reranker.model import PairTokenizer, base_model_dir, load_base_model

    lists = _toy_lists()
    settings = TrainSettings(epochs=2, negatives=2, negative_depth=5, max_length=64, groups_per_step=1, lr=1e-4)
    tokenizer = PairTokenizer.from_dir(base_model_dir(), max_length=settings.max_length)

    def run(checkpoint, on_epoch):
        model = load_base_model(base_model_dir(), seed=settings.seed)
        history = train_cross_encoder(model, tokenizer, lists, settings, on_epoch=on_epoch, checkpoint=checkpoint,
                                      checkpoint_every=1)
        return model, history

    class Killed(Exception):
        pass

    def kill_after_first_epoch(epoch):
        if epoch == 1:
            raise Killed
        return 0.0

    reference, _ = run(None, lambda epoch: float(epoch))
    checkpoint = tmp_path / "checkpoint.pt"
    with pytest.raises(Killed):
        run(checkpoint, kill_after_first_epoch)
    resumed, history = run(checkpoint, lambda epoch: float(epoch))
    assert [e.epoch for e in history.epochs] == [1, 2] and history.best_epoch == 2 and history.steps == 4
    for (name, a), b in zip(reference.state_dict().items(), resumed.state_dict().values()):
        assert torch.equal(a, b), name


def test_weak_set_pairs_headings_and_inverse_cloze(tmp_path):
    """Heading → its section body without the heading; a sentence → the rest of its paragraph,
    the sentence removed; evaluation corpora are refused as sources."""
    import json

    from offline.eval.beir import load_beir
    from offline.reranker.weak import DocTree, build_weak_set

    root = tmp_path / "docs"
    root.mkdir()
    prose = ("The scheduler assigns every ready task to an idle worker thread as soon as one frees up. "
             "Tasks that wait on input are parked on a separate queue until their file descriptor is ready. "
             "Each worker keeps a small local queue so that most tasks never touch the shared lock at all. "
             "When a local queue runs dry, the worker steals half of the tasks of a randomly chosen peer.")
    for i in range(12):
        (root / f"f{i}.rst.txt").write_text(
            f"Page {i}\n=======\n\nIntro {i}.\n\nWork stealing scheduler {i}\n--------------------------\n\n{prose}\n\n"
            f"{prose.replace('scheduler', f'planner {i}')}\n")
    record = build_weak_set([DocTree("toy-doc", root, "*.rst.txt", "MIT")], tmp_path / "weak", files=12,
                            heading_queries=50, ict_queries=50, min_words=20)
    ds = load_beir(tmp_path / "weak", split="train")
    assert record["heading_queries"] > 0 and record["ict_queries"] > 0
    assert json.loads((tmp_path / "weak" / "weak.json").read_text())["trees"]["toy-doc"]["licence"] == "MIT"
    for qid, judged in ds.qrels.items():
        (doc_id,) = judged
        query, body = ds.queries[qid], ds.corpus[doc_id].text
        assert ds.corpus[doc_id].title == "" and query not in body  # never matched on its own words
        source = " ".join((root / doc_id.split("/", 1)[1].split("#")[0]).read_text().split())
        if qid.startswith("i"):  # a sentence of the file, its paragraph's other sentences the document
            assert query in source and len(body.split()) >= 20 and body.split(". ")[0] in source
        else:  # a heading of the file, its section body the document
            assert query in source and body in source
    with pytest.raises(ValueError, match="evaluation corpus"):
        build_weak_set([DocTree("llvm-14-doc", root, "*.rst.txt", "Apache-2.0")], tmp_path / "no")
