"""The Grafana dashboards and the alert rules, checked against a REAL Prometheus scraping a real run.

One run of the product: the Serve app (product defaults) starts before any index exists (503s, like a fresh
deployment), a small corpus with 20 corrupt files is ingested, the replicas pick it up, a short load of
search / context / answer requests (and a few bad ones) runs, and a second ingest changes the index version
under the running replicas. Prometheus (Debian's package, unpacked by ``scripts/install.sh``; or
``prometheus`` on PATH) scrapes the Ray metrics endpoint every second and evaluates the alert rules of
``deploy/prometheus/strata-alerts.yml`` every second. Then:

* every panel query of ``deploy/grafana/*.json`` (variables substituted with concrete values) must return
  ``success`` and a non-empty result — except the short, justified list in :data:`EXEMPT`;
* every alert rule must pass ``promtool check rules`` and its expression must be accepted by the query API;
* two alerts must actually fire: ``StrataIngestFailureRatioHigh`` (the 20 corrupt files; the rule as
  shipped, it has no ``for:``) and ``StrataQueryServerErrorsHigh`` (the 503s before the first ingest).
  Prometheus loads a COPY of the rules with every ``for:`` set to ``0s`` (a 5-minute ``for:`` cannot
  elapse in a 3-minute test); the expressions are the shipped ones.

Run it alone: ``flock /tmp/strata-ray-tests.lock nice -n 10 .venv/bin/python -m pytest -q tests/test_prometheus.py``
(~2-3 minutes on 2 cores).
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests
import yaml

from support import METRICS_PORT, REPO, SAMPLES, free_port

pytestmark = pytest.mark.timeout(600)

SERVE_PORT = 18123  # the serving tests' port (they stop their app before the tests of this directory)
TOOLS = Path(os.environ.get("STRATA_TOOLS_DIR", Path.home() / ".local/share/strata/tools"))
DASHBOARDS = sorted((REPO / "deploy" / "grafana").glob("*.json"))
RULES = REPO / "deploy" / "prometheus" / "strata-alerts.yml"

#: Grafana's variables, as Grafana would expand them for a dashboard over the last 10 minutes. The rate
#: windows cover the whole test, so every rate/increase sees the run's increases.
VARIABLES = {"$__rate_interval": "5m", "$__interval": "15s", "$__range": "10m", "${session}": ".*",
             "$session": ".*", "${application}": "strata", "$application": "strata"}

#: Panel queries that legitimately have no data in this run: (dashboard, panel title) → why.
EXEMPT = {
    ("strata-ingest", "GPU utilization"):
        "ray_node_gpus_utilization exists only on nodes with a GPU; this test machine has none.",
    ("strata-query", "Time to first token"):
        "ray_strata_answer_ttft_seconds is recorded by the generative (vLLM) writer only; the default CPU writer "
        "is extractive (no tokens are generated). vLLM on CPU takes 40-90 s to start, beyond this test's budget; "
        "tests/test_metrics.py checks the series with a scripted writer.",
    ("strata-query", "LLM tokens per second"):
        "ray_strata_answer_tokens_total counts LLM prompt/completion tokens: generative writer only (as above).",
    ("strata-query", "Verifications and retries", "retry"):
        "ray_strata_answer_retries_total counts generative-writer retries with a widened context; the extractive "
        "writer never retries (tests/test_metrics.py checks the series with a scripted writer).",
}


def _binary(name: str) -> str | None:
    local = TOOLS / "prometheus" / "usr" / "bin" / name
    return str(local) if local.is_file() else shutil.which(name)


PROMETHEUS, PROMTOOL = _binary("prometheus"), _binary("promtool")
needs_prometheus = pytest.mark.skipif(PROMETHEUS is None, reason=(
    f"no prometheus binary: scripts/install.sh unpacks Debian's package into {TOOLS}/prometheus (needs apt-get), "
    "or put prometheus on PATH"))


def panel_queries() -> list[tuple[str, str, str, str]]:
    """(dashboard, panel title, legend, expr) of every panel target of every dashboard."""
    out = []
    for path in DASHBOARDS:
        board = json.loads(path.read_text())

        def walk(panels):
            for panel in panels:
                yield panel
                yield from walk(panel.get("panels", []))

        for panel in walk(board["panels"]):
            for target in panel.get("targets", []):
                if target.get("expr"):
                    out.append((path.stem, panel.get("title", ""), target.get("legendFormat", ""), target["expr"]))
    return out


def dashboard_variable_queries() -> list[tuple[str, str, str, str]]:
    """(dashboard, variable, metric selector, label) of every ``label_values(…)`` template variable."""
    out = []
    for path in DASHBOARDS:
        for var in json.loads(path.read_text()).get("templating", {}).get("list", []):
            query = var.get("query")
            text = query.get("query", "") if isinstance(query, dict) else (query or "")
            match = re.fullmatch(r"\s*label_values\((.+),\s*(\w+)\)\s*", text)
            if var.get("type") == "query" and match:
                out.append((path.stem, var["name"], match.group(1), match.group(2)))
    return out


def substitute(expr: str) -> str:
    for name in sorted(VARIABLES, key=len, reverse=True):
        expr = expr.replace(name, VARIABLES[name])
    assert "$" not in expr, f"a Grafana variable this test does not know: {expr}"
    return expr


def exemption(board: str, title: str, legend: str) -> str | None:
    for key, why in EXEMPT.items():
        if key[:2] == (board, title) and (len(key) == 2 or key[2] in legend.lower()):
            return why
    return None


def rules_copy_without_for(target: Path) -> list[dict]:
    """The shipped rules with every ``for:`` set to 0s (the expressions unchanged); returns the rules."""
    doc = yaml.safe_load(RULES.read_text())
    rules = [rule for group in doc["groups"] for rule in group["rules"]]
    for rule in rules:
        if "for" in rule:
            rule["for"] = "0s"
    target.write_text(yaml.safe_dump(doc, sort_keys=False))
    return rules


class Prometheus:
    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        workdir.mkdir(parents=True, exist_ok=True)
        self.rules = rules_copy_without_for(workdir / "strata-alerts.yml")
        config = {
            # 2 s: in the full suite the session's Ray metrics agent holds every earlier test's series, and a
            # 1 s scrape of it timed out under load (two of three full runs lost series that way).
            "global": {"scrape_interval": "2s", "scrape_timeout": "2s", "evaluation_interval": "1s"},
            "rule_files": ["strata-alerts.yml"],
            "scrape_configs": [{"job_name": "strata-test",
                                "static_configs": [{"targets": [f"127.0.0.1:{METRICS_PORT}"]}]}],
        }
        (workdir / "prometheus.yml").write_text(yaml.safe_dump(config))
        self.log = open(workdir / "prometheus.log", "wb")
        self.proc = subprocess.Popen(
            [PROMETHEUS, f"--config.file={workdir / 'prometheus.yml'}", f"--storage.tsdb.path={workdir / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--storage.tsdb.retention.time=1h"],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=workdir)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (workdir / "prometheus.log").read_text()[-3000:]
            try:
                if requests.get(f"{self.url}/-/ready", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.5)
        raise AssertionError("prometheus did not become ready in 60 s")

    def query(self, expr: str) -> dict:
        response = requests.get(f"{self.url}/api/v1/query", params={"query": expr}, timeout=30)
        body = response.json()
        assert response.status_code == 200 and body["status"] == "success", (expr, body)
        return body["data"]

    def has(self, expr: str) -> bool:
        return bool(self.query(expr)["result"])

    def wait_for(self, expr: str, timeout: float = 60, poke: Callable[[], object] | None = None) -> None:
        """Wait until ``expr`` has data. ``poke`` (if given) sends one more request every 5 s while waiting, as live
        traffic would: a series that a replica first exports with its whole value is flat to increase(), and only
        a later increment makes it visible."""
        deadline = time.monotonic() + timeout
        poked = time.monotonic()
        while not self.has(expr):
            assert time.monotonic() < deadline, f"no data for {expr} after {timeout:.0f} s"
            if poke is not None and time.monotonic() - poked >= 5:
                poke()
                poked = time.monotonic()
            time.sleep(1)

    def label_values(self, match: str, label: str) -> list[str]:
        """What Grafana's ``label_values(match, label)`` lists (the series API over the whole run)."""
        response = requests.get(f"{self.url}/api/v1/label/{label}/values", params={"match[]": match}, timeout=30)
        body = response.json()
        assert response.status_code == 200 and body["status"] == "success", (match, label, body)
        return body["data"]

    def loaded_rules(self) -> dict[str, str]:
        """Alert name → health ("ok", "err", "unknown") of every rule the server loaded and evaluated."""
        body = requests.get(f"{self.url}/api/v1/rules", timeout=10).json()
        assert body["status"] == "success", body
        return {r["name"]: r["health"] for g in body["data"]["groups"] for r in g["rules"] if r["type"] == "alerting"}

    def alerts(self) -> dict[str, str]:
        body = requests.get(f"{self.url}/api/v1/alerts", timeout=10).json()
        assert body["status"] == "success", body
        return {a["labels"]["alertname"]: a["state"] for a in body["data"]["alerts"]}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def _corpus(root: Path, n_broken: int = 20) -> Path:
    """Three real pages, and ``n_broken`` corrupt gzip files (``malformed``: the ingest failure-ratio alert)."""
    (root / "docs").mkdir(parents=True)
    for name in ("errors.rst.txt", "venv.rst.txt"):
        shutil.copy(SAMPLES / "python-tutorial" / name, root / "docs" / name)
    shutil.copy(SAMPLES / "man7" / "epoll.7.gz", root / "docs" / "epoll.7.gz")
    broken = gzip.compress(b"Title\n=====\n\nbody text that will never be read\n" * 20)[:-12]
    for i in range(n_broken):
        (root / "docs" / f"broken-{i:04d}.rst.gz").write_bytes(broken)
    return root / "docs"


