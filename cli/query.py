"""Commands that query the index: ``strata search``, ``context``, ``ask`` (in-process, the same code
path as the HTTP endpoints) and ``serve`` (the Ray Serve application).
"""

from __future__ import annotations

import json
import os

import click

from cli.common import config_of, tenant_option
from cluster import logs


_RST = (".rst", ".rst.txt", ".rst.gz", ".rest", ".txt.rst")
_CLEANED = 500  # clean_inline leaves a longer text as it is (its patterns could backtrack on one)


def shown(text: str, path: str, limit: int) -> str:
    """A passage as a reader sees it in a terminal: on one line, at most ``limit`` characters (then "…"), and a
    reStructuredText source's inline markup rendered away (":keyword:`raise`" → "raise", "``except*``" →
    "except*"), as answers quote it.

    >>> shown(":keyword:`raise`   statement\\n``except*`` clauses", "python/errors.rst.txt", 80)
    'raise statement except* clauses'
    >>> shown("a `code` span " * 4, "notes.md", 20)
    'a `code` span a `cod…'
    """
    from pipelines.parse.rst import clean_inline  # noqa: PLC0415 - only the display needs it

    one_line = " ".join(text.split())
    if path.lower().endswith(_RST) and limit < _CLEANED:
        one_line = clean_inline(one_line[:_CLEANED])
    return one_line[:limit] + ("…" if len(one_line) > limit else "")


def _pipeline(ctx: click.Context, tenant: str):
    from cluster.models.manifest import EmbedderMismatchError
    from serving.services.local import SearchPipeline

    try:
        return SearchPipeline(config_of(ctx), tenant=tenant)
    except (EmbedderMismatchError, FileNotFoundError) as exc:
        raise click.ClickException(str(exc)) from exc


MODES = ["auto", "bm25", "vector", "hybrid", "hybrid+awareness"]


@click.command()
@click.argument("query")
@click.option("--mode", type=click.Choice(MODES), default="auto", show_default=True,
              help="auto: the router picks (lexical / hybrid / hybrid+awareness)")
