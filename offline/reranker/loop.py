"""Fine-tuning loop: listwise softmax loss over one positive and ``negatives`` hard negatives.

Each epoch builds, for every judged-relevant document retrieval found, a group ``[positive,
n₁ … n_k]`` with the negatives drawn afresh (seeded) from the query's first ``negative_depth``
non-relevant chunks; the loss is the cross-entropy of the positive under a softmax over the
group's logits. AdamW with linear warm-up and decay; the word-embedding matrix can stay frozen
(faster on CPU, and a regulariser with a few hundred queries). After each epoch ``on_epoch``
(validation) returns a score; the best epoch's weights are restored at the end. A checkpoint
file makes a long CPU run resumable (a killed run continues where it stopped).

>>> s = TrainSettings(epochs=1, negatives=3)
>>> s.lr, s.max_length
(5e-05, 256)
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field

from offline.reranker.mining import QueryCandidates
from offline.reranker.model import PairTokenizer

__all__ = ["EpochLog", "TrainHistory", "TrainSettings", "build_groups", "train_cross_encoder"]


class TrainSettings(BaseModel):
    """Hyperparameters of one training run (all recorded in the model card)."""

    epochs: int = Field(2, ge=1, le=50)
    negatives: int = Field(3, ge=1, le=63, description="hard negatives per positive (group size = 1 + negatives)")
    negative_depth: int = Field(20, ge=1, description="negatives come from the first N retrieved chunks")
    max_length: int = Field(256, ge=32, le=512, description="tokens per (query, passage) pair")
    groups_per_step: int = Field(2, ge=1, description="groups per optimizer step")
    lr: float = Field(5e-5, gt=0)
    head_lr: float = Field(1e-3, gt=0, description="learning rate of the new classification head")
    weight_decay: float = Field(0.01, ge=0)
    warmup: float = Field(0.1, ge=0, le=1, description="share of the steps with a linear warm-up")
    freeze_embeddings: bool = True
    dropout: float = Field(0.1, ge=0, lt=1)
    seed: int = 13
    threads: int = Field(2, ge=1)


@dataclass
class EpochLog:
    epoch: int
    loss: float
    groups: int
    seconds: float
    validation: float | None = None


@dataclass
class TrainHistory:
    epochs: list[EpochLog] = field(default_factory=list)
    best_epoch: int | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    steps: int = 0


def build_groups(lists: Sequence[QueryCandidates], settings: TrainSettings, rng: random.Random) -> list[list[tuple[str, str]]]:
    """One epoch's shuffled groups of (query, passage) pairs, positive first."""
    groups = []
    for qc in lists:
        negatives = qc.negatives(settings.negative_depth)
        if not negatives:
            continue
        for pos in qc.positives():
            drawn = rng.sample(negatives, min(settings.negatives, len(negatives)))
            groups.append([(qc.query, pos.text)] + [(qc.query, n.text) for n in drawn])
    rng.shuffle(groups)
    return groups


def _optimizer(model, settings: TrainSettings):
    import torch

    if settings.freeze_embeddings:
        model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("classifier.")]
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        if not p.requires_grad or n.startswith("classifier."):
            continue
        (no_decay if n.endswith("bias") or "LayerNorm" in n else decay).append(p)
    return torch.optim.AdamW([
        {"params": decay, "lr": settings.lr, "weight_decay": settings.weight_decay},
        {"params": no_decay, "lr": settings.lr, "weight_decay": 0.0},
        {"params": head, "lr": settings.head_lr, "weight_decay": 0.0},
    ])


def _fingerprint(lists: Sequence[QueryCandidates], settings: TrainSettings) -> str:
    """What a checkpoint must match to be resumed: the settings and the training queries."""
    blob = json.dumps({"settings": settings.model_dump(), "queries": [qc.qid for qc in lists]}, sort_keys=True)
    return hashlib.sha1(blob.encode()).hexdigest()


def _save(path: Path, payload: dict) -> None:
    import torch

    tmp = path.with_name(path.name + ".tmp")
    torch.save(payload, tmp)
    tmp.replace(path)


