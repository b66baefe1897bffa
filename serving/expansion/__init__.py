"""Awareness expansion: from ranked hits to a budgeted, deduplicated, ordered context pack."""

from serving.expansion.awareness import AwarenessExpander, ExpansionSettings
from serving.expansion.packing import PackedPassage, pack

__all__ = ["AwarenessExpander", "ExpansionSettings", "PackedPassage", "pack"]