def _post(url: str, path: str, body: dict, timeout: float = 120) -> requests.Response:
    return requests.post(url + path, json=body, timeout=timeout)


def _defined_metrics() -> set[str]:
    """Every Prometheus series name Strata's metrics define (``ray_`` prefix, counter/histogram suffixes)."""
    source = (REPO / "cluster" / "telemetry" / "metrics.py").read_text()
    names = set()
    for kind, name in re.findall(r'\b(Counter|Gauge|Histogram)\(\s*"(strata_[a-z_]+)"', source):
        base = "ray_" + name
        if kind == "Counter":
            names.add(base if base.endswith("_total") else base + "_total")
        elif kind == "Histogram":
            names |= {base + "_bucket", base + "_sum", base + "_count"}
        else:
            names.add(base)
    return names


def test_deploy_files_name_only_defined_strata_metrics():
    """A typo in a dashboard or an alert (or a renamed metric) shows as an unknown name here, without a run."""
    defined = _defined_metrics()
    assert "ray_strata_ingest_failures_total" in defined and "ray_strata_answer_seconds_bucket" in defined
    exprs = {"dashboards": "\n".join(expr for *_, expr in panel_queries()),
             "alert rules": "\n".join(r["expr"] for g in yaml.safe_load(RULES.read_text())["groups"] for r in g["rules"]),
             "README.md": (REPO / "README.md").read_text(), "deploy/README.md": (REPO / "deploy" / "README.md").read_text()}
    unknown = {}
    for where, text in exprs.items():
        for name in sorted(set(re.findall(r"\bray_strata_[a-z_]+", text))):
            prose = where.endswith(".md")  # READMEs also name families ("ray_strata_query_*", "_sections_total")
            if name not in defined and not (prose and any(d.startswith(name) for d in defined)):
                unknown.setdefault(where, []).append(name)
    assert unknown == {}


