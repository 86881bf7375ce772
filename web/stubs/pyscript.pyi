# The browser's globals as PyScript exposes them: JavaScript objects, typed as Any.
from typing import Any

document: Any
window: Any

def __getattr__(name: str) -> Any: ...
