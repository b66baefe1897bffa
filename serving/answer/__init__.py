"""Cited, verified answers: writer and verifier LLMs (vLLM) over Strata's context packs."""
