"""Calibrate the extractive answerer's answerability threshold on dev QA data; report held-out figures.

    .venv/bin/python bench/answer_calibrate.py                       # calibrate on dev, check on test
    .venv/bin/python bench/answer_calibrate.py --write                # also store it with the shipped model

1. The bundled ``samples/corpus`` is ingested once into ``<work>/answer-index`` (``~/.cache/strata-bench``
   or ``$STRATA_BENCH_DIR``; the same index as ``bench/answer_bench.py``), with the default settings.
2. Every question of the dev set (``bench/data/answers-dev.jsonl``: answerable and unanswerable
   questions over those documents) runs through the in-process answer path with the default settings
   and refusals disabled, recording the answerability features of its ranked sentences (best
   cross-encoder logit, question coverage, answer type: :class:`serving.answer.extractive.Answerability`).
3. A logistic regression (L2-regularised) fits answerable vs unanswerable on those features; the
   threshold on its logit is the midpoint of adjacent dev scores that maximises balanced accuracy
   (answered-when-answerable + refused-when-unanswerable, halved) — ties go to the lower threshold.
4. With ``--write`` it is stored as ``answerability.json`` beside the shipped cross-encoder
   (``cluster/models/artifacts/strata-reranker-minilm-l6``, its manifest updated) and installed.
5. Both sets are then answered with that threshold through the same path and scored by the answer
   evaluation (:mod:`offline.eval.answers`): the test set (``answers-test.jsonl``) was never used
   to choose anything. One JSON line is appended to ``bench/results/answer-quality.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

DEV = REPO / "bench" / "data" / "answers-dev.jsonl"
TEST = REPO / "bench" / "data" / "answers-test.jsonl"
RESULTS = REPO / "bench" / "results" / "answer-quality.jsonl"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench"))


def sample_index(data_dir: Path):
    """The default configuration over ``data_dir`` with the sample corpus ingested (idempotent)."""
    from cluster.config import load_config
    from cluster.runtime import init_ray
    from pipelines.ingest import run_ingest

    cfg = load_config(storage={"data_dir": str(data_dir)}, ingest={"progress": False})
    init_ray(cfg.ray)
    run_ingest(cfg, REPO / "samples" / "corpus", source="samples")
    return cfg


def fit_logistic(x: np.ndarray, y: np.ndarray, *, l2: float = 0.05, steps: int = 5000,
                 lr: float = 0.1) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-regularised logistic regression, by gradient descent.

    >>> import numpy as np
    >>> w, b = fit_logistic(np.array([[2.0], [1.5], [-1.0], [-2.0]]), np.array([1, 1, 0, 0]))
    >>> bool(w[0] > 0)
    True
    """
    import numpy as np

    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        w -= lr * (x.T @ (p - y) / len(y) + l2 * w)
        b -= lr * float(np.mean(p - y))
    return w, b


def choose_threshold(answerable: list[float], unanswerable: list[float]) -> tuple[float, float]:
    """The threshold (midpoint between adjacent scores) with the best balanced accuracy, and that accuracy.

    >>> choose_threshold([3.0, 2.0, 1.0], [-1.0, 0.5])
    (0.75, 1.0)
    """
    scores = sorted(set(answerable + unanswerable))
    cuts = [scores[0] - 1.0] + [(a + b) / 2 for a, b in zip(scores, scores[1:])] + [scores[-1] + 1.0]
    best = None
    for t in cuts:
        answered = sum(s >= t for s in answerable) / max(len(answerable), 1)
        refused = sum(s < t for s in unanswerable) / max(len(unanswerable), 1)
        acc = (answered + refused) / 2
        if best is None or acc > best[1] + 1e-12:
            best = (t, acc)
    return round(best[0], 4), round(best[1], 4)


