"""Where logs go: the console carries Strata's own progress and results; the libraries log to a file.

The ``strata`` command calls :func:`setup_logging` once. Without ``-v``:

* every Python logger's records (INFO and up) go to ``<storage.data_dir>/logs/strata.log``, created
  at the first record; only Strata's own loggers' warnings and errors also show on stderr;
* Ray's loggers ('ray': the "Started a local Ray instance" banner and its warnings, 'ray.serve',
  'ray.data'), which bring their own console handlers, lose those and propagate into the file
  (:func:`quiet_libraries`, applied again by :func:`cluster.runtime.init_ray` once Ray is imported).
  Ray Data, imported later, is configured by ``RAY_DATA_LOGGING_CONFIG`` (``ray_data_logging.yaml``:
  its operator logs go to the Ray session's ``ray-data.log`` and, in this process, to the file);
* vLLM's loggers write to the same file, in this process and in vLLM's engine process
  (``VLLM_LOGGING_STREAM=ext://cluster.logs.log_file_stream`` with ``$STRATA_LOG_FILE``);
* Ray workers' output is not forwarded to the console (``ray.init(log_to_driver=False)``): it stays in
  the Ray session's log folder, which ``init_ray`` names in the file;
* what native code and child processes write to file descriptor 2 (Ray's C++ core worker, vLLM's
  engine process) goes to the file once Ray or vLLM start (:func:`redirect_native_stderr`).

With ``-v`` the libraries keep their own console output, and every logger logs at DEBUG to stderr
(and to the file). Settings a user made (``RAY_DATA_LOGGING_CONFIG``, ``VLLM_LOGGING_*``,
``VLLM_CONFIGURE_LOGGING``) are left alone.

>>> log_file_path("/tmp/strata-doc").as_posix()
'/tmp/strata-doc/logs/strata.log'
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path

LOG_TO_ENV = "STRATA_LOG_TO"
"""``file`` or ``stderr``: where library logs go without ``-v`` (:func:`log_target`)."""

LOG_FILE_ENV = "STRATA_LOG_FILE"
"""The log file's path, for processes started from this one (vLLM's engine process, Ray workers)."""

RAY_DATA_LOGGING_CONFIG = Path(__file__).with_name("ray_data_logging.yaml")

# Strata's own loggers (named after their modules): their warnings stay on the console.
_OWN = ("cluster", "pipelines", "serving", "bench", "scripts", "__main__")
# Libraries that install console handlers of their own on these loggers (and their children).
_LIBRARIES = ("ray", "vllm")
_FORMAT = "%(asctime)s %(levelname)s %(process)d %(name)s: %(message)s"

_state: dict = {"path": None, "verbose": False, "console_fd": None, "file_handler": None}


def log_file_path(data_dir: str | Path) -> Path:
    """``<data_dir>/logs/strata.log``."""
    return Path(data_dir).expanduser() / "logs" / "strata.log"


def current_log_file() -> Path | None:
    """The file :func:`setup_logging` chose, or None when Strata's logging is not set up (library use)."""
    return _state["path"]


def quiet() -> bool:
    """Whether library output goes to the log file only (``strata`` without ``-v``)."""
    return _state["path"] is not None and not _state["verbose"]


def verbose() -> bool:
    return bool(_state["verbose"])


def problems_logged() -> int:
    """Warnings and errors this process wrote to the log file since :func:`setup_logging`."""
    handler = _state.get("file_handler")
    return handler.problems if handler is not None else 0


class _LogFileHandler(logging.FileHandler):
    """Appends to the log file, creating it (and its folder) at the first record."""

    def __init__(self, path: Path, level: int) -> None:
        super().__init__(path, mode="a", encoding="utf-8", delay=True)
        self.setLevel(level)
        self.setFormatter(logging.Formatter(_FORMAT))
        self.problems = 0  # records at WARNING and above written

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING:
            self.problems += 1
        super().emit(record)

    def _open(self):
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()


class _ConsoleHandler(logging.StreamHandler):
    """stderr as it is at each record (click's test runner swaps it)."""

    def __init__(self, level: int, own_only: bool) -> None:
        super().__init__()
        self.setLevel(level)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.addFilter(lambda record: not getattr(record, "file_only", False))  # e.g. a traceback the CLI summarised
        if own_only:
            self.addFilter(lambda record: record.name.split(".", 1)[0] in _OWN)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


class _LogFileStream:
    """A stream appending to ``$STRATA_LOG_FILE`` (stderr when unset), opened at the first write.

    vLLM's log handler writes here (``VLLM_LOGGING_STREAM=ext://cluster.logs.log_file_stream``): the
    variable is inherited by vLLM's engine process, which imports this module afresh."""

    def __init__(self) -> None:
        self._file = None
        self._lock = threading.Lock()

    def _target(self):
        if self._file is None:
            path = os.environ.get(LOG_FILE_ENV)
            if not path:
                return sys.stderr
            with self._lock:
                if self._file is None:
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                    self._file = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - lives with the process
        return self._file

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def isatty(self) -> bool:
        return False


log_file_stream = _LogFileStream()


