"""After the game: win chances, mistakes, better moves and luck for every seat of a
finished match, each number computed from what that seat could see at the time.

``analyse(record, ...)`` (:mod:`.analyse`) walks a match record, asks the game's
``analysis`` module (``core.analysis.AnalysisSupport``) how to play a position out,
and runs one task per decision and chance event (:mod:`.tasks`) in this process, a
local process pool or Ray (:mod:`.runners`). ``skydeck analyse`` is the command line
(:mod:`.commands`); docs/analysis.md says what is measured and how well.
"""

from skydeck.analysis.analyse import AnalysisError, analyse
from skydeck.analysis.support import analysis_for

__all__ = ["AnalysisError", "analyse", "analysis_for"]
