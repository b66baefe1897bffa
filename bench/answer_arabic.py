"""Does the extractive answerer answer and refuse in Arabic? A check built from ``../shared/data/arcd``.

    .venv/bin/python bench/answer_arabic.py [--work DIR] [--append]

ARCD has Arabic questions with one judged passage each but no answer strings, so answerability is
made by the index: the questions are split alternately; the *answerable* half is asked over an index
that holds its judged passages, the *unanswerable* half over the same index without theirs (the other
passages of the same articles stay: the questions are on topic, their answer is gone). A question
whose passage is also judged for an answerable one is left out. Reported: the share of answerable
questions answered, of unanswerable ones refused, and citation precision (a citation is right when it
points at the question's judged passage). There are no gold answer strings, so no contains/EM.
The index is built once under ``--work`` (default ``$STRATA_BENCH_DIR`` or ``~/.cache/strata-bench``,
folder ``arcd-answers``; delete it to rebuild). ``--append`` adds a row to ``bench/results/answer-quality.jsonl``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ARCD = REPO.parent / "shared" / "data" / "arcd"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench"))
RESULTS = REPO / "bench" / "results" / "answer-quality.jsonl"


def build_set(arcd: Path = ARCD):
    """``(passages kept, examples)``: the corpus without the unanswerable questions' judged passages, and
    the questions (:class:`offline.eval.qa_format.QAExample`, evidence = the judged passage's file: each
    passage is a file of its own, so any citation of it points at it)."""
    from offline.eval.qa_format import Evidence, QAExample

    corpus = {d["_id"]: d["text"] for d in map(json.loads, (arcd / "corpus.jsonl").read_text(encoding="utf-8").splitlines())}
    questions = [json.loads(line) for line in (arcd / "queries.jsonl").read_text(encoding="utf-8").splitlines() if line]
    with (arcd / "qrels" / "test.tsv").open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if int(r["score"]) > 0]
    judged: dict[str, list[str]] = {}
    for r in rows:
        judged.setdefault(r["query-id"], []).append(r["corpus-id"])
    questions = [q for q in questions if judged.get(q["_id"])]
    answerable = [q for i, q in enumerate(questions) if i % 2 == 0]
    kept_for = {d for q in answerable for d in judged[q["_id"]]}
    unanswerable = [q for i, q in enumerate(questions) if i % 2 == 1 and not set(judged[q["_id"]]) & kept_for]
    removed = {d for q in unanswerable for d in judged[q["_id"]]}
    examples = [QAExample(q["_id"], q["text"], (), True,
                          tuple(Evidence(f"{d}.md") for d in judged[q["_id"]])) for q in answerable]
    examples += [QAExample(q["_id"], q["text"], (), False) for q in unanswerable]
    return {d: t for d, t in corpus.items() if d not in removed}, examples


def index(work: Path, passages: dict[str, str]):
    """The default configuration over an index of ``passages`` (one Markdown file each), built once."""
    from cluster.config import load_config
    from cluster.runtime import init_ray
    from pipelines.ingest import run_ingest

    data_dir = work / "arcd-answers"
    cfg = load_config(storage={"data_dir": str(data_dir)}, ingest={"progress": False})
    if (data_dir / "lance").is_dir():
        return cfg
    root = work / "arcd-answers-corpus"
    root.mkdir(parents=True, exist_ok=True)
    for doc_id, text in passages.items():
        (root / f"{doc_id}.md").write_text(text + "\n", encoding="utf-8")
    init_ray(cfg.ray)
    run_ingest(cfg, root, source="arcd")
    return cfg


def run(cfg, examples, say=print) -> dict:
    """Answer ``examples`` in process and return the answer evaluation's metrics that need no gold strings."""
    from offline.eval.answers import evaluate_answers
    from serving.protocol import AnswerRequest
    from serving.services.local import AnswerPipeline

    with AnswerPipeline(cfg) as pipe:
        report = evaluate_answers(examples, lambda ex: pipe.answer(AnswerRequest(question=ex.question, use_cache=False)),
                                  on_result=lambda r: say(f"  {r.id}: {'refused' if r.refused else 'answered'}"
                                                          f"{'' if r.answerable else ' (unanswerable)'}"))
    m = report.metrics
    return {"n_answerable": sum(e.answerable for e in examples), "n_unanswerable": sum(not e.answerable for e in examples),
            **{k: None if m.get(k) is None else round(m[k], 4)
               for k in ("answer_rate", "refusal_accuracy", "citation_precision", "latency_ms_p50")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=WORK, help="where the index is built")
    parser.add_argument("--append", action="store_true", help="append a row to bench/results/answer-quality.jsonl")
    parser.add_argument("--change", default="", help="what changed, for the results row")
    args = parser.parse_args()
    passages, examples = build_set()
    cfg = index(args.work, passages)
    metrics = run(cfg, examples)
    print(json.dumps({"set": "answers-arcd", **metrics}), flush=True)
    if args.append:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        with RESULTS.open("a") as f:
            f.write(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": commit, "writer": "extractive",
                                "change": args.change, "command": "python bench/answer_arabic.py --append",
                                "sets": [{"set": "answers-arcd", "kind": "encyclopedic (Arabic)", "fitted": False,
                                          **metrics}]}) + "\n")


if __name__ == "__main__":
    main()
