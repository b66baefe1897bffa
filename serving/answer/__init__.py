"""Cited, checked answers over Strata's context packs: the extractive answerer (quoted evidence sentences, no LLM) and the generative writer on vLLM, verified or refused."""
