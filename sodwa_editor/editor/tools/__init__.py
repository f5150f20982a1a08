"""Editing tools: each turns pointer gestures into Document calls."""

from .area import AreaTool
from .base import EditorState, Selection, Tool, ToolEvent
from .border import BorderTool
from .brush import BrushTool, EraserTool
from .character import CharacterTool, ObjectTool
from .elevation import ElevationTool
from .fill import FillTool
from .indoor import IndoorTool
from .label import LabelTool
from .line import LineTool
from .rect import RectTool
from .select import SelectTool
from .transition import TransitionTool
from .wand import SelectSameTool, WandTool
from .zone import ZoneTool

#: Tool classes in tool bar order.
TOOL_CLASSES = (SelectTool, WandTool, SelectSameTool, BrushTool, RectTool, LineTool, FillTool,
                EraserTool, BorderTool, ElevationTool, TransitionTool, IndoorTool, ZoneTool,
                CharacterTool, ObjectTool, AreaTool, LabelTool)

__all__ = ["TOOL_CLASSES", "EditorState", "Selection", "Tool", "ToolEvent"]
