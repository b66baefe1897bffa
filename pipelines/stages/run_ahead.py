"""Keep the parse stage at most a few work units ahead of the embedding actors.

Parsing and chunking run ~100x faster than embedding on CPUs, and Ray Data's own backpressure
lets an operator fill up to half the object store before it holds back: on a 10M-token ingest the
parse task ran through most of the corpus in the first minutes, and its parsed units (8-16 bytes
a token) sat in the store until the actors reached them. Every process that wrote or read those
blocks kept the store's pages resident, so an ingest's memory grew with the corpus.

:class:`RunAheadLimit` is a Ray Data backpressure policy (installed with ``DataContext.set_config``
under Ray Data's ``backpressure_policies.enabled`` key, beside its default policies) that stops the
parse operator from starting another task while ``units`` or more of its units are parsing, parsed or
queued at the embedding stage and not yet embedded. The limit is in work units, whose size the
driver bounds (``ingest.unit_tokens``; a larger file is a unit alone), so the parsed text held at
once no longer depends on the corpus.

>>> # ctx = ray.data.DataContext.get_current()
>>> # limit_run_ahead(ctx, "parse_chunk_batch", run_ahead_units(actors=2, parse_tasks=1))   # 7 units
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ray.data._internal.execution.backpressure_policy import (
    ENABLED_BACKPRESSURE_POLICIES,
    ENABLED_BACKPRESSURE_POLICIES_CONFIG_KEY,
    BackpressurePolicy,
)

if TYPE_CHECKING:
    from ray.data import DataContext
    from ray.data._internal.execution.interfaces.physical_operator import PhysicalOperator

#: The ``DataContext`` config key: {stage function name: units}. A stage's operator is named after its
#: function (``MapBatches(parse_chunk_batch)``).
LIMITS_KEY = "strata.run_ahead_units"
#: Calls Ray Data queues on each embedding actor (two per actor at max_concurrency 1), plus one more
#: unit an actor so a finished call's successor is already parsed.
UNITS_PER_ACTOR = 3


def run_ahead_units(actors: int, parse_tasks: int) -> int:
    """Units that may be parsing or parsed and not yet embedded: enough for every embedding actor's
    queued calls and one more each, plus one per parse task running.

    >>> run_ahead_units(actors=2, parse_tasks=1)
    7
    """
    return UNITS_PER_ACTOR * max(1, actors) + max(1, parse_tasks)


def limit_run_ahead(ctx: "DataContext", stage: str, units: int) -> None:
    """Let the operator of ``stage`` (its function's name) run at most ``units`` blocks ahead of the
    operator it feeds, by installing :class:`RunAheadLimit` in ``ctx`` (Ray Data's policies stay)."""
    policies = ctx.get_config(ENABLED_BACKPRESSURE_POLICIES_CONFIG_KEY, ENABLED_BACKPRESSURE_POLICIES)
    ctx.set_config(ENABLED_BACKPRESSURE_POLICIES_CONFIG_KEY,
                   [p for p in policies if p is not RunAheadLimit] + [RunAheadLimit])
    ctx.set_config(LIMITS_KEY, {**ctx.get_config(LIMITS_KEY, {}), stage: units})


class RunAheadLimit(BackpressurePolicy):
    """Hold a limited operator back while its limit of blocks is ahead of the operator after it.

    Ahead = its tasks running + the blocks they produced - the input blocks of the next operator's
    finished tasks: in the making, waiting, queued at an actor, or being consumed (for the parse
    stage: parsing, parsed, queued at an embedding actor, being embedded). Operators without a
    limit are left to Ray Data's policies.
    """

    @property
    def name(self) -> str:
        return "StrataRunAheadLimit"

    def can_add_input(self, op: "PhysicalOperator") -> bool:
        limits = self._data_context.get_config(LIMITS_KEY) or {}
        limit = next((units for stage, units in limits.items() if f"({stage})" in op.name), None)
        if not limit or len(op.output_dependencies) != 1:
            return True
        consumer = op.output_dependencies[0]
        ahead = (op.metrics.num_tasks_running + op.metrics.num_task_outputs_generated
                 - consumer.metrics.num_task_inputs_processed)
        return ahead < limit