@pytest.fixture()
def prometheus(tmp_path):
    server = Prometheus(tmp_path / "prometheus")
    yield server
    server.stop()


@needs_prometheus
def test_alert_rules_pass_promtool():
    if PROMTOOL is None:
        pytest.skip("no promtool (the query-API parse check in the run test still covers the expressions)")
    result = subprocess.run([PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 19 rules found" in result.stdout, result.stdout


@needs_prometheus
def test_dashboards_and_alerts_against_a_real_prometheus(prometheus, ray_session, installed_models, tmp_path):
    from ray import serve

    from cluster.config import load_config
    from pipelines.ingest import run_ingest
    from serving.app import deploy

    t0 = time.monotonic()
    prom = prometheus
    prom.wait_for(f'up{{job="strata-test"}} == 1', timeout=30)
    data_dir = tmp_path / "index"
    cfg = load_config(storage={"data_dir": str(data_dir)}, serve={"port": SERVE_PORT})
    cfg.ingest.progress = False
    url = deploy(cfg, port=SERVE_PORT)  # RUNNING before any index exists (replicas open it lazily)
    # A load balancer's health check polls /readyz all along. StrataQueryNotReady ("only 503 from /readyz for
    # 10 minutes") is judged on that traffic: without it the 200 series stops increasing after step 3 (and Ray's
    # metrics agent stops exporting it), while the 503s of step 1 are still in the window, and the alert fires.
    stop_polling = threading.Event()

    def health_check() -> None:
        while not stop_polling.wait(2):
            try:
                requests.get(f"{url}/readyz", timeout=10)
            except requests.RequestException:
                pass

    poller = threading.Thread(target=health_check, name="readyz-poller", daemon=True)
    poller.start()
    try:
        # 1. A fresh deployment before the first ingest: /readyz and /v1/search answer 503 (5xx for the alert).
        #    Two bursts, the second after Prometheus has seen the first: a counter series that first appears
        #    with its whole value is invisible to rate(), so the error-ratio rule needs the second burst.
        for _ in range(4):
            assert _post(url, "/v1/search", {"query": "anything"}).status_code == 503
            assert requests.get(f"{url}/readyz", timeout=30).status_code == 503
        prom.wait_for('ray_serve_num_http_requests_total{application="strata",status_code="503"}')
        for _ in range(12):
            response = _post(url, "/v1/search", {"query": "anything"})
            assert response.status_code == 503 and "strata ingest" in response.json()["error"], response.text

        # 2. Ingest: 3 good pages and corrupt ones. The ingest counters of this process hold every earlier ingest
        #    of the test session too (the alert sums them over an hour), so the corrupt files outnumber what is
        #    already counted: their share of the hour's documents is then over 20%, well past the rule's 5%.
        def total(expr: str) -> float:
            result = prom.query(f"sum({expr})")["result"]
            return float(result[0]["value"][1]) if result else 0.0

        seen = total("ray_strata_ingest_documents_total")
        failed = total('ray_strata_ingest_failures_total{reason!~"empty|binary"}')
        n_broken = max(20, math.ceil((0.2 * (seen + 3) - failed) / 0.8) + 1)
        report = run_ingest(cfg, _corpus(tmp_path / "corpus", n_broken), source="prom")
        assert report.new == 3 and report.failures_by_reason() == {"malformed": n_broken}, report.summary()
        deadline = time.monotonic() + 90
        while requests.get(f"{url}/readyz", timeout=30).status_code != 200:
            assert time.monotonic() < deadline, "the replicas did not pick up the first index"
            time.sleep(1)
        # The health check above may have made a replica open the index while the ingest was still writing (its
        # tables empty); replicas move to a newly committed version within serve.refresh_interval_s, so the load
        # below starts once every replica has had the time to.
        time.sleep(2 * cfg.serve.refresh_interval_s + 0.5)

        # 3. A short load: searches of every route, context packs, answers (answered and refused), bad requests.
        queries = ["How do I handle exceptions with try and except?", "create a virtual environment",
                   "EPOLLET", "Compare edge-triggered mode and level-triggered mode", "python -m venv tutorial-env",
                   "What does epoll_wait return?", "raise an exception", "pip install a package"]
        for query in queries:
            assert _post(url, "/v1/search", {"query": query, "top_k": 5, "use_cache": False}).status_code == 200
            assert _post(url, "/v1/search", {"query": query, "top_k": 5}).status_code == 200  # result cache hit
        for query in queries[:3]:
            assert _post(url, "/v1/context", {"query": query, "budget_tokens": 600}).status_code == 200
        answered = _post(url, "/v1/answer", {"question": "Which epoll flag requests edge-triggered notification?"})
        refused = _post(url, "/v1/answer", {"question": "What is the boiling point of mercury in kelvin?"})
        assert answered.status_code == 200 and answered.json()["refused"] is False, answered.text
        assert refused.status_code == 200 and refused.json()["refused"] is True, refused.text
        assert _post(url, "/v1/search", {"query": ""}).status_code == 422
        assert _post(url, "/v1/search", {"query": "x", "filters": {"section_id": "nope"}}).status_code == 404

        # 4. A second ingest under the running replicas: a new index version (index_version_changes_total). It
        #    waits until Prometheus holds the first ingest's series, so that its commit is an increase to rate().
        for expr in ('ray_strata_ingest_stage_seconds_count{stage="write"}', "ray_strata_writer_batch_rows_count"):
            prom.wait_for(f"count_over_time({expr}[5m]) > 2", timeout=60)
        fresh = tmp_path / "fresh"
        fresh.mkdir()
        (fresh / "fresh.md").write_text("# Fresh\n\nThe quokka zebrafish interoperability layer was added today.\n")
        run_ingest(cfg, fresh, source="fresh")
        deadline = time.monotonic() + 60
        while True:
            hits = _post(url, "/v1/search", {"query": "quokka zebrafish", "mode": "bm25", "top_k": 1}).json()["hits"]
            if hits and hits[0]["path"] == "fresh.md":
                break
            assert time.monotonic() < deadline, "the replicas did not pick up the second ingest"
            time.sleep(1)
        # The ingest driver's series (this process): Ray's metrics agent drops a component's series 120 s after
        # its last report, so they are looked for now, while the driver's report is fresh and before step 5's
        # load, which on 2 cores can make Prometheus's 1 s scrapes time out for most of those 120 s.
        for expr in ("ray_strata_lance_rows", "ray_strata_lance_fragments", "ray_strata_lance_unindexed_rows",
                     'ray_strata_ingest_failures_total{reason="malformed"}'):
            prom.wait_for(f"count_over_time({expr}[30m]) > 2", timeout=90)
        # 5. A second round of the same load once Prometheus holds the series it increases: a counter or histogram
        #    series that first appears with its whole value is flat to rate(), so without it the latency panels
        #    would be NaN. Step 3's series may be gone by now (minutes of steps 4, and a series Ray's metrics agent
        #    stops exporting, or a replica that restarted, comes back as a new one), so one request of each kind
        #    comes first and the round waits until Prometheus has scraped their series in the last 30 s.
        #    Answers bypass the answer cache so they are recorded again.
        answers = ("Which epoll flag requests edge-triggered notification?",
                   "What is the boiling point of mercury in kelvin?")
        assert _post(url, "/v1/search", {"query": queries[0], "top_k": 5, "use_cache": False}).status_code == 200
        assert _post(url, "/v1/context", {"query": queries[0], "budget_tokens": 600, "use_cache": False}).status_code == 200
        for question in answers:
            assert _post(url, "/v1/answer", {"question": question, "use_cache": False}).status_code == 200
        for expr in ('ray_strata_query_stage_seconds_count{stage="total"}', 'ray_strata_answer_requests_total',
                     'ray_strata_answer_seconds_count', 'ray_strata_query_candidates_count'):
            prom.wait_for(f"count_over_time({expr}[30s]) > 2", timeout=90)
        for query in queries:
            assert _post(url, "/v1/search", {"query": query, "top_k": 5, "use_cache": False}).status_code == 200
        for query in queries[:3]:
            assert _post(url, "/v1/context", {"query": query, "budget_tokens": 600, "use_cache": False}).status_code == 200
        for question in answers:
            assert _post(url, "/v1/answer", {"question": question, "use_cache": False}).status_code == 200

        # 6. Prometheus has the run: every series present with a few samples (increase() needs two), the second
        #    round's increases visible (the ingest driver's series were checked in step 4). Over the whole run
        #    (30m): on a loaded machine steps 4-5 can outlast a 5-minute window.
        for expr in ("ray_strata_index_version_changes_total", 'ray_strata_answer_requests_total{outcome="refused"}',
                     "ray_strata_query_errors_total"):
            prom.wait_for(f"count_over_time({expr}[30m]) > 2", timeout=60)
        #    Each wait pokes with a request of its kind (Prometheus.wait_for says why).
        def search() -> None:
            _post(url, "/v1/search", {"query": queries[0], "top_k": 5, "use_cache": False})

        def refuse() -> None:
            _post(url, "/v1/answer", {"question": answers[1], "use_cache": False})

        for expr, poke in (('ray_strata_query_stage_seconds_count{stage="total"}', search),
                           ('ray_strata_answer_seconds_count', refuse),
                           ('ray_strata_answer_requests_total{outcome="refused"}', refuse),
                           ('ray_strata_query_candidates_count', search)):
            prom.wait_for(f"sum(increase({expr}[5m])) > 0", timeout=60, poke=poke)

        # 6b. Ray Data's series (the ingest panel's rows per operator) come from its stats actor, which sets them
        #     while a dataset runs and not after: the metrics agent stops exporting them 120 s after the last
        #     ingest and an instant query loses them 5 min later. On a loaded machine steps 4-6 can outlast that,
        #     so a one-file ingest brings them back, as a running ingest would on a live dashboard.
        if not prom.has("ray_data_output_rows"):
            late = tmp_path / "late"
            late.mkdir()
            (late / "late.md").write_text("# Late\n\nA late page so that Ray Data reports its operators again.\n")
            run_ingest(cfg, late, source="late")
            prom.wait_for("ray_data_output_rows", timeout=90)

        # 7. Every dashboard query returns data (or is exempt, with its reason), and a number, not NaN.
        #    Ray's metrics agent keeps a gauge for two of its emitter's export intervals (2 x 10 s) and drops it
        #    from the scrape when an export comes later than that, which on 2 cores under load happens: Prometheus
        #    then marks the series stale and an instant query is empty until the next export, as a live dashboard
        #    shows a gap. A panel found empty is asked again, with traffic, for up to 60 s; one that never has data
        #    still fails the test.
        empty, checked, nan_only = [], 0, []
        for board, title, legend, expr in panel_queries():
            data = prom.query(substitute(expr))  # asserts status success
            if exemption(board, title, legend):
                continue
            checked += 1
            if not data["result"]:
                empty.append((f"{board} / {title} [{legend}]", substitute(expr)))
            elif all(math.isnan(float(s["value"][1])) for s in data["result"]):
                nan_only.append(f"{board} / {title} [{legend}]: {substitute(expr)}")
        first_empty = list(empty)
        deadline = time.monotonic() + 60
        while empty and time.monotonic() < deadline:
            search()
            time.sleep(2)
            empty = [(panel, expr) for panel, expr in empty if not prom.query(expr)["result"]]
        print(f"{checked - len(empty)} of {checked} panel queries returned data (empty at first, then back: "
              f"{[panel for panel, expr in first_empty if (panel, expr) not in empty]}); NaN-only (a rate window "
              f"without increase): {nan_only}")

        # 7b. Every dashboard variable's query (Grafana's label_values(metric, label)) finds values: the
        #     session and application pickers would otherwise be empty and every panel blank.
        variables = dashboard_variable_queries()
        assert len(variables) >= 3, variables
        for board, name, metric, label in variables:
            values = prom.label_values(substitute(metric), label)
            assert values, f"{board}: variable ${name} = label_values({metric}, {label}) finds no values"
            if name == "application":
                assert "strata" in values, values

        # 8. Every alert expression is accepted by the query API (promtool checks the file above), and every rule
        #    of the file is loaded by the server and evaluates without error; the two alerts this run provokes fire.
        for rule in prom.rules:
            prom.query(rule["expr"])
        loaded = prom.loaded_rules()
        assert sorted(loaded) == sorted(r["alert"] for r in prom.rules) and len(loaded) == 19, loaded
        assert all(health == "ok" for health in loaded.values()), loaded
        #    "Fired" is read from Prometheus's own ALERTS series over the whole run, not only the state now: the
        #    server-error alert's 5-minute rate window holds step 1's 503s only for 5 minutes, and on a slow box
        #    steps 2-7 can take longer than that (the alert then fired and resolved, as it should).
        wanted = {"StrataIngestFailureRatioHigh", "StrataQueryServerErrorsHigh"}

        def fired(name: str) -> bool:
            return states.get(name) == "firing" or prom.has(
                f'max_over_time(ALERTS{{alertname="{name}",alertstate="firing"}}[30m])')

        deadline = time.monotonic() + 60
        states: dict[str, str] = {}
        while time.monotonic() < deadline:
            states = prom.alerts()
            if all(fired(name) for name in wanted):
                break
            time.sleep(1)
        p99 = prom.query('histogram_quantile(0.99, sum by (le) '
                         '(rate(ray_strata_query_stage_seconds_bucket{stage="total"}[5m])))')["result"]
        print(f"alerts: {states}; search p99 over 5 min: {[r['value'][1] for r in p99]} s; "
              f"test took {time.monotonic() - t0:.0f} s")
        assert not empty, "dashboard queries without data:\n" + "\n".join(f"{p}: {e}" for p, e in empty)
        assert not nan_only, "dashboard queries that are NaN:\n" + "\n".join(nan_only)
        assert checked >= 75, checked
        assert all(fired(name) for name in wanted), states
        # Nothing else fires, except: StrataQueryNoSuccessfulRequests is TRUE during the no-index phase (every /v1
        # request failed) and may still be firing when the proxy's later 2xx counts have not been exported yet;
        # in production its `for: 5m` (zeroed here) keeps a short outage like that one quiet. Node memory and
        # search latency depend on the machine, not on Strata: in the full test suite on 2 cores the p99 of this
        # short burst of uncached searches has passed 2 s (StrataQueryLatencyP99High, `for: 10m` in production).
        # StrataIngestStalled (`for: 15m` in production) can hold while the first ingest of a fresh Prometheus runs
        # on a loaded machine: Ray Data reports the dataset RUNNING before the writer's document counter has two
        # samples, and a counter's first sample is no increase.
        allowed = wanted | {"StrataQueryNoSuccessfulRequests", "RayNodeMemoryHigh", "StrataQueryLatencyP99High",
                            "StrataIngestStalled"}
        assert {n for n, s in states.items() if s == "firing"} <= allowed, states
    finally:
        stop_polling.set()
        poller.join(timeout=15)
        serve.delete(cfg.serve.app_name)
        serve.shutdown()