def train_cross_encoder(model, tokenizer: PairTokenizer, lists: Sequence[QueryCandidates], settings: TrainSettings, *,
                        on_epoch: Callable[[int], float] | None = None, log: Callable[[str], None] | None = None,
                        checkpoint: Path | None = None, checkpoint_every: int = 10) -> TrainHistory:
    """Train ``model`` in place; with ``on_epoch`` the best-scoring epoch's weights are kept.

    With ``checkpoint`` (a file path) the run saves its state every ``checkpoint_every`` steps and
    after each epoch's validation, and a restarted run with the same settings and queries resumes
    where it stopped (same groups, optimizer state, RNG state and step) instead of starting over."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(settings.threads)
    torch.manual_seed(settings.seed)
    rng = random.Random(settings.seed)
    optimizer = _optimizer(model, settings)
    base_lrs = [g["lr"] for g in optimizer.param_groups]
    epoch_groups = [build_groups(lists, settings, rng) for _ in range(settings.epochs)]
    per_epoch = [math.ceil(len(g) / settings.groups_per_step) for g in epoch_groups]
    steps_total = sum(per_epoch)
    warmup_steps = max(1, int(settings.warmup * steps_total))
    fingerprint = _fingerprint(lists, settings)
    best_path = checkpoint.with_name(checkpoint.name + ".best") if checkpoint else None
    state = {"step": 0, "epochs": [], "best_score": -math.inf, "best_epoch": None, "epoch_loss": 0.0,
             "epoch_seconds": 0.0, "seconds": 0.0, "cpu_seconds": 0.0}
    if checkpoint is not None and checkpoint.is_file():
        saved = torch.load(checkpoint, weights_only=False)
        if saved.get("fingerprint") == fingerprint:
            model.load_state_dict(saved["model"])
            optimizer.load_state_dict(saved["optimizer"])
            torch.set_rng_state(saved["torch_rng"])
            state = saved["state"]
            if log is not None:
                log(f"resuming from {checkpoint} at step {state['step']}/{steps_total}")
        elif log is not None:
            log(f"ignoring {checkpoint}: written for other settings or queries")
    wall0, cpu0 = time.perf_counter() - state["seconds"], time.process_time() - state["cpu_seconds"]

    def save() -> None:
        if checkpoint is not None:
            state["seconds"], state["cpu_seconds"] = time.perf_counter() - wall0, time.process_time() - cpu0
            _save(checkpoint, {"fingerprint": fingerprint, "model": model.state_dict(),
                               "optimizer": optimizer.state_dict(), "torch_rng": torch.get_rng_state(), "state": state})

    step = 0
    for epoch, groups in enumerate(epoch_groups, start=1):
        if len(state["epochs"]) >= epoch:  # finished (and validated) before a restart
            step += per_epoch[epoch - 1]
            continue
        model.train()
        t0 = time.perf_counter() - state["epoch_seconds"]
        for i in range(0, len(groups), settings.groups_per_step):
            if step < state["step"]:
                step += 1
                continue
            batch = groups[i:i + settings.groups_per_step]
            scale = min((step + 1) / warmup_steps, max(0.0, (steps_total - step) / max(1, steps_total - warmup_steps)))
            for g, base in zip(optimizer.param_groups, base_lrs):
                g["lr"] = base * scale
            logits = model(**tokenizer([pair for group in batch for pair in group])).logits[:, 0]
            losses, offset = [], 0
            for group in batch:
                part = logits[offset:offset + len(group)]
                losses.append(F.cross_entropy(part.unsqueeze(0), torch.zeros(1, dtype=torch.long)))
                offset += len(group)
            loss = torch.stack(losses).mean()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            state["epoch_loss"] += loss.item() * len(batch)
            step += 1
            state["step"] = step
            state["epoch_seconds"] = time.perf_counter() - t0
            if log is not None and step % 25 == 0:
                log(f"epoch {epoch} step {step}/{steps_total} loss {state['epoch_loss'] / (i + len(batch)):.4f} "
                    f"({state['epoch_seconds']:.0f}s)")
            if step % checkpoint_every == 0:
                save()
        entry = EpochLog(epoch, state["epoch_loss"] / max(1, len(groups)), len(groups), time.perf_counter() - t0)
        if on_epoch is not None:
            entry.validation = on_epoch(epoch)
            if entry.validation > state["best_score"]:
                state["best_score"], state["best_epoch"] = entry.validation, epoch
                if best_path is not None:
                    _save(best_path, {"fingerprint": fingerprint, "model": model.state_dict()})
                else:
                    state["best_model"] = copy.deepcopy(model.state_dict())
        state["epochs"].append(vars(entry))
        state["epoch_loss"], state["epoch_seconds"] = 0.0, 0.0
        save()
        if log is not None:
            log(f"epoch {epoch}: loss {entry.loss:.4f}, {entry.groups} groups, {entry.seconds:.0f}s"
                + (f", validation {entry.validation:.4f}" if entry.validation is not None else ""))
    history = TrainHistory(epochs=[EpochLog(**e) for e in state["epochs"]], steps=step)
    if state["best_epoch"] is not None and state["best_epoch"] != settings.epochs:
        best = torch.load(best_path, weights_only=False)["model"] if best_path is not None else state["best_model"]
        model.load_state_dict(best)
    history.best_epoch = state["best_epoch"] or settings.epochs
    model.eval()
    history.seconds = time.perf_counter() - wall0
    history.cpu_seconds = time.process_time() - cpu0
    return history
