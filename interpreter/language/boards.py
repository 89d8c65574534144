"""Board topologies: cells, names, neighbours, distance, straight lines and line of sight.

A board turns cell names (`d5`) into small integers and answers geometric questions about
them; the engine and the rule files only ever see those integers. Every answer is computed
from tables built once per board, so the built-ins the rule files call are cheap.

- `SquareBoard(width, height)`: columns a, b, c, ... and rows 1, 2, 3, ...; eight
  directions; distance is the number of king steps (Chebyshev).
- `HexBoard(width, height)`: columns a, b, ... and rows 1, 2, ... in "odd-q" offset layout
  (odd columns shifted down half a hex); six directions; hex distance.
"""

from __future__ import annotations

from .errors import GdlError


def column_name(index):
    """0 -> a, 25 -> z, 26 -> aa."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


class Board:
    """What both topologies share: naming, rays, reach, sight and line of sight."""

    kind = "board"
    directions: tuple = ()

    def __init__(self, width, height):
        if not (1 <= width <= 100 and 1 <= height <= 100):
            raise GdlError(f"a board must be 1 to 100 cells on each side, not {width}x{height}")
        self.width = width
        self.height = height
        self.size = width * height
        self.names = [column_name(i % width) + str(i // width + 1) for i in range(self.size)]
        self.by_name = {name: i for i, name in enumerate(self.names)}
        self.all_cells = tuple(range(self.size))
        self.rays = [tuple(self._ray(i, d) for d in self.directions) for i in self.all_cells]
        self.neighbor_table = [tuple(ray[0] for ray in rays if ray) for rays in self.rays]

    def coords(self, cell):
        return cell % self.width, cell // self.width

    def at(self, column, row):
        if 0 <= column < self.width and 0 <= row < self.height:
            return row * self.width + column
        return None

    def parse(self, name):
        """A cell name like 'd5' -> its index, or None when it is not on this board."""
        return self.by_name.get(name.lower())

    def _ray(self, cell, direction):
        cells = []
        while True:
            cell = self.step(cell, direction)
            if cell is None:
                return tuple(cells)
            cells.append(cell)

    def ray_table(self, what, stops):
        """`reach` or `sight` with constant stops, as a table keyed by (cell, steps) and
        filled on first use; its values are tuples, so no caller can change another's."""
        return _RayTable(getattr(self, what), stops)

    def table(self, what):
        """A geometry function as a table filled on first use: `line` and `distance`
        keyed by (from, to), `neighbors` and `orthogonal` by cell. Lists come as tuples,
        so no caller can change another's."""
        if what in ("neighbors", "orthogonal"):
            return [tuple(getattr(self, what)(cell)) for cell in self.all_cells]
        if what == "line":
            return _RayTable(lambda a, b, _: self.line(a, b), None)
        return _Table(self.distance)

    def neighbors(self, cell):
        return list(self.neighbor_table[cell])

    def reach(self, cell, steps, stops):
        """Cells along each straight line from `cell`, up to `steps` away; a line may end on
        a cell of `stops` but never pass it."""
        stops = set(stops)
        steps = max(steps, 0)
        found = []
        for ray in self.rays[cell]:
            for target in ray[:steps]:
                found.append(target)
                if target in stops:
                    break
        return found

    def sight(self, cell, steps, blockers):
        """Cells along each straight line up to `steps` away, stopping before a blocker."""
        blockers = set(blockers)
        steps = max(steps, 0)
        found = []
        for ray in self.rays[cell]:
            for target in ray[:steps]:
                if target in blockers:
                    break
                found.append(target)
        return found

    def line(self, a, b):
        """The cells crossed going from `a` to `b`, `b` included and `a` not. The same cells
        are crossed in both directions (line of sight is symmetric)."""
        if a == b:
            return []
        if a < b:
            return self._line(a, b)
        back = self._line(b, a)
        return back[-2::-1] + [b]

    def clear_line(self, start, end, blockers):
        """True when no cell strictly between `start` and `end` on `line` is a blocker, and
        `end` itself is not one."""
        blockers = set(blockers)
        return not any(cell in blockers for cell in self.line(start, end))

    def row_cells(self, row):
        if not 1 <= row <= self.height:
            return []
        return list(range((row - 1) * self.width, row * self.width))

    def column_cells(self, column):
        if not 1 <= column <= self.width:
            return []
        return list(range(column - 1, self.size, self.width))


class SquareBoard(Board):
    kind = "square"
    directions = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

    def step(self, cell, direction):
        column, row = self.coords(cell)
        return self.at(column + direction[0], row + direction[1])

    def orthogonal(self, cell):
        return [self.rays[cell][d][0] for d in (0, 2, 4, 6) if self.rays[cell][d]]

    def distance(self, a, b):
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        return max(abs(ac - bc), abs(ar - br))

    def _line(self, a, b):
        """Straight along a direction when the two are aligned, otherwise the nearest cells
        to the segment, halves rounded away from zero."""
        (ac, ar), (bc, br) = self.coords(a), self.coords(b)
        steps = max(abs(bc - ac), abs(br - ar))
        cells = []
        for k in range(1, steps + 1):
            column = ac + _round_half_away((bc - ac) * k, steps)
            row = ar + _round_half_away((br - ar) * k, steps)
            cells.append(self.at(column, row))
        return cells


class HexBoard(Board):
    kind = "hex"
    # cube directions (x, z) with y = -x - z
    directions = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

    def cube(self, cell):
        column, row = self.coords(cell)
        x = column
        z = row - (column - (column & 1)) // 2
        return x, z

    def from_cube(self, x, z):
        row = z + (x - (x & 1)) // 2
        return self.at(x, row)

    def step(self, cell, direction):
        x, z = self.cube(cell)
        return self.from_cube(x + direction[0], z + direction[1])

    def orthogonal(self, cell):
        return self.neighbors(cell)

    def distance(self, a, b):
        (ax, az), (bx, bz) = self.cube(a), self.cube(b)
        dx, dz = ax - bx, az - bz
        return max(abs(dx), abs(dz), abs(dx + dz))

    def _line(self, a, b):
        """Cube interpolation rounded to cells; on a tie between two cells the nudge goes
        one way, or the other when the first leaves the board."""
        (ax, az), (bx, bz) = self.cube(a), self.cube(b)
        steps = self.distance(a, b)
        cells = []
        for k in range(1, steps + 1):
            t = k / steps
            x, z = ax + (bx - ax) * t, az + (bz - az) * t
            cell = self.from_cube(*_cube_round(x + 1e-6, z + 2e-6))
            if cell is None:
                cell = self.from_cube(*_cube_round(x - 1e-6, z - 2e-6))
            cells.append(cell)
        return cells


class _RayTable(dict):
    def __init__(self, compute, stops):
        super().__init__()
        self.compute = compute
        self.stops = stops

    def __missing__(self, key):
        value = self[key] = tuple(self.compute(key[0], key[1], self.stops))
        return value


class _Table(dict):
    def __init__(self, compute):
        super().__init__()
        self.compute = compute

    def __missing__(self, key):
        value = self[key] = self.compute(*key)
        return value


def _round_half_away(numerator, denominator):
    """Integer division rounding halves away from zero, the same on every Python."""
    sign = -1 if numerator < 0 else 1
    return sign * ((2 * abs(numerator) + denominator) // (2 * denominator))


def _cube_round(x, z):
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


BOARD_KINDS = {"square": SquareBoard, "hex": HexBoard}