@click.option("-k", "--top-k", default=5, show_default=True, type=click.IntRange(1, 1000))
@click.option("--json", "as_json", is_flag=True)
@tenant_option
@click.pass_context
def search(ctx: click.Context, query: str, mode: str, top_k: int, as_json: bool, tenant: str) -> None:
    """Search the index in-process (the same code path as POST /v1/search)."""
    from serving.index.handle import IndexNotReady
    from serving.protocol import LimitError, SearchRequest, citation_label

    try:
        response = _pipeline(ctx, tenant).search(SearchRequest(query=query, top_k=top_k, mode=mode))  # type: ignore[arg-type]
    except (IndexNotReady, LimitError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(response.model_dump_json(indent=2))
        return
    click.echo(f"route: {response.route.route} ({'; '.join(response.route.reasons)})")
    for hit in response.hits:
        scores = " ".join(f"{k}={v:.3f}" for k, v in hit.scores.items())
        label = citation_label(hit.path, hit.section_path or hit.title, hit.first_page, hit.last_page)
        click.echo(f"{hit.rank}. [{hit.score:.4f}] {label}  ({scores})")
        click.echo(f"   {shown(hit.text, hit.path, 300)}")


@click.command()
@click.argument("query")
@click.option("--mode", type=click.Choice(MODES), default="auto", show_default=True)
@click.option("-k", "--top-k", default=8, show_default=True, type=click.IntRange(1, 1000), help="direct hits")
@click.option("--budget", "budget_tokens", default=None, type=click.IntRange(16, 200_000), help="token budget")
@click.option("--expansion", type=click.Choice(["window", "heading", "section"]), default=None)
@click.option("--json", "as_json", is_flag=True)
@tenant_option
@click.pass_context
def context(ctx: click.Context, query: str, mode: str, top_k: int, budget_tokens: int | None,
            expansion: str | None, as_json: bool, tenant: str) -> None:
    """Build an LLM context pack in-process (the same code path as POST /v1/context)."""
    from serving.index.handle import IndexNotReady
    from serving.protocol import ContextRequest, LimitError, citation_label

    try:
        response = _pipeline(ctx, tenant).context(ContextRequest(query=query, top_k=top_k, mode=mode,  # type: ignore[arg-type]
                                                         budget_tokens=budget_tokens, expansion=expansion))
    except (IndexNotReady, LimitError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(response.model_dump_json(indent=2))
        return
    click.echo(f"route: {response.route.route}; {len(response.passages)} passages, "
               f"{response.used_tokens}/{response.budget_tokens} tokens")
    for i, p in enumerate(response.passages, start=1):
        why = ", ".join(r.kind + (f" of {r.of[:8]}" if r.of else "") + (f" [{r.target}]" if r.target else "")
                        for r in p.reasons)
        click.echo(f"[{i}] {citation_label(p.path, p.section_path, p.first_page, p.last_page)}  "
                   f"({p.n_tokens} tokens; {why})")
        click.echo(f"    {shown(p.text, p.path, 240)}")


def _print_answer(response, *, answer_shown: bool = False) -> None:
    """The answer (unless ``answer_shown``: it was streamed), its citations ``[n] path § section, p. 12``,
    then one line of verification and timing; for a refusal ``refused: <reason>`` and that line."""
    from serving.protocol import citation_label

    if response.refused:
        click.echo(f"refused: {response.refusal_reason or 'the passages do not support an answer'}")
    else:
        if not answer_shown:
            click.echo(response.answer.strip())
        if response.answer_value and response.answer_value not in response.answer:
            click.echo(f"short answer: {response.answer_value}")
        if response.citations:
            click.echo("")
        for c in response.citations:
            click.echo(f"[{c.n}] {c.label or citation_label(c.path, ' > '.join(c.section_path) or c.title)}")
    click.echo(_verification_line(response))


def _verification_line(response) -> str:
    v = response.verification
    if response.refused:
        checks = "; ".join(v.reasons[:2]) if v.reasons else ""
        verdict = "refused" + (f" ({checks[:300]})" if checks else "")
    else:
        verdict = f"{v.verdict}, {v.citation_coverage:.0%} of sentences cited, {v.supported_share:.0%} supported"
        if v.verdict != "pass" and v.reasons:
            verdict += f" ({'; '.join(v.reasons[:2])[:300]})"
    if v.llm.mode != "off" and v.llm.supported is not None:
        verdict += f", LLM judge: {'supported' if v.llm.supported else 'not supported'}"
    writer = response.writer + (" (fallback)" if response.extractive and response.extractive.note
                                and response.writer == "extractive" else "")
    n = len(response.attempts)
    total_s = response.timings_ms.get("total", 0) / 1000
    route = response.route.route if response.route else "-"
    return (f"verification: {verdict} — writer {writer}, route {route}, {n} attempt{'s' if n != 1 else ''}, "
            f"{total_s:.1f} s" + (" (cached)" if response.cached else ""))


def _ask_http(url: str, body: dict, stream: bool, as_json: bool) -> None:
    import httpx

    from serving.protocol import AnswerResponse

    endpoint = url.rstrip("/") + "/v1/answer"
    with httpx.Client(timeout=None) as client:
        if not stream:
            reply = client.post(endpoint, json=body)
            if reply.status_code != 200:
                raise click.ClickException(f"HTTP {reply.status_code}: {reply.text[:500]}")
            response = AnswerResponse.model_validate(reply.json())
            click.echo(response.model_dump_json(indent=2)) if as_json else _print_answer(response)
            return
        with client.stream("POST", endpoint, json={**body, "stream": True}) as reply:
            if reply.status_code != 200:
                raise click.ClickException(f"HTTP {reply.status_code}: {reply.read().decode()[:500]}")
            kind = None
            streamed: dict = {}
            for line in reply.iter_lines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    _show_event(kind, json.loads(line[6:]), as_json, streamed)


def _show_event(kind: str | None, data: dict, as_json: bool, streamed: dict | None = None) -> None:
    """Print one streaming event; ``streamed`` carries the text shown since the last retry (the final
    answer is not printed again when it is that text)."""
    from serving.protocol import AnswerResponse

    streamed = {} if streamed is None else streamed
    if kind == "token":
        click.echo(data["text"], nl=False)
        streamed["text"] = streamed.get("text", "") + data["text"]
    elif kind == "retry":
        click.echo(f"\n[retry {data['attempt']} with {data['expansion']} context: {'; '.join(data['reasons'])[:200]}]")
        streamed["text"] = ""
    elif kind == "final":
        response = AnswerResponse.model_validate(data)
        shown = streamed.get("text", "")
        if shown:
            click.echo("")
        if as_json:
            click.echo(response.model_dump_json(indent=2))
        else:
            _print_answer(response, answer_shown=bool(shown.strip()) and shown.strip() == response.answer.strip()
                          and not response.refused)
    elif kind == "error":
        raise click.ClickException(f"{data.get('error')}: {data.get('detail')}")


@click.command()
@click.argument("question")
@click.option("-k", "--top-k", default=None, type=click.IntRange(1, 100), help="direct hits (default: answer.top_k)")
@click.option("--budget", "budget_tokens", default=None, type=click.IntRange(64, 50_000), help="context budget")
@click.option("--stream", is_flag=True, help="print the answer as it is written")
@click.option("--no-llm-analysis", is_flag=True, help="rule-based query analysis only")
@click.option("--url", default=None, help="ask a running Strata Serve app (e.g. http://127.0.0.1:8000) "
                                          "instead of starting the models in this process")
@click.option("--json", "as_json", is_flag=True)
@tenant_option
@click.pass_context
def ask(ctx: click.Context, question: str, top_k: int | None, budget_tokens: int | None, stream: bool,
        no_llm_analysis: bool, url: str | None, as_json: bool, tenant: str) -> None:
    """Answer a question with cited, verified passages — or refuse (same code path as POST /v1/answer)."""
    from pydantic import ValidationError

    from serving.index.handle import IndexNotReady
    from serving.protocol import AnswerRequest, LimitError

    body = {"question": question, "top_k": top_k, "budget_tokens": budget_tokens,
            "llm_analysis": False if no_llm_analysis else None}
    if url:
        if tenant != "default":
            raise click.UsageError("--tenant applies in-process; a running app takes the tenant from the API key")
        _ask_http(url, body, stream, as_json)
        return
    try:
        request = AnswerRequest(**body)
    except ValidationError as exc:
        raise click.ClickException(str(exc)) from exc
    from serving.services.local import AnswerPipeline

    cfg = config_of(ctx)
    if cfg.answer.deployed_llms():
        click.echo("starting the writer/verifier model (vLLM)…", err=True)
        logs.redirect_native_stderr()  # vLLM's engine process: its output into the log file
    try:
        with AnswerPipeline(cfg, tenant=tenant) as pipe:
            if stream:
                streamed: dict = {}
                for kind, data in pipe.events(request):
                    _show_event(kind, data, as_json, streamed)
            else:
                response = pipe.answer(request)
                click.echo(response.model_dump_json(indent=2)) if as_json else _print_answer(response)
    except (IndexNotReady, LimitError, FileNotFoundError) as exc:
        raise click.ClickException(str(exc)) from exc


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine.

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "10.0.0.5", "example.com")]
    [True, True, True, False, False, False]
    """
    import ipaddress

    if host.strip("[]").lower() in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name that may resolve to any interface: not loopback


def check_exposure(cfg, host: str | None, insecure: bool) -> str:
    """Refuse to serve an open API (no keys, ``serve.auth = "auto"``) on a non-loopback address
    unless ``--insecure``; returns what the API demands, in words."""
    from cluster.security.keys import KeyStoreError, key_store

    host = host or cfg.serve.host
    try:
        has_keys = key_store(cfg).has_keys()
    except KeyStoreError as exc:
        raise click.ClickException(str(exc)) from exc
    if has_keys or cfg.serve.auth == "required":
        return "API keys: required" + ("" if has_keys else " (none exist yet: `strata keys create`)")
    if is_loopback(host):
        return "API keys: off"
    if insecure:
        return f"API keys: off, open on {host} (--insecure)"
    raise click.ClickException(
        f"refusing to serve on {host} without authentication: there are no API keys for this index "
        f"({cfg.storage.data_dir}) and serve.auth is \"auto\", so anyone who can reach the port could query "
        "it and upload or delete documents. Create a key first (`strata keys create --tenant default "
        "--scope admin`), or pass --insecure to serve it open anyway (or use a loopback --host).")


@click.command("serve")
@click.option("--host", default=None, help="HTTP host (default: serve.host)")
@click.option("--port", default=None, type=click.IntRange(1, 65535), help="HTTP port (default: serve.port)")
@click.option("--detach", is_flag=True, help="return once deployed (only useful with a long-lived cluster: RAY_ADDRESS)")
@click.option("--insecure", is_flag=True, help="allow a non-loopback --host without API keys (anyone who can reach "
                                               "the port can read and, with uploads, write the index)")
@click.pass_context
def serve_app(ctx: click.Context, host: str | None, port: int | None, detach: bool, insecure: bool) -> None:
    """Run the query application on Ray Serve (embedded Ray, or the cluster in RAY_ADDRESS)."""
    auth = check_exposure(config_of(ctx), host, insecure)
    if detach and not (config_of(ctx).ray.address or os.environ.get("RAY_ADDRESS")):
        raise click.ClickException(
            "--detach needs a long-lived Ray cluster (RAY_ADDRESS or ray.address): without one, `strata serve` "
            "starts an embedded Ray that stops when this command exits, and the application would vanish with it. "
            "Start a cluster (`ray start --head`) and set RAY_ADDRESS=auto, or run without --detach (it serves "
            "until Ctrl-C).")
    import time

    from ray import serve

    from cluster.runtime import init_ray
    from serving.app import StartTimeout, deploy
    from serving.resources import ResourceShortfall

    cfg = config_of(ctx)
    init_ray(cfg.ray)
    t0 = time.monotonic()
    click.echo(f"starting the Strata app (answers: {cfg.answer.writer_kind if cfg.answer.enabled else 'off'}, "
               f"rerank: {'on' if cfg.rerank.enabled else 'off'}, {auth}; up to {cfg.serve.start_timeout_s:.0f} s)…")
    try:
        url = deploy(cfg, host=host, port=port, say=lambda line: click.echo(f"  {line}"))
    except (ResourceShortfall, StartTimeout, RuntimeError) as exc:
        serve.shutdown()
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Strata query API on {url} — ready in {time.monotonic() - t0:.0f} s "
               f"(OpenAPI: /docs; index: {cfg.storage.lance_location})")
    if detach:
        return
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        click.echo("shutting down")
        serve.shutdown()
