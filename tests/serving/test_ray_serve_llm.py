"""Ray Serve's LLM API as the in-cluster writer (``answer.writer.deployment = "ray_serve_llm"``): the
config mapping and the stream reading, without an engine (the end-to-end run is in
``test_answer_llm_app.py``, parametrized over both deployments)."""

from __future__ import annotations

import asyncio

import pytest

from cluster.config import LLMConfig, load_config
from serving.llm.engine import PromptTooLong, engine_args
from serving.llm.openai_server import LLMServerError, chunk_events
from serving.llm.ray_serve_llm import ray_llm_config, sse_payloads


def test_ray_llm_config_carries_strata_engine_settings():
    cfg = load_config(answer={"writer": {"kind": "llm", "deployment": "ray_serve_llm", "max_model_len": 2048,
                                         "replicas": 2}})
    llm = cfg.answer.writer
    ray_cfg = ray_llm_config(llm, cfg.models.home, cpus=0.5)
    strata = engine_args(llm, cfg.models.home)
    assert ray_cfg.model_loading_config.model_id == "smollm2-135m-instruct"
    assert ray_cfg.model_loading_config.model_source == str(strata["model"])
    assert ray_cfg.engine_kwargs["max_model_len"] == 2048 == strata["max_model_len"]
    assert ray_cfg.engine_kwargs["dtype"] == strata["dtype"] and ray_cfg.engine_kwargs["enforce_eager"] is True
    assert ray_cfg.engine_kwargs["structured_outputs_config"] == {"backend": "xgrammar", "disable_any_whitespace": True}
    assert ray_cfg.placement_group_config == {"bundles": [{"CPU": 0.5}]}
    assert ray_cfg.deployment_config["num_replicas"] == 2
    gpu = ray_llm_config(LLMConfig(kind="llm", deployment="ray_serve_llm", tensor_parallel_size=2, gpus=2),
                         cfg.models.home, cpus=1.0, gpus=2)
    assert gpu.placement_group_config == {"bundles": [{"GPU": 1, "CPU": 1.0}, {"GPU": 1, "CPU": 0}]}


def test_stream_reading_and_errors():
    batch = ['data: {"choices": [{"delta": {"content": "Hel"}, "finish_reason": null}]}\n\n',
             'data: {"choices": [{"delta": {"content": "lo"}, "finish_reason": "stop"}]}\n\n'
             'data: {"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 2}}\n\n',
             "data: [DONE]\n\n"]

    async def chunks():
        for payload in sse_payloads(batch):
            yield payload

    async def events():
        return [e async for e in chunk_events(chunks(), [{"role": "user", "content": "hi"}], 0.0)]

    out = asyncio.run(events())
    assert [e.delta for e in out[:-1]] == ["Hel", "lo"]
    last = out[-1]
    assert last.done and last.text == "Hello" and (last.prompt_tokens, last.completion_tokens) == (7, 2)
    assert last.finish_reason == "stop"
    too_long = ['data: {"error": {"message": "This model\'s maximum context length is 2048 tokens", "code": 400}}\n\n']
    with pytest.raises(PromptTooLong):
        list(sse_payloads(too_long))
    with pytest.raises(LLMServerError, match="engine died"):
        list(sse_payloads(['data: {"error": {"message": "engine died"}}\n\n']))
