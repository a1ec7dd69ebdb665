"""Placeholder until the consolidate module lands."""

import dataclasses

from .flow import Step
from .state import State


@dataclasses.dataclass(frozen=True, slots=True)
class ConsolidateTurn(Step):
    """Placeholder: removes one order of the house."""

    house: str

    def run(self, state: State) -> None:
        raise NotImplementedError
