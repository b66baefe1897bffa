"""Orchestration of the query stages, written once: :mod:`.search` (``/v1/search``, ``/v1/context``,
documents), :mod:`.answer` (``/v1/answer``), over the :class:`~serving.services.stages.Stages`
interface; :mod:`.local` runs them in one process."""
