"""Board topologies: cells, names, neighbours, distance, straight lines and line of sight.

A board turns cell names (`d5`) into small integers and answers geometric questions about
them; the engine and the rule files only ever see those integers. Every answer is computed
from tables built once per board, so the built-ins the rule files call are cheap.

- `SquareBoard(width, height, directions=8)`: columns a, b, c, ... and rows 1, 2, 3, ...;
  eight directions (distance in king steps) or four (distance in rook steps).
- `HexBoard(width, height)`: columns a, b, ... and rows 1, 2, ... in "odd-q" offset layout
  (odd columns shifted down half a hex); six directions; hex distance.

A board may have holes (`with_holes`): cells of the rectangle that do not exist. They keep
their numbers (so `row` and `column` stay arithmetic) but cannot be named, are in no list of
cells, and stop every ray. Directions are numbered clockwise from north, as the board's
`direction_names` list them.
"""

from __future__ import annotations

import functools

import math
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import GdlError

if TYPE_CHECKING:
    from typing import Self

Vector = tuple[int, int]
"""A step on the board: (columns, rows) on a square board, cube (x, z) on a hex board."""
Cells = tuple[int, ...]


def column_name(index: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


class Board:
    """What both topologies share: naming, rays, reach, sight and line of sight."""

    kind: ClassVar[str] = "board"
    # number of directions -> ((vector, name), ...) clockwise
    DIRECTIONS: ClassVar[dict[int, tuple[tuple[Vector, str], ...]]] = {}

    if TYPE_CHECKING:       # what each topology defines
        def _step(self, cell: int, direction: Vector) -> int | None: ...

        def _line(self, a: int, b: int) -> list[int | None]: ...

        def distance(self, a: int, b: int) -> int: ...

        def orthogonal(self, cell: int) -> list[int]: ...

    def __init__(self, width: int, height: int, directions: int | None = None) -> None:
        if not (1 <= width <= 100 and 1 <= height <= 100):
            raise GdlError(f"a board must be 1 to 100 cells on each side, not {width}x{height}")
        if directions is None:
            directions = max(self.DIRECTIONS)
        if directions not in self.DIRECTIONS:
            counts = " or ".join(map(str, sorted(self.DIRECTIONS)))
            raise GdlError(f"a {self.kind} board has {counts} directions, not {directions}")
        chosen = self.DIRECTIONS[directions]
        self.directions = tuple(vector for vector, _ in chosen)
        self.direction_names = tuple(name for _, name in chosen)
        self.width = width
        self.height = height
        self.size = width * height
        self.names = [column_name(i % width) + str(i // width + 1) for i in range(self.size)]
        self.holes: frozenset[int] = frozenset()
        self._build()

    def with_holes(self, holes: Iterable[int]) -> Self:
        """The same board without the cells of `holes`."""
        self.holes = frozenset(holes)
        self._build()
        return self

    def _build(self) -> None:
        holes = self.holes
        self.by_name = {name: i for i, name in enumerate(self.names) if i not in holes}
        self.all_cells = tuple(i for i in range(self.size) if i not in holes)
        empty = ((),) * len(self.directions)
        self.rays = [empty if i in holes else tuple(self._ray(i, d) for d in self.directions)
                     for i in range(self.size)]
        self.neighbor_table = [tuple(ray[0] for ray in rays if ray) for rays in self.rays]
        self.intersection_cells = tuple(c for c in self.all_cells
                                        if len(self.neighbor_table[c]) >= 3)
        self._directions_between: dict[tuple[int, int], int | None] = {}
        self._within: dict[tuple[int, int], Cells] = {}

    def step(self, cell: int, direction: Vector) -> int | None:
        """The cell one step along a direction vector, None off the board or in a hole."""
        found = self._step(cell, direction)
        return None if found in self.holes else found

    # directions --------------------------------------------------------------------------
    def step_dir(self, cell: int, d: int) -> int | None:
        """One step along direction number `d`: a cell, or None."""
        ray = self.rays[cell][d]
        return ray[0] if ray else None

    def ray(self, cell: int, d: int, steps: int) -> list[int]:
        return list(self.rays[cell][d][:max(steps, 0)])

    def turn(self, d: int, k: int) -> int:
        return (d + k) % len(self.directions)

    def exits(self, cell: int) -> list[int]:
        return [d for d, ray in enumerate(self.rays[cell]) if ray]

    # measuring -----------------------------------------------------------------------------
    def within(self, cell: int, steps: int) -> Cells:
        """Every cell (the centre included) at distance `steps` or less, row by row."""
        key = (cell, steps)
        found = self._within.get(key)
        if found is None:
            if len(self._within) > 50_000:
                self._within.clear()
            found = self._within[key] = tuple(self._within_box(cell, steps))
        return found

    def _within_box(self, cell: int, steps: int) -> Iterator[int]:
        """Cells at distance `steps` or less, looked for only in the square around `cell`
        (a step changes the row and the column by one at most, on every kind of board)."""
        column, row = self.coords(cell)
        holes = self.holes
        for r in range(max(0, row - steps), min(self.height, row + steps + 1)):
            for c in range(max(0, column - steps), min(self.width, column + steps + 1)):
                other = r * self.width + c
                if other not in holes and self.distance(cell, other) <= steps:
                    yield other

    def toward(self, a: int, b: int, steps: int) -> int | None:
        """The cell `steps` along the line from a toward b (b when it is closer)."""
        path = self.line(a, b)
        if steps <= 0:
            return a
        return path[min(steps, len(path)) - 1] if path else a

    def edge_distance(self, cell: int) -> int:
        column, row = self.coords(cell)
        return min(column, row, self.width - 1 - column, self.height - 1 - row)

    def nearest_edge(self, cell: int) -> int | None:
        """The direction (north, east, south or west, as numbered here) of the nearest edge;
        on a tie the first of them clockwise from north."""
        column, row = self.coords(cell)
        gaps = {"north": self.height - 1 - row, "east": self.width - 1 - column,
                "south": row, "west": column}
        best = min(gaps.values())
        name = next(n for n in ("north", "east", "south", "west") if gaps[n] == best)
        return self.direction_names.index(name) if name in self.direction_names else None

    def direction(self, a: int, b: int) -> int | None:
        """The direction along which `b` lies straight from `a`, or None."""
        key = (a, b)
        found = self._directions_between.get(key, -1)      # -1: not worked out yet
        if found == -1:
            found = next((d for d, ray in enumerate(self.rays[a]) if b in ray), None)
            self._directions_between[key] = found
        return found

    def coords(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def at(self, column: int, row: int) -> int | None:
        if 0 <= column < self.width and 0 <= row < self.height:
            return row * self.width + column
        return None

    def parse(self, name: str) -> int | None:
        """A cell name like 'd5' -> its index, or None when it is not on this board."""
        return self.by_name.get(name.lower())

    def _ray(self, cell: int, direction: Vector) -> Cells:
        cells = []
        found = self.step(cell, direction)
        while found is not None:
            cells.append(found)
            found = self.step(found, direction)
        return tuple(cells)


    def ray_table(self, what: str, stops: Iterable[int],
                  steps: int | None = None) -> _Row | _Pairs:
        """`reach` or `sight` with constant stops, as a table filled on first use: keyed
        by cell, then by steps (`table[cell][steps]`), or by cell alone for a constant
        number of `steps`. Its values are tuples, so no caller can change another's."""
        compute = getattr(self, what)
        if steps is None:
            return _Pairs(lambda cell, n: tuple(compute(cell, n, stops)))
        return _Row(lambda cell: tuple(compute(cell, steps, stops)))

    def table(self, what: str) -> list[Any] | _Pairs:
        """A geometry function as a table filled on first use: `line` and `distance`
        keyed by from, then to (`table[a][b]`), `neighbors` and `orthogonal` by cell.
        Lists come as tuples, so no caller can change another's."""
        if what in ("neighbors", "orthogonal"):     # indexed by cell number, holes too
            return [() if cell in self.holes else tuple(getattr(self, what)(cell))
                    for cell in range(self.size)]
        if what == "step":      # [cell][direction] -> the next cell or None
            return [tuple(ray[0] if ray else None for ray in rays) for rays in self.rays]
        if what == "ray":       # [cell][direction] -> the cells along it, as a tuple
            return self.rays
        if what == "line":
            return _Pairs(lambda a, b: tuple(self.line(a, b)))
        return _Pairs(self.distance)

    def neighbors(self, cell: int) -> list[int]:
        return list(self.neighbor_table[cell])

    def reach(self, cell: int, steps: int, stops: Iterable[int]) -> list[int]:
        """Cells along each straight line from `cell`, up to `steps` away; a line may end on
        a cell of `stops` but never pass it."""
        stopping = set(stops)
        steps = max(steps, 0)
        found = []
        for ray in self.rays[cell]:
            for target in ray[:steps]:
                found.append(target)
                if target in stopping:
                    break
        return found

    def sight(self, cell: int, steps: int, blockers: Iterable[int]) -> list[int]:
        """Cells along each straight line up to `steps` away, stopping before a blocker."""
        blocking = set(blockers)
        steps = max(steps, 0)
        found = []
        for ray in self.rays[cell]:
            for target in ray[:steps]:
                if target in blocking:
                    break
                found.append(target)
        return found

    def line(self, a: int, b: int) -> list[int | None]:
        """The cells crossed going from `a` to `b`, `b` included and `a` not. The same cells
        are crossed in both directions (line of sight is symmetric)."""
        if a == b:
            return []
        if a < b:
            cells = self._line(a, b)
        else:
            back = self._line(b, a)
            cells = back[-2::-1] + [b]
        for i, cell in enumerate(cells):      # a hole ends the line, as it ends a ray
            if cell in self.holes:
                return cells[:i]
        return cells

    def clear_line(self, start: int, end: int, blockers: Iterable[int]) -> bool:
        """True when no cell strictly between `start` and `end` on `line` is a blocker or a
        hole, and `end` itself is not one."""
        blocking = set(blockers)
        cells = self.line(start, end)
        reached = start == end or (bool(cells) and cells[-1] == end)   # no hole between
        return reached and not any(cell in blocking for cell in cells)

    def row_cells(self, row: int) -> list[int]:
        if not 1 <= row <= self.height:
            return []
        return [c for c in range((row - 1) * self.width, row * self.width)
                if c not in self.holes]

    def column_cells(self, column: int) -> list[int]:
        if not 1 <= column <= self.width:
            return []
        return [c for c in range(column - 1, self.size, self.width) if c not in self.holes]

    def cell_at(self, column: int, row: int) -> int | None:
        """The cell of a column (a = 1) and a row; None off the board or in a hole."""
        if not (1 <= column <= self.width and 1 <= row <= self.height):
            return None
        cell = (row - 1) * self.width + column - 1
        return None if cell in self.holes else cell


_COMPASS = (((0, 1), "north"), ((1, 1), "north_east"), ((1, 0), "east"),
            ((1, -1), "south_east"), ((0, -1), "south"), ((-1, -1), "south_west"),
            ((-1, 0), "west"), ((-1, 1), "north_west"))


class SquareBoard(Board):
    kind = "square"
    DIRECTIONS = {8: _COMPASS, 4: _COMPASS[::2]}

    def _step(self, cell: int, direction: Vector) -> int | None:
        column, row = self.coords(cell)
        return self.at(column + direction[0], row + direction[1])

    def _ray(self, cell: int, direction: Vector) -> Cells:
        """The cells from `cell` along a direction vector to the edge or the first hole,
        by arithmetic (a board of 48x36 has some 14,000 rays to build)."""
        dx, dy = direction
        column, row = self.coords(cell)
        far = self.width + self.height
        length = min(self.width - 1 - column if dx > 0 else column if dx < 0 else far,
                     self.height - 1 - row if dy > 0 else row if dy < 0 else far)
        if length <= 0:
            return ()
        delta = dy * self.width + dx
        cells = tuple(range(cell + delta, cell + delta * (length + 1), delta))
        if self.holes:
            for i, other in enumerate(cells):
                if other in self.holes:
                    return cells[:i]
        return cells

    def orthogonal(self, cell: int) -> list[int]:
        return [c for c in (self.step(cell, v) for v, _ in _COMPASS[::2]) if c is not None]

    def distance(self, a: int, b: int) -> int:
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        if len(self.directions) == 4:
            return abs(ac - bc) + abs(ar - br)
        return max(abs(ac - bc), abs(ar - br))

    def _line(self, a: int, b: int) -> list[int | None]:
        """Straight along a direction when the two are aligned, otherwise the nearest cells
        to the segment, halves rounded away from zero."""
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        if ac == bc or ar == br or abs(bc - ac) == abs(br - ar):     # along a direction
            delta = (b - a) // max(abs(bc - ac), abs(br - ar))     # (the same cells)
            return list(range(a + delta, b + delta, delta))
        return self._interpolated(a, b)

    def _interpolated(self, a: int, b: int) -> list[int | None]:
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        steps = max(abs(bc - ac), abs(br - ar))
        cells: list[int | None] = []
        for k in range(1, steps + 1):
            column = ac + _round_half_away((bc - ac) * k, steps)
            row = ar + _round_half_away((br - ar) * k, steps)
            cells.append(self.at(column, row))
        return cells


class TableBoard(SquareBoard):
    """A tabletop measured in inches (or any unit): cells are 1x1 squares, named as on a
    square board, and the distance between two is the straight line between their centres,
    rounded up, so `distance(a, b) <= r` exactly when b lies within r of a."""
    kind = "table"
    DIRECTIONS = {8: _COMPASS}

    def distance(self, a: int, b: int) -> int:
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        squared = (ac - bc) ** 2 + (ar - br) ** 2
        root = math.isqrt(squared)
        return root if root * root == squared else root + 1

    def _within_box(self, cell: int, steps: int) -> Iterator[int]:
        """Row by row, the columns whose centre is within `steps` of `cell`'s."""
        column, row = self.coords(cell)
        holes = self.holes
        for r in range(max(0, row - steps), min(self.height, row + steps + 1)):
            room = steps * steps - (r - row) ** 2
            reach = math.isqrt(room)
            for c in range(max(0, column - reach), min(self.width, column + reach + 1)):
                other = r * self.width + c
                if other not in holes:
                    yield other

    def toward(self, a: int, b: int, steps: int) -> int | None:
        """The cell `steps` along the straight line from a toward b, never beyond b: the
        exact point rounded to the nearest cell (halves away from a)."""
        length = self.distance(a, b)
        if steps <= 0:
            return a
        if length == 0 or steps >= length:
            return b
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        squared = (ac - bc) ** 2 + (ar - br) ** 2
        # the exact point: a + (b - a) * steps / sqrt(squared), in integers scaled by 2**20
        scale = 1 << 20
        norm = math.isqrt(squared * scale * scale)
        column = ac + _round_half_away((bc - ac) * steps * scale, norm)
        row = ar + _round_half_away((br - ar) * steps * scale, norm)
        found = self.at(column, row)
        if found in self.holes:             # never a hole: the line's cells, which stop there
            return super().toward(a, b, steps)
        return found


class HexBoard(Board):
    kind = "hex"
    # cube directions (x, z) with y = -x - z; named as the drawing shows them (row 1 on top)
    DIRECTIONS = {6: (((0, -1), "north"), ((1, -1), "north_east"), ((1, 0), "south_east"),
                      ((0, 1), "south"), ((-1, 1), "south_west"), ((-1, 0), "north_west"))}

    def cube(self, cell: int) -> Vector:
        column, row = self.coords(cell)
        x = column
        z = row - (column - (column & 1)) // 2
        return x, z

    def from_cube(self, x: int, z: int) -> int | None:
        row = z + (x - (x & 1)) // 2
        return self.at(x, row)

    def _step(self, cell: int, direction: Vector) -> int | None:
        x, z = self.cube(cell)
        return self.from_cube(x + direction[0], z + direction[1])

    def orthogonal(self, cell: int) -> list[int]:
        return self.neighbors(cell)

    def distance(self, a: int, b: int) -> int:
        (ax, az), (bx, bz) = self.cube(a), self.cube(b)
        dx, dz = ax - bx, az - bz
        return max(abs(dx), abs(dz), abs(dx + dz))

    def _line(self, a: int, b: int) -> list[int | None]:
        """Cube interpolation rounded to cells; on a tie between two cells the nudge goes
        one way, or the other when the first leaves the board."""
        (ax, az), (bx, bz) = self.cube(a), self.cube(b)
        steps = self.distance(a, b)
        cells: list[int | None] = []
        for k in range(1, steps + 1):
            t = k / steps
            x, z = ax + (bx - ax) * t, az + (bz - az) * t
            cell = self.from_cube(*_cube_round(x + 1e-6, z + 2e-6))
            if cell is None:
                cell = self.from_cube(*_cube_round(x - 1e-6, z - 2e-6))
            cells.append(cell)
        return cells


class _Row(dict[Any, Any]):
    """key -> `compute(key)`, computed on first use. A table of two keys is a `_Pairs` of
    rows (`table[a][b]`): two look-ups of one number cost less than one of a pair, which
    is built and hashed (17 and 31 against 50 ns, `timeit`)."""

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.compute(key)
        return value


class _Pairs(dict[Any, _Row]):
    """a -> the `_Row` of `compute(a, b)` by b. The row of `a` is made before `b` is
    computed, so a fault in either comes in the order of `compute(a, b)`'s arguments."""

    def __init__(self, compute: Callable[[Any, Any], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, a: Any) -> _Row:
        value = self[a] = _Row(functools.partial(self.compute, a))
        return value


def _round_half_away(numerator: int, denominator: int) -> int:
    """Integer division rounding halves away from zero, the same on every Python."""
    sign = -1 if numerator < 0 else 1
    return sign * ((2 * abs(numerator) + denominator) // (2 * denominator))


def _cube_round(x: float, z: float) -> Vector:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


BOARD_KINDS: dict[str, type[Board]] = {"square": SquareBoard, "hex": HexBoard,
                                       "table": TableBoard}

