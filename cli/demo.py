"""``strata demo``: the main job on the embedded default (install models, ingest the sample corpus,
search, answer).
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import config_of, log_file_of
from cli.index import run_ingest_command
from cli.query import ask, search


def sample_corpus() -> Path:
    """The bundled sample corpus: ``samples/corpus`` in a checkout, ``cli/samples/corpus`` in a wheel."""
    here = Path(__file__).resolve().parent
    for path in (here.parent / "samples" / "corpus", here / "samples" / "corpus"):
        if path.is_dir():
            return path
    raise click.ClickException("the sample corpus is missing from this installation: pass --corpus DIR")


#: The second question of the demo on the bundled corpus: answered from its PDF, with the page cited.
PDF_QUESTION = "How much memory does bzip2 need to decompress a file?"


@click.command()
@click.option("--corpus", type=click.Path(exists=True, file_okay=False), default=None,
              help="corpus to ingest (default: the bundled samples/corpus)")
@click.option("--question", default="How do I handle exceptions raised inside a function?", show_default=True)
@click.option("--pdf-question", default=None,
              help=f"a second question, its hits citing their pages (default with the bundled corpus: "
                   f"'{PDF_QUESTION}', answered from bzip2/manual.pdf); empty: skipped")
@click.pass_context
def demo(ctx: click.Context, corpus: str | None, question: str, pdf_question: str | None) -> None:
    """The main job on the embedded default: install models, ingest a sample corpus, answer a question (and one
    from the corpus's PDF, citing its page)."""
    from cluster.models.install import ModelInstallError, install_default_models

    cfg = config_of(ctx)
    home = Path(cfg.models.home).expanduser()
    skipped: dict[str, str] = {}
    try:
        manifests = install_default_models(home, skipped=skipped)
    except ModelInstallError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"== models ready in {home} (checksums verified)")
    for name, m in manifests.items():
        click.echo(f"   installed {name} ({m.kind}{f', dim {m.dim}' if m.kind == 'embedder' else ''})")
    for name, reason in skipped.items():
        click.echo(f"   skipped {name}: {reason}")
    if pdf_question is None:
        pdf_question = "" if corpus else PDF_QUESTION
    corpus = corpus or str(sample_corpus())
    click.echo(f"\n== ingesting {corpus} into {cfg.storage.data_dir}")
    report = run_ingest_command(cfg, corpus, source="samples", prune=False)
    click.echo(report.summary(max_failures=5))
    click.echo(f"\n== question: {question}\n(top passages: the router's method mix of BM25 + vector retrieval)")
    ctx.invoke(search, query=question, mode="auto", top_k=5, as_json=False)
    if cfg.answer.enabled:
        llm = cfg.answer.writer_kind == "llm"
        click.echo("\n== answer " + ("(vLLM writer + verifier" if llm else
                                      "(extractive: the passages' best-supported sentences, quoted")
                   + "; refuses when the passages do not support an answer)")
        ctx.invoke(ask, question=question, top_k=None, budget_tokens=None, stream=llm, no_llm_analysis=False,
                   url=None, as_json=False)
    if pdf_question.strip():
        click.echo(f"\n== a PDF: {pdf_question}\n(a hit in a PDF cites its page: path § section, p. N)")
        ctx.invoke(search, query=pdf_question, mode="auto", top_k=3, as_json=False)
        if cfg.answer.enabled:
            ctx.invoke(ask, question=pdf_question, top_k=None, budget_tokens=None, stream=cfg.answer.writer_kind == "llm",
                       no_llm_analysis=False, url=None, as_json=False)
    click.echo(f"\n(logs of Ray{' and vLLM' if cfg.answer.writer_kind == 'llm' else ''}: {log_file_of(ctx)})")
