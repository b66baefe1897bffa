"""Ray Serve deployments, one per stage, and :class:`ServeStages` (the stages over handles)."""

from serving.deployments.embedder import QueryEmbedder
from serving.deployments.expander import AwarenessExpanderDeployment
from serving.deployments.ingress import ServeStages, StrataIngress
from serving.deployments.llm import LLMDeployment, ServeLLM
from serving.deployments.reranker import RerankerDeployment
from serving.deployments.retriever import HybridRetrieverDeployment

__all__ = ["AwarenessExpanderDeployment", "HybridRetrieverDeployment", "LLMDeployment", "QueryEmbedder",
           "RerankerDeployment", "ServeLLM", "ServeStages", "StrataIngress"]
