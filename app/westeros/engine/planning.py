"""Planning phase (4). Placeholder until the planning module lands."""

import dataclasses

from .flow import Step
from .state import State


@dataclasses.dataclass(frozen=True, slots=True)
class PlanningPhase(Step):
    """Placeholder."""

    def run(self, state: State) -> None:
        return None