def evaluate(cfg, qa_path: Path, threshold: float | None, say):
    from offline.eval.answers import evaluate_answers
    from offline.eval.qa_format import load_qa
    from serving.protocol import AnswerRequest
    from serving.services.local import AnswerPipeline

    run_cfg = cfg.model_copy(deep=True)
    run_cfg.answer.extractive.threshold = threshold
    examples = load_qa(qa_path)
    features: dict[str, dict[str, float]] = {}
    with AnswerPipeline(run_cfg) as pipe:
        def answer(example):
            response = pipe.answer(AnswerRequest(question=example.question, use_cache=False))
            if response.extractive and response.extractive.features:
                features[example.id] = response.extractive.features
            return response

        report = evaluate_answers(examples, answer, on_result=lambda r: say(
            f"  {r.id}: {'refused' if r.refused else 'answered'}{'' if r.answerable else ' (unanswerable)'} "
            f"contains={r.contains:.0f} {features.get(r.id)} ({r.latency_ms:.0f} ms)"))
    return examples, features, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=WORK / "answer-index")
    parser.add_argument("--dev", type=Path, default=DEV)
    parser.add_argument("--test", type=Path, default=TEST)
    parser.add_argument("--write", action="store_true", help="store the threshold with the shipped cross-encoder")
    args = parser.parse_args()
    say = lambda m: print(m, flush=True)  # noqa: E731

    cfg = sample_index(args.data_dir)
    say(f"== dev scores ({args.dev}), threshold off")
    import numpy as np

    from serving.answer.extractive import FEATURES

    examples, features, _ = evaluate(cfg, args.dev, -1e9, say)
    kept = [e for e in examples if e.id in features]
    x = np.array([[features[e.id][f] for f in FEATURES] for e in kept])
    y = np.array([1.0 if e.answerable else 0.0 for e in kept])
    w, b = fit_logistic(x, y)
    z = x @ w + b
    pos, neg = [float(v) for v, t in zip(z, y) if t], [float(v) for v, t in zip(z, y) if not t]
    threshold, balanced = choose_threshold(pos, neg)
    weights = {f: round(float(v), 4) for f, v in zip(FEATURES, w)}
    say(f"weights {weights}, bias {b:.4f}, threshold {threshold} (dev balanced accuracy {balanced}; "
        f"{len(pos)} answerable, {len(neg)} unanswerable)")
    record = {"weights": weights, "bias": round(b, 4), "threshold": threshold,
              "score": "bias + weights · features (logistic regression logit); answerable when >= threshold",
              "calibrated_on": str(args.dev.relative_to(REPO)) if args.dev.is_relative_to(REPO) else str(args.dev),
              "dev_balanced_accuracy": balanced, "dev_answerable": len(pos), "dev_unanswerable": len(neg),
              "settings": cfg.answer.extractive.model_dump(exclude={"threshold"}),
              "context": {"top_k": cfg.answer.top_k, "budget_tokens": cfg.answer.budget_tokens},
              "date": time.strftime("%Y-%m-%d")}
    if args.write:
        from cluster.models.install import store_answerability

        path = store_answerability(record, models_home=cfg.models.home)
        say(f"stored in {path} (and installed under {cfg.models.home})")
    rows = {}
    if not args.write:  # score with the fitted model without storing it
        from serving.answer import extractive

        fitted = extractive.Answerability.from_json(record)
        extractive.resolve_answerability = lambda _cfg: fitted
        import serving.services.answer as service_module

        service_module.resolve_answerability = extractive.resolve_answerability
    for name, qa in (("dev", args.dev), ("test", args.test)):
        if not qa.is_file():
            continue
        say(f"== {name} ({qa}) with the fitted model")
        _, _, report = evaluate(cfg, qa, None, say)
        m = report.metrics
        rows[name] = {k: m.get(k) for k in ("answer_rate", "refusal_accuracy", "citation_precision", "contains",
                                            "exact_match", "token_f1", "latency_ms_p50", "latency_ms_p95")}
        say(f"{name}: answered-when-answerable {m['answer_rate']}, refused-when-unanswerable "
            f"{m['refusal_accuracy']}, citation precision {m['citation_precision']}, contains {m['contains']}, "
            f"latency p50 {m['latency_ms_p50']:.0f} ms")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as f:
        f.write(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": commit, "writer": "extractive",
                            "calibration": record, "results": rows}) + "\n")


if __name__ == "__main__":
    main()
