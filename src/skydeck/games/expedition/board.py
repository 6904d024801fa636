"""The modular map: a hexagonal grid of cells around the Space gate.

Cells are numbered 0..N-1 so the engine stores the map as one list; each cell has axial
coordinates (q, r) for the UIs. The map's edge is the grid radius from the rules data
(see RULINGS.md: tiles cannot be placed beyond it).
"""

from __future__ import annotations

from functools import lru_cache

#: Axial directions, clockwise from "east"; starting tiles use these indices.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Grid:
    """Cells of a hexagon of the given radius, with neighbour lists."""

    def __init__(self, radius: int) -> None:
        self.radius = radius
        coords = [
            (q, r)
            for q in range(-radius, radius + 1)
            for r in range(-radius, radius + 1)
            if abs(q + r) <= radius
        ]
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.index = {c: i for i, c in enumerate(coords)}
        self.gate = self.index[(0, 0)]
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.index[(q + dq, r + dr)]
                for dq, dr in DIRECTIONS
                if (q + dq, r + dr) in self.index
            )
            for q, r in coords
        )

    @property
    def size(self) -> int:
        return len(self.coords)

    def toward(self, direction: int) -> int:
        """The gate's neighbour in one direction (where a Starting tile goes)."""
        dq, dr = DIRECTIONS[direction]
        return self.index[(dq, dr)]


@lru_cache(maxsize=8)
def grid(radius: int) -> Grid:
    return Grid(radius)
