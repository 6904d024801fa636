"""Content files (cards, boards, ships) read and validated the same way in every game:
a broken file is refused with a ValueError naming the file, the field and the problem."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def read_data(path: Path) -> Any:
    """Parse a JSON or TOML file (by its suffix)."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".toml":
            return tomllib.loads(text)
        return json.loads(text)
    except (OSError, json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot read content: {exc}") from None


def field_errors(exc: ValidationError) -> str:
    """'field a.b.0: message; field c: message' for every problem pydantic found."""
    return "; ".join(
        f"field {'.'.join(str(p) for p in err['loc']) or '(top level)'}: {err['msg']}"
        for err in exc.errors()
    )


def load_model(path: Path, model: type[M]) -> M:
    """Read ``path`` and validate it as ``model``; ValueError naming file and field."""
    raw = read_data(path)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(f"{path}: {field_errors(exc)}") from None