def log_target() -> str:
    """Where the logs go without ``-v``: ``$STRATA_LOG_TO`` (``file`` or ``stderr``), else ``stderr`` in a
    Kubernetes pod (``$KUBERNETES_SERVICE_HOST``: ``kubectl logs`` reads stderr, and a file on the
    pod's volume is out of sight when something breaks), else ``file``.

    >>> import os; os.environ[LOG_TO_ENV] = "stderr"; log_target()
    'stderr'
    >>> del os.environ[LOG_TO_ENV]
    """
    chosen = os.environ.get(LOG_TO_ENV, "").strip().lower()
    if chosen in ("file", "stderr"):
        return chosen
    return "stderr" if os.environ.get("KUBERNETES_SERVICE_HOST") else "file"


def setup_logging(data_dir: str | Path, *, verbose: bool = False) -> Path:
    """Send log records to ``<data_dir>/logs/strata.log`` (and with ``verbose`` also to stderr, at
    DEBUG); without ``verbose`` keep the libraries off the console. With :func:`log_target` ``stderr``
    everything (INFO and up, the libraries' and Ray workers' output included) goes to stderr as well,
    and file descriptor 2 stays on it. Returns the log file's path. Calling it again replaces what an
    earlier call set up."""
    to_stderr = not verbose and log_target() == "stderr"
    path = log_file_path(data_dir).resolve()
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "_strata", False)]:
        root.removeHandler(handler)
        handler.close()
    level = logging.DEBUG if verbose else logging.INFO
    file_handler = _LogFileHandler(path, level)
    console_level = logging.DEBUG if verbose else logging.INFO if to_stderr else logging.WARNING
    handlers = [file_handler, _ConsoleHandler(console_level, own_only=not (verbose or to_stderr))]
    if to_stderr:
        verbose = True  # the libraries keep their console handlers, workers' output is forwarded
    for handler in handlers:
        handler._strata = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(level)
    _state.update(path=path, verbose=verbose, file_handler=file_handler)
    os.environ[LOG_FILE_ENV] = str(path)
    for name in _state.pop("env_set", ()):  # an earlier call's settings (e.g. quiet, now verbose)
        os.environ.pop(name, None)
    logging.captureWarnings(not verbose)  # quiet: warnings.warn(...) of the libraries into the file
    if not verbose:
        settings = {"RAY_DATA_LOGGING_CONFIG": str(RAY_DATA_LOGGING_CONFIG)}
        if os.environ.get("VLLM_CONFIGURE_LOGGING", "1") != "0" and not os.environ.get("VLLM_LOGGING_CONFIG_PATH"):
            settings["VLLM_LOGGING_STREAM"] = "ext://cluster.logs.log_file_stream"
        _state["env_set"] = [name for name in settings if name not in os.environ]  # a user's setting wins
        os.environ.update({name: settings[name] for name in _state["env_set"]})
        quiet_libraries()
    return path


def redirect_native_stderr() -> None:
    """Without ``-v``: point file descriptor 2 at the log file, keeping Python's ``sys.stderr`` (the
    progress bar, Strata's messages, tracebacks) on the terminal.

    Native code and child processes write to descriptor 2 directly, past Python's logging: Ray's
    C++ core worker in this process prints its ERROR lines there (e.g. Ray Data's "Actor ... has
    constructor arguments in the object store"), vLLM's engine process its progress bars and
    warnings. Called before Ray or vLLM start (:func:`cluster.runtime.init_ray`, ``strata ask``);
    does nothing with ``-v``, a second time, or when ``sys.stderr`` is not the process's own
    (a test runner capturing it)."""
    if not quiet() or _state.get("console_fd") is not None:
        return
    stream = sys.stderr
    try:
        if stream is None or stream is not sys.__stderr__ or stream.fileno() != 2:
            return
    except (AttributeError, OSError, ValueError):
        return
    path: Path = _state["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    stream.flush()
    console_fd = os.dup(2)
    log_fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.dup2(log_fd, 2)
    finally:
        os.close(log_fd)
    sys.stderr = os.fdopen(console_fd, "w", buffering=1, encoding=stream.encoding, errors=stream.errors)
    _state["console_fd"] = console_fd


def _is_console(handler: logging.Handler) -> bool:
    return (isinstance(handler, logging.StreamHandler) and not isinstance(handler, logging.FileHandler)
            and getattr(handler, "stream", None) is not log_file_stream)


def quiet_libraries() -> None:
    """Without ``-v``: take the console handlers off Ray's and vLLM's loggers and let their records
    propagate into the log file. Call it again after importing a library that configures its loggers
    on import (``ray``, ``ray.serve``, ``ray.data``, ``vllm``); a no-op with ``-v`` or without
    :func:`setup_logging`."""
    if not quiet():
        return
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".", 1)[0] in _LIBRARIES]
    for name in names:
        logger = logging.getLogger(name)
        console = [h for h in logger.handlers if _is_console(h)]
        for handler in console:
            logger.removeHandler(handler)
        if console:  # its file handlers (Ray Data's session log) stay; the records also reach ours
            logger.propagate = True
