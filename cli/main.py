"""The ``strata`` command line: the group, its global options and error handling; each command group
lives in its own module (``cli/index.py``, ``query.py``, ``models.py``, ``eval.py``, ``reranker.py``,
``demo.py``), a thin layer over the library.

    strata models install            # assemble offline models, verify checksums, write manifests
    strata ingest samples/corpus     # bulk ingest (resumable, idempotent)
    strata search "question"         # in-process; --mode auto|bm25|vector|hybrid|hybrid+awareness
    strata context "question"        # an expanded, budgeted context pack
    strata serve                     # the Ray Serve query app (HTTP :8000, /docs)
    strata delete --path python-tutorial/errors.rst.txt
    strata eval retrieval ../shared/data/scifact --split train   # nDCG/recall/MRR per configuration
    strata eval answers bench/data/answers-dev.jsonl              # EM/F1/citations/refusals of LLM answers
    strata keys create --tenant acme --scope search,answer   # an API key (printed once)
    strata maintain | strata stats | strata config | strata demo
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import sys
import threading
import typing
from typing import NoReturn

import click

from cli import demo, index, keys, models, query, reranker
from cli import eval as eval_commands
from cli.common import config_of, log_file_of
from cluster import logs
from cluster.config import config_error_message, load_config

log = logging.getLogger(__name__)


class StrataGroup(click.Group):
    """Errors name the log file with the details. An unexpected exception is written there with its
    traceback and shown as one line (with ``-v``, the traceback is shown as before)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError:
            raise
        except click.ClickException as exc:
            path = log_file_of(ctx)
            if path is not None and logs.problems_logged() and not logs.verbose() and "details in " not in exc.message:
                exc.message += f" (details in {path})"  # the libraries logged warnings or errors there
            raise
        except (click.exceptions.Exit, click.exceptions.Abort, KeyboardInterrupt, EOFError):
            raise
        except Exception as exc:
            path = log_file_of(ctx)
            if path is None or logs.verbose():
                raise
            log.error("strata %s failed", " ".join(sys.argv[1:]), exc_info=True, extra={"file_only": True})
            raise click.ClickException(f"{type(exc).__name__}: {exc} (traceback in {path}; -v shows it here)") from exc


def package_version() -> str:
    """Strata's version: the installed distribution's, else (a checkout not installed) ``pyproject.toml``'s."""
    from importlib import metadata
    from pathlib import Path

    try:
        return metadata.version("strata")
    except metadata.PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        return tomllib.loads(pyproject.read_text())["project"]["version"]


@click.group(cls=StrataGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, help="print Strata's version and exit",
              callback=lambda ctx, _param, value: (click.echo(f"strata {package_version()}"), ctx.exit())
              if value and not ctx.resilient_parsing else None)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="TOML config file (default: $STRATA_CONFIG or ./strata.toml)")
@click.option("--data-dir", type=click.Path(file_okay=False), default=None, help="override storage.data_dir")
@click.option("-v", "--verbose", is_flag=True,
              help="library logs (Ray, vLLM) and debug logging on the console; without it they go to "
                   "<storage.data_dir>/logs/strata.log")
@click.pass_context
def main(ctx: click.Context, config_path: str | None, data_dir: str | None, verbose: bool) -> None:
    """Strata: distributed batch ingestion and retrieval for large corpora."""
    overrides = {"storage": {"data_dir": data_dir}} if data_dir else {}
    try:
        cfg = load_config(config_path, **overrides)
    except Exception as exc:  # pydantic ValidationError, TOML errors, missing file
        raise click.ClickException(f"invalid configuration: {config_error_message(exc)}") from exc
    ctx.obj = {"config": cfg, "log_file": logs.setup_logging(cfg.storage.data_dir, verbose=verbose)}


@main.result_callback()
@click.pass_context
def _after_command(ctx: click.Context, *_args, **_kwargs) -> None:
    """Stop the embedded Ray a command started (``cluster.runtime.stop_ray``): ~2 s sooner than Ray's
    own exit hook. Commands that never started Ray never imported ``cluster.runtime`` either. Then
    exit with the status a command that finished its work asked for (``ctx.obj["exit_status"]``:
    ``strata ingest`` with failed files), which :func:`run` keeps through its quick exit."""
    runtime = sys.modules.get("cluster.runtime")
    if runtime is not None:
        runtime.stop_ray()
    status = (ctx.obj or {}).get("exit_status") if isinstance(ctx.obj, dict) else None
    if status:
        ctx.exit(status)


