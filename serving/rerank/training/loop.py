"""Fine-tuning loop: listwise softmax loss over one positive and ``negatives`` hard negatives.

Each epoch builds, for every judged-relevant document retrieval found, a group ``[positive,
n₁ … n_k]`` with the negatives drawn afresh (seeded) from the query's first ``negative_depth``
non-relevant chunks; the loss is the cross-entropy of the positive under a softmax over the
group's logits. AdamW with linear warm-up and decay; the word-embedding matrix can stay frozen
(faster on CPU, and a regulariser with a few hundred queries). After each epoch ``on_epoch``
(validation) returns a score; the best epoch's weights are restored at the end.

>>> s = TrainSettings(epochs=1, negatives=3)
>>> s.lr, s.max_length
(5e-05, 256)
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from serving.rerank.training.mining import QueryCandidates
from serving.rerank.training.model import PairTokenizer

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


def train_cross_encoder(model, tokenizer: PairTokenizer, lists: Sequence[QueryCandidates], settings: TrainSettings, *,
                        on_epoch: Callable[[int], float] | None = None,
                        log: Callable[[str], None] | None = None) -> TrainHistory:
    """Train ``model`` in place; with ``on_epoch`` the best-scoring epoch's weights are kept."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(settings.threads)
    torch.manual_seed(settings.seed)
    rng = random.Random(settings.seed)
    optimizer = _optimizer(model, settings)
    base_lrs = [g["lr"] for g in optimizer.param_groups]
    epoch_groups = [build_groups(lists, settings, rng) for _ in range(settings.epochs)]
    steps_total = sum(math.ceil(len(g) / settings.groups_per_step) for g in epoch_groups)
    warmup_steps = max(1, int(settings.warmup * steps_total))
    history = TrainHistory()
    best_score, best_state = -math.inf, None
    started, cpu_started = time.perf_counter(), time.process_time()
    step = 0
    for epoch, groups in enumerate(epoch_groups, start=1):
        model.train()
        t0, loss_sum = time.perf_counter(), 0.0
        for i in range(0, len(groups), settings.groups_per_step):
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
            loss_sum += loss.item() * len(batch)
            step += 1
            if log is not None and step % 25 == 0:
                log(f"epoch {epoch} step {step}/{steps_total} loss {loss_sum / (i + len(batch)):.4f} "
                    f"({time.perf_counter() - t0:.0f}s)")
        entry = EpochLog(epoch, loss_sum / max(1, len(groups)), len(groups), time.perf_counter() - t0)
        if on_epoch is not None:
            entry.validation = on_epoch(epoch)
            if entry.validation > best_score:
                best_score, best_state = entry.validation, copy.deepcopy(model.state_dict())
                history.best_epoch = epoch
        history.epochs.append(entry)
        if log is not None:
            log(f"epoch {epoch}: loss {entry.loss:.4f}, {entry.groups} groups, {entry.seconds:.0f}s"
                + (f", validation {entry.validation:.4f}" if entry.validation is not None else ""))
    if best_state is not None:
        model.load_state_dict(best_state)
    else:
        history.best_epoch = settings.epochs
    model.eval()
    history.seconds = time.perf_counter() - started
    history.cpu_seconds = time.process_time() - cpu_started
    history.steps = step
    return history
