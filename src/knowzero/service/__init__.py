"""Customer service: tool registry, demo commerce store, slot filling, triage, handoff.

Importing the package registers the built-in tools (``service/tools.py``) with the registry, the
same way a plugin's tools register (``registry.tool``).
"""

from knowzero.service import tools as _builtin_tools  # noqa: F401 - registers the built-in tools
