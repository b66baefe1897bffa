"""Writing a retrieval evaluation: ``report.json`` (everything), ``report.md`` (tables) and
``report.png`` (metric per configuration as bars; metric against ``top_k`` and against the BM25
share as lines, one per configuration).

>>> # paths = write_report(evaluation, Path("eval-out"))
>>> # paths["md"].read_text().splitlines()[0]
>>> # '# Retrieval evaluation — scifact (train split)'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from offline.eval.retrieval import MAIN_METRICS, ConfigResult, RetrievalEvaluation

__all__ = ["markdown_report", "plot_report", "read_evaluation", "write_report"]


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _p(p: float) -> str:
    """``p=0.042``, or ``p<0.001`` below the test's resolution.

    >>> _p(0.0421), _p(0.0001)
    ('p=0.042', 'p<0.001')
    """
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def _sweep_values(points: Sequence[ConfigResult], param: str) -> list:
    return sorted({p.params[param] for p in points})


def _sweep_table(points: Sequence[ConfigResult], param: str, metric_of, title: str) -> list[str]:
    values = _sweep_values(points, param)
    names = list(dict.fromkeys(p.name for p in points))
    cell = {(p.name, p.params[param]): metric_of(p) for p in points if p.ok}
    rows = [[f"`{n}`"] + [_fmt(cell.get((n, v))) for v in values] for n in names]
    return [f"**{title}**", ""] + _table(["configuration"] + [f"{param}={v:g}" for v in values], rows) + [""]


def markdown_report(ev: RetrievalEvaluation, png_name: str | None = "report.png") -> str:
    """The Markdown report (tables of every configuration, significance, sweeps, timings)."""
    ds, meta = ev.dataset, ev.meta
    name = ds.get("name", "dataset")
    lines = [f"# Retrieval evaluation — {name} ({ds.get('split', '?')} split)", ""]
    described = [f"{ds['queries']} judged queries ({ds['judgments']} judgments)"]
    if ds.get("queries_selected") is not None and ds["queries_selected"] != ds["queries"]:
        described[0] = f"{ds['queries']} of {ds['queries_selected']} selected judged queries evaluated " \
                       f"({ds['judgments']} judgments; see *Left out*)"
    if ds.get("queries_file"):
        described.append(f"ids from `{ds['queries_file']}`")
    if ds.get("corpus_docs") is not None:
        described.append(f"{ds['corpus_docs']:,} corpus documents")
    lines += [", ".join(described) + ".",
              f"Base request: `{json.dumps(ev.base_request)}` (a configuration's own fields override it); "
              f"commit `{meta.get('commit')}`, {meta.get('when')}, {meta.get('cpus')} CPUs.",
              "Every query runs through the in-process `SearchPipeline` (the serving code path). A document "
              "scores as its best chunk; `context` configurations rank the documents of the `/v1/context` "
              f"pack in pack order (budget {meta.get('context_budget_tokens')} tokens).", ""]
    if ds.get("left_out") is not None:
        lines += left_out_section(ds["left_out"], ds["queries"])
    header = ["configuration", "endpoint", *MAIN_METRICS, "docs/query", "ms p50", "stages that ran"]
    rows = []
    for r in ev.results:
        if r.ok:
            rows.append([f"`{r.name}` — {r.label}", r.endpoint, *(_fmt(r.metrics.get(m)) for m in MAIN_METRICS),
                         _fmt(r.counts.get("mean_docs_per_query"), 1), _fmt(r.timings.get("ms_p50"), 0),
                         r.counts.get("stages", "")])
        else:
            rows.append([f"`{r.name}` — {r.label}", r.endpoint, f"skipped: {r.reason}", "", "", "", "", "", ""])
    lines += ["## Configurations", ""] + _table(header, rows) + [""]
    if ev.significance:
        bases = sorted({b for v in ev.significance.values() for b in v})
        sig_rows = [[f"`{n}`"] + [f"{v[b]['diff']:+.3f} ({_p(v[b]['p'])})" if b in v else "" for b in bases]
                    for n, v in ev.significance.items()]
        lines += ["## nDCG@10 difference vs single retrievers", "",
                  "Paired randomization test (10,000 sign flips), two-sided.", ""]
        lines += _table(["configuration"] + [f"vs `{b}`" for b in bases], sig_rows) + [""]
    if ev.sweeps.get("top_k"):
        pts = ev.sweeps["top_k"]
        lines += ["## Sweep: top_k (= candidates per retriever)", "",
                  "Each configuration again with `top_k = candidates = k` (hits returned and candidates per "
                  "retriever before fusion).", ""]
        lines += _sweep_table(pts, "top_k", lambda p: p.metrics.get("ndcg@10"), "nDCG@10")
        lines += _sweep_table(pts, "top_k", lambda p: p.metrics.get(f"recall@{p.params['top_k']}"), "recall@k")
    if ev.sweeps.get("bm25_weight"):
        lines += ["## Sweep: BM25 share in fusion (`bm25_weight`)", ""]
        lines += _sweep_table(ev.sweeps["bm25_weight"], "bm25_weight", lambda p: p.metrics.get("ndcg@10"), "nDCG@10")
    stage_names = sorted({s for r in ev.results if r.ok for s in r.timings.get("stages_ms_mean", {})})
    t_rows = [[f"`{r.name}`", _fmt(r.timings.get("elapsed_s"), 1), _fmt(r.timings.get("ms_p50"), 1),
               _fmt(r.timings.get("ms_p95"), 1)] + [_fmt(r.timings["stages_ms_mean"].get(s), 1) for s in stage_names]
              for r in ev.results if r.ok]
    lines += ["## Timings (per query, ms; stage columns are means)", "",
              f"{meta.get('query_embeddings', '')[:1].upper()}{meta.get('query_embeddings', '')[1:]}.", ""]
    lines += _table(["configuration", "total s", "p50", "p95"] + stage_names, t_rows) + [""]
    if png_name:
        lines += [f"![metrics per configuration and sweeps]({png_name})", ""]
    return "\n".join(lines)


_LISTED = 50  # rows per left-out table in report.md (report.json has every one)


def _listed(rows: Sequence[Sequence[str]], header: Sequence[str]) -> list[str]:
    out = _table(header, rows[:_LISTED])
    if len(rows) > _LISTED:
        out.append(f"\n… and {len(rows) - _LISTED} more (all of them in report.json).")
    return out + [""]


def left_out_section(left: dict, evaluated: int) -> list[str]:
    """``## Left out``: corpus documents not in the index and queries truncated or not evaluated, each
    with its reason, and the counts the metrics rest on.

    >>> print("\\n".join(left_out_section({"counts": {"corpus_docs": 3, "documents_left_out": 0,
    ...     "queries_selected": 2, "queries_evaluated": 2}, "query_limit": 2000}, 2)))
    ## Left out
    <BLANKLINE>
    Nothing: all 3 corpus documents are in the index and all 2 selected queries were evaluated as given.
    <BLANKLINE>
    """
    c = left.get("counts", {})
    docs, truncated = left.get("documents", []), left.get("queries_truncated", [])
    empty, orphaned = left.get("queries_skipped_empty", []), left.get("queries_judged_documents_left_out", [])
    partly = left.get("queries_some_judged_documents_left_out", [])
    lines = ["## Left out", ""]
    if not (docs or truncated or empty or orphaned or partly):
        return lines + [f"Nothing: all {c.get('corpus_docs', '?')} corpus documents are in the index and all "
                        f"{c.get('queries_selected', evaluated)} selected queries were evaluated as given.", ""]
    lines += [f"The metrics are over the **{evaluated} evaluated queries** (of {c.get('queries_selected', '?')} "
              f"selected). Corpus: {c.get('documents_indexed', '?')} of {c.get('corpus_docs', '?')} documents "
              f"in the index, {len(docs)} left out. Queries: {len(truncated)} truncated (and evaluated), "
              f"{len(empty)} skipped for having no text, {len(orphaned)} not evaluated because all their judged "
              f"documents were left out, {len(partly)} evaluated with some of their judged documents left out "
              "(those judgments stay in the ideal ranking).", ""]
    if docs:
        lines += [f"**Corpus documents not in the index ({len(docs)})**", ""]
        lines += _listed([[f"`{d['id']}`", f"`{d['file']}`", d["reason"], d.get("detail", "")] for d in docs],
                         ["corpus id", "file", "reason", "detail"])
    if truncated:
        lines += [f"**Queries truncated to the {left.get('query_limit')}-character limit at a word boundary "
                  f"({len(truncated)})**", ""]
        lines += _listed([[f"`{q['id']}`", str(q["chars"]), str(q["kept_chars"])] for q in truncated],
                         ["query", "characters", "characters asked"])
    if empty or orphaned:
        lines += [f"**Queries not evaluated ({len(empty) + len(orphaned)})**", ""]
        lines += _listed([[f"`{q['id']}`", q["reason"]] for q in [*empty, *orphaned]], ["query", "reason"])
    if partly:
        lines += [f"**Evaluated queries with some judged documents left out ({len(partly)})**", ""]
        lines += _listed([[f"`{q['id']}`", str(q["judged"]), ", ".join(f"`{d}`" for d in q["left_out"])]
                          for q in partly], ["query", "judged documents", "left out"])
    return lines


def _log_ticks(ax, values: Sequence[int]) -> None:
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xticks(list(values), [str(v) for v in values])


def plot_report(ev: RetrievalEvaluation, path: Path) -> Path:
    """Bars of the main metrics per configuration, then nDCG@10 and recall@k against ``top_k`` and
    nDCG@10 against ``bm25_weight`` (lines per configuration, when swept). Matplotlib, Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 1 + (2 if ev.sweeps.get("top_k") else 0) + (1 if ev.sweeps.get("bm25_weight") else 0)
    cols = min(panels, 2)
    rows = (panels + cols - 1) // cols
    fig, grid = plt.subplots(rows, cols, figsize=(7.0 * cols, 4.8 * rows), squeeze=False)
    axes = [ax for row in grid for ax in row]
    for spare in axes[panels:]:
        spare.set_visible(False)
    ok = [r for r in ev.results if r.ok]
    ax = axes.pop(0)
    width = 0.8 / len(MAIN_METRICS)
    for i, metric in enumerate(MAIN_METRICS):
        xs = [j + (i - (len(MAIN_METRICS) - 1) / 2) * width for j in range(len(ok))]
        ax.bar(xs, [r.metrics.get(metric, 0.0) for r in ok], width, label=metric)
    ax.set_xticks(range(len(ok)), [r.name for r in ok], rotation=30, ha="right")
    lows = [r.metrics.get(m, 0.0) for r in ok for m in MAIN_METRICS]
    ax.set_ylim(max(0.0, min(lows, default=0.0) - 0.1), 1.07)
    ax.set_ylabel("score")
    skipped = [r.name for r in ev.results if not r.ok]
    ax.set_title("metrics per configuration" + (f" (skipped: {', '.join(skipped)})" if skipped else ""))
    ax.legend(loc="upper center", ncol=len(MAIN_METRICS), fontsize=8)
    ax.grid(axis="y", alpha=0.3)

    def lines(ax, points: Sequence[ConfigResult], param: str, metric_of, ylabel: str) -> None:
        for name in dict.fromkeys(p.name for p in points):
            mine = sorted((p for p in points if p.name == name and p.ok), key=lambda p: p.params[param])
            ax.plot([p.params[param] for p in mine], [metric_of(p) for p in mine], marker="o", label=name)
        ax.set_xlabel(param)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)

    if ev.sweeps.get("top_k"):
        pts = ev.sweeps["top_k"]
        ax = axes.pop(0)
        lines(ax, pts, "top_k", lambda p: p.metrics.get("ndcg@10", 0.0), "nDCG@10")
        _log_ticks(ax, _sweep_values(pts, "top_k"))
        ax.set_title("nDCG@10 vs top_k (= candidates)")
        ax = axes.pop(0)
        lines(ax, pts, "top_k", lambda p: p.metrics.get(f"recall@{p.params['top_k']}", 0.0), "recall@k")
        _log_ticks(ax, _sweep_values(pts, "top_k"))
        ax.set_title("recall@k vs top_k = k")
    if ev.sweeps.get("bm25_weight"):
        ax = axes.pop(0)
        lines(ax, ev.sweeps["bm25_weight"], "bm25_weight", lambda p: p.metrics.get("ndcg@10", 0.0), "nDCG@10")
        ax.set_title("nDCG@10 vs BM25 share")
    ds = ev.dataset
    fig.suptitle(f"{ds.get('name', 'dataset')} ({ds.get('split', '?')}), {ds.get('queries')} queries")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def read_evaluation(path: str | Path) -> RetrievalEvaluation:
    """The evaluation stored in a ``report.json`` (to re-render its Markdown or plot)."""
    return RetrievalEvaluation.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def write_report(ev: RetrievalEvaluation, out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.json``, ``report.md`` and ``report.png`` into ``out_dir``; their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "report.json", "md": out / "report.md", "png": out / "report.png"}
    paths["json"].write_text(json.dumps(ev.to_dict(), indent=1, default=str) + "\n", encoding="utf-8")
    plot_report(ev, paths["png"])
    paths["md"].write_text(markdown_report(ev, paths["png"].name), encoding="utf-8")
    return paths
