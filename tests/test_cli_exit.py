"""The ``strata`` executable (``cli.main.run``) ends with ``os._exit`` once a command returns: what a
command printed still arrives whole, the exit handlers still run, and the exit status is the command's."""

from __future__ import annotations

import json
import subprocess
import sys

from support import REPO


def strata(*args: str, data_dir) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", "--data-dir", str(data_dir), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=120)


def test_output_to_a_pipe_arrives_whole_and_the_status_is_zero(tmp_path):
    done = strata("config", data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    config = json.loads(done.stdout)  # block-buffered into a pipe: lost unless flushed before the exit
    assert config["storage"]["data_dir"] == str(tmp_path)


def test_a_command_error_exits_1_with_its_message(tmp_path):
    done = strata("search", "anything", data_dir=tmp_path / "nothing-here")
    assert done.returncode == 1
    assert "no index" in done.stderr and "strata ingest" in done.stderr


def test_a_usage_error_exits_2(tmp_path):
    done = strata("no-such-command", data_dir=tmp_path)
    assert done.returncode == 2
    assert "No such command" in done.stderr


def test_exit_handlers_run_before_the_process_ends(tmp_path):
    # Exit handlers (OpenTelemetry's span export, Ray's shutdown, logging's) are what the quick exit
    # must still run: one registered by the process, a file it writes.
    marker = tmp_path / "exit-handler-ran"
    code = ("import atexit, pathlib, sys; from cli.main import run; "
            f"atexit.register(pathlib.Path({str(marker)!r}).write_text, 'yes'); "
            f"run(['--data-dir', {str(tmp_path)!r}, 'config'])")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "yes"
    assert json.loads(done.stdout)["storage"]["data_dir"] == str(tmp_path)