@main.command("config")
@click.pass_context
def show_config(ctx: click.Context) -> None:
    """Print the effective configuration as JSON, secrets masked as *** (a setting or storage option named
    like a key, secret, token, password or credential; the user:password of a URL)."""
    cfg = config_of(ctx)
    click.echo(json.dumps(redacted(json.loads(cfg.model_dump_json()), cfg), indent=2))


MASK = "***"
_SECRET_WORDS = {"key", "keys", "apikey", "secret", "secrets", "token", "tokens", "password", "passwd", "pwd",
                 "passphrase", "credential", "credentials", "sas", "signature"}
_NOT_A_SECRET = ("_env", "_file", "_path", "_dir", "_var")  # where a secret is read from: shown
_USERINFO = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]+@")


def secret_name(name: str) -> bool:
    """Whether a setting or option named ``name`` holds a secret (one of its words names one).

    >>> [secret_name(n) for n in ("aws_secret_access_key", "sas_token", "api_key", "password", "AccountKey")]
    [True, True, True, True, True]
    >>> [secret_name(n) for n in ("region", "budget_tokens", "api_key_env", "keys_file", "endpoint")]
    [False, True, False, False, False]
    """
    low = name.lower()
    if low.endswith(_NOT_A_SECRET):
        return False
    words = set(re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()))
    return bool(words & _SECRET_WORDS) or any(w in low for w in ("secret", "password", "credential", "apikey"))


def redacted(data: object, model: object = None, name: str = "") -> object:
    """``data`` (a configuration dumped as JSON) with secrets masked: the text value of a secret-named
    key (numbers, flags and a fixed set of choices are settings, shown), and the user information of any
    URL.

    >>> redacted({"storage": {"lance_uri": "s3://AK:SK@bucket/x", "storage_options": {
    ...     "aws_secret_access_key": "SK", "region": "eu"}}, "answer": {"budget_tokens": 1200}})
    {'storage': {'lance_uri': 's3://***@bucket/x', 'storage_options': {'aws_secret_access_key': '***', 'region': 'eu'}}, 'answer': {'budget_tokens': 1200}}
    """
    from pydantic import BaseModel

    if isinstance(data, dict):
        fields = type(model).model_fields if isinstance(model, BaseModel) else {}
        out = {}
        for key, value in data.items():
            field = fields.get(key)
            kinds = (field.annotation, *typing.get_args(field.annotation)) if field is not None else ()
            if any(typing.get_origin(kind) is typing.Literal for kind in kinds):
                out[key] = value  # one of fixed choices (e.g. ingest.token_ids = "auto")
                continue
            child = getattr(model, key, None) if isinstance(model, BaseModel) else None
            out[key] = redacted(value, child, name if secret_name(name) else key)  # all of a secret's parts
        return out
    if isinstance(data, list):
        return [redacted(value, None, name) for value in data]
    if isinstance(data, str):
        if data and secret_name(name):
            return MASK
        return _USERINFO.sub(lambda m: m.group(1) + MASK + "@", data)
    return data


for command in (index.ingest, index.delete, index.maintain, index.stats, query.search, query.context, query.ask,
                query.serve_app, keys.keys_group, models.models, eval_commands.eval_group, reranker.reranker_group,
                demo.demo):
    main.add_command(command)


def run(args: list[str] | None = None) -> NoReturn:
    """The ``strata`` executable: :func:`main`, then a quick exit.

    After a command that imported the index stack (LanceDB, Ray, pyarrow), Python's own teardown
    frees every module's objects one by one: 1.0–1.5 s on 2 cores (``import lancedb`` alone costs
    0.7 s at exit), which a user waits for after every ``strata ingest`` or ``strata search``. By then
    the command has committed, closed its writers and stopped the Ray it started. So once it returns,
    this does what the interpreter's exit would do that matters (waits for non-daemon threads, runs
    the exit handlers: Ray's, OpenTelemetry's span export, logging's flush; flushes stdout and
    stderr) and ends the process with ``os._exit`` and the command's exit status.

    >>> # run(["stats"])  # what the `strata` console script calls; never returns
    """
    try:
        main(args=args, prog_name="strata")  # click's standalone mode ends with SystemExit
        status = 0
    except SystemExit as exc:
        status = exit_status(exc.code)
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()  # what interpreter exit runs first; errors are printed, not raised
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):  # flushing twice is harmless
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed, or a broken pipe (`strata stats | head`)
            pass
    os._exit(status)


def exit_status(code: object) -> int:
    """The process status for ``SystemExit(code)``, as Python itself maps it (a message is printed
    to stderr and gives 1).

    >>> exit_status(None), exit_status(2), exit_status("no such index")
    (0, 2, 1)
    """
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":  # pragma: no cover
    run()
