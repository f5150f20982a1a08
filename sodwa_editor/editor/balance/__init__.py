"""Balance runs from the editor (issue 13 section 3): Tools > Balance Run (the dialog,
:mod:`.dialog`), the run off the GUI thread (:mod:`.runner`) and the per-tile heat
map over the map (:mod:`.heatmap`).

The dialog takes the document and a runner (the class that plays a batch off the
GUI thread); the heat map takes the document and the scene it draws on.  The
window places them: the action below in the Tools menu, the heat map's controls
in the Layers dock."""

from __future__ import annotations

from ..actions import ActionSpec

#: the balance run's row of the action table
BALANCE_ACTIONS = (
    ActionSpec("balance_run", "&Balance Run...", None,
               "A batch of AI-vs-AI battles on this map: win rates, plots, heat map"),
)
