"""bitsolve: exhaustive game solving over bit tables indexed by perfect hashes.

The Python face of the ``bitsolve`` library (the same calls its command line
makes): the games of its registry, their perfect hashes over numpy arrays,
breadth-first search of one-player games, retrograde analysis of two-player
games, and the solved databases those runs store.

Options are keyword arguments named as the command line's flags, ``-``
written ``_`` (``bitsolve.game("peg-solitaire", board="english")``); a flag
is ``True``. Reports hold what the command's ``--json`` prints. Errors are
``ValueError`` (bad names, options, positions; damaged stores), ``OSError``
(files) and ``MemoryError`` (a table the machine cannot hold), with the
command line's one-line message.

Arrays of ranks, masks, cells and positions may be numpy arrays of any
integer type, or Python ints, whose values fit the type the library reads
(``uint64`` ranks and masks, ``uint8`` cells, ``int64`` positions): a value
out of that range, a float (even a whole one), a bool or anything else
raises ``ValueError`` naming it, never cast. ``threads`` is 1 to 1024, as
the command line's ``--threads``. A result the memory available cannot
hold raises ``MemoryError`` (with the bytes it would need) before any of it
is allocated. A ``store`` is created if missing, with its parent
directories, as the command line's ``--store`` creates it.

>>> import bitsolve, numpy as np
>>> g = bitsolve.game("pancake", n=9)
>>> report = g.bfs()
>>> report.layers          # numpy uint64 array, states per BFS layer
>>> g.unrank(np.arange(5, dtype=np.uint64))   # one row per permutation
"""

from __future__ import annotations

import json
import operator
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _bitsolve

__all__ = [
    "BfsReport",
    "Database",
    "Game",
    "RetroReport",
    "Solution",
    "TwoPlayerGame",
    "VALUE_NAMES",
    "binomial_rank",
    "binomial_unrank",
    "games",
    "multinomial_rank",
    "multinomial_unrank",
    "game",
    "open_database",
    "permutation_rank",
    "permutation_unrank",
    "retro",
    "verify",
]

__version__: str = _bitsolve.__version__

PathLike = Union[str, "os.PathLike[str]"]

#: What :meth:`Database.values` returns, by code.
VALUE_NAMES: Tuple[str, str, str, str] = ("unknown", "first wins", "second wins", "draw")


def _options(options: Dict[str, Any]) -> List[Tuple[str, Optional[str]]]:
    """Keyword arguments as (name, value) pairs for the registry: ``True``
    sets a flag, ``False`` and ``None`` leave an option out, paths and
    numbers become their text."""
    pairs: List[Tuple[str, Optional[str]]] = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        if value is True:
            pairs.append((name, None))
        elif isinstance(value, os.PathLike):
            pairs.append((name, os.fspath(value)))
        else:
            pairs.append((name, str(value)))
    return pairs


def _path(path: Optional[PathLike]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _invalid(message: str) -> ValueError:
    """A ``ValueError`` worded as the library's ``InvalidParameter``."""
    return ValueError(f"invalid parameter: {message}")


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _integer(value: Any, refusal: str) -> int:
    """``value`` as a Python int: an int or numpy integer, never a float or
    a bool cast to one (``ValueError`` otherwise: ``refusal``, then what
    was given)."""
    if _is_bool(value):
        raise _invalid(f"{refusal}, got the boolean {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise _invalid(f"{refusal}, got {value!r}") from None


def _whole(value: Any, what: str, low: int = 0, high: int = 2**64 - 1) -> int:
    """``value`` as a Python int in ``low .. high`` (``ValueError``
    otherwise, naming ``what`` and the value)."""
    number = _integer(value, f"{what} must be a whole number")
    if not low <= number <= high:
        raise _invalid(f"{what} {number} is out of range ({low}..{high})")
    return number


def _threads(threads: Any) -> Optional[int]:
    """A ``threads`` argument checked as the command line checks
    ``--threads`` (at least 1, at most ``MAX_THREADS``, the same messages);
    ``None`` for all cores."""
    if threads is None:
        return None
    count = _integer(threads, "--threads takes a whole number")
    if count < 1:
        raise _invalid("--threads must be at least 1")
    if count > _bitsolve.MAX_THREADS:
        raise _invalid(f"--threads {count} is more than the {_bitsolve.MAX_THREADS} a run may use")
    return count


def _where(index: Tuple[int, ...]) -> str:
    return str(int(index[0])) if len(index) == 1 else str(tuple(int(i) for i in index))


def _integers(values: Any, dtype: Any, what: str) -> np.ndarray:
    """``values`` as a C-contiguous array of integer type ``dtype``, never
    cast silently: an integer array of any type whose values fit, or Python
    ints; a value out of ``dtype``'s range, a float (even a whole one), a
    bool or anything else that is no integer raises ``ValueError`` naming
    it and its index."""
    target = np.dtype(dtype)
    info = np.iinfo(target)
    if isinstance(values, (np.ndarray, np.generic)) or hasattr(values, "__array__"):
        array = np.asarray(values)
    else:
        # Python numbers: as objects, so that no int is made a float (numpy
        # reads [-1, 2**63] as float64) and no bool an int ([1, True]).
        if not hasattr(values, "__len__") and hasattr(values, "__iter__"):
            values = list(values)
        try:
            array = np.array(values, dtype=object)
        except ValueError as error:
            raise _invalid(f"{what}: {error}") from None
    if array.size == 0:
        return np.zeros(array.shape, dtype=target)
    kind = array.dtype.kind
    if kind in "iu":
        if np.can_cast(array.dtype, target, casting="safe"):
            # Every value of the type fits: nothing to look at (a large
            # uint64 array of ranks is passed on without being read here).
            return np.ascontiguousarray(array, dtype=target)
        low, high = int(array.min()), int(array.max())
        if low < info.min or high > info.max:
            value, at = (low, array.argmin()) if low < info.min else (high, array.argmax())
            raise _invalid(
                f"{what}: value {value} (at index {_where(np.unravel_index(at, array.shape))}) "
                f"is out of range for {target} ({info.min}..{info.max})"
            )
        return np.ascontiguousarray(array, dtype=target)
    if kind == "O":
        numbers = []
        for index, value in zip(np.ndindex(array.shape), array.flat):
            if _is_bool(value) or not isinstance(value, (int, np.integer)):
                raise _invalid(f"{what}: {value!r} (at index {_where(index)}) is not an integer")
            if not info.min <= value <= info.max:
                raise _invalid(
                    f"{what}: value {int(value)} (at index {_where(index)}) "
                    f"is out of range for {target} ({info.min}..{info.max})"
                )
            numbers.append(int(value))
        return np.array(numbers, dtype=target).reshape(array.shape)
    if kind == "b":
        raise _invalid(f"{what} must be integers, got an array of booleans")
    raise _invalid(
        f"{what} must be integers, got an array of {array.dtype} (first value {array.flat[0]!r}); "
        "convert it explicitly (e.g. with .astype) if that is meant"
    )


def games() -> List[Dict[str, Any]]:
    """The games this build knows: a list of dicts with ``name``, ``summary``,
    ``kind`` (``one-player``, ``two-player`` or ``positional``) and
    ``options`` (each ``name``, ``value``, ``default``, ``help``), the list
    ``bitsolve games --json`` prints."""
    return json.loads(_bitsolve.games_json())


class BfsReport:
    """What a breadth-first search found: the keys of ``bitsolve bfs --json``.

    ``layers`` is a numpy ``uint64`` array of the states in each layer (``None``
    for ``algo="reach"``, which has no layers); every key of the JSON object is
    also an attribute (``total``, ``max_depth``, ``goal_distance``,
    ``deepest``, ``seconds``, ...); :meth:`to_dict` gives the object itself.
    """

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data
        layers = data.get("layers")
        self.layers: Optional[np.ndarray] = (
            None if layers is None else np.asarray(layers, dtype=np.uint64)
        )

    def __getattr__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise AttributeError(key) from None

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``bitsolve bfs --json`` prints it."""
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        return (
            f"BfsReport(game={self._data['game']!r}, total={self._data['total']}, "
            f"max_depth={self._data['max_depth']}, seconds={self._data['seconds']:.3f})"
        )


class RetroReport:
    """What a retrograde analysis solved: the keys of ``bitsolve retro --json``.

    ``layers`` is a list of dicts, one per layer solved (``layer``, ``states``,
    ``won_for_<side>``, ``draws``, ``passes``, ``seconds``, ...); ``game``,
    ``sides`` and ``bits_per_position`` are attributes too; :meth:`to_dict`
    gives the object itself.
    """

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data
        self.layers: List[Dict[str, Any]] = data["layers"]

    def __getattr__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise AttributeError(key) from None

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``bitsolve retro --json`` prints it."""
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        return f"RetroReport(game={self._data['game']!r}, layers={len(self.layers)})"


class Solution:
    """An optimal move sequence (see :meth:`Game.solve`): the keys of
    ``bitsolve solve --json``. ``length`` is the number of moves, ``moves``
    their names and ``positions`` the position text after each; ``target``
    says whether it leads to the goal or the start; :meth:`to_dict` gives the
    object itself."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data
        self.length: int = data["length"]
        self.moves: List[str] = [step["move"] for step in data["moves"]]
        self.positions: List[str] = [step["position"] for step in data["moves"]]

    def __getattr__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise AttributeError(key) from None

    def to_dict(self) -> Dict[str, Any]:
        """The solution as ``bitsolve solve --json`` prints it."""
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        return f"Solution(length={self.length}, moves={self.moves!r})"


class Game:
    """A one-player game of the registry (see :func:`game`): its state space
    under a perfect, invertible hash.

    ``size`` is the number of ranks; ``rank``/``unrank`` convert between a
    1-D ``uint64`` array of ranks and a 2-D ``int64`` array of positions, one
    row each, ``width`` numbers a row: the numbers of the position's text
    (the permutation of a permutation game, 1-based for Pancake with a minus
    sign for a burned side up; the tiles of the sliding-tile puzzle, 0 the
    blank; the corners then the twists of the pocket cube), or for a board its
    cells in text order, 0 empty, 1 a peg (Peg Solitaire) or a black piece
    (Frogs-and-Toads), 2 a white piece.
    """

    def __init__(self, name: str, **options: Any) -> None:
        self._game = _bitsolve.Game(name, _options(options))

    @property
    def name(self) -> str:
        """The game's registry name (``pancake``)."""
        return self._game.name

    @property
    def descriptor(self) -> str:
        """The game and its parameters, as reports name it (``pancake n=9``)."""
        return self._game.descriptor

    @property
    def size(self) -> int:
        """The number of ranks: positions are ranked ``0 .. size - 1``."""
        return self._game.size

    @property
    def width(self) -> Optional[int]:
        """Numbers per position row of :meth:`unrank` (``None``: no array form)."""
        return self._game.width

    @property
    def start_ranks(self) -> List[int]:
        """The ranks a search starts from (layer 0)."""
        return list(self._game.start_ranks)

    @property
    def goal_ranks(self) -> List[int]:
        """The goal positions whose distance a search reports, if any."""
        return list(self._game.goal_ranks)

    @property
    def options(self) -> Dict[str, Any]:
        """The options the game was opened with, defaults filled in (a flag
        that is set is ``True``)."""
        return {
            name.replace("-", "_"): True if value is None else value
            for name, value in self._game.options()
        }

    def unrank(self, ranks: Iterable[int], threads: Optional[int] = None) -> np.ndarray:
        """The positions of ``ranks`` (a 1-D array of ``uint64``) as a 2-D
        ``int64`` array, one row each (see the class's description), computed
        in Rust on ``threads`` cores (all when ``None``). Raises ``ValueError``
        for a rank that is not below :attr:`size`."""
        return self._game.unrank(_ranks(ranks), _threads(threads))

    def rank(self, states: Any, threads: Optional[int] = None) -> np.ndarray:
        """The ranks (a 1-D ``uint64`` array) of ``states``, a 2-D array of
        positions, one row each as :meth:`unrank` gives them; a single row
        may be given as a 1-D array. Raises ``ValueError`` naming the first
        row that is no position of the game."""
        array = _integers(states, np.int64, "positions")
        if array.ndim == 1:
            array = array.reshape(1, -1)
        return self._game.rank(np.ascontiguousarray(array), _threads(threads))

    def successors(self, rank: int) -> np.ndarray:
        """The ranks one move from ``rank``, sorted, each once (``uint64``)."""
        return self._game.successors(_whole(rank, "rank"))

    def position_text(self, rank: int) -> str:
        """The position of ``rank`` in the one-line text form :meth:`parse` reads
        and ``bitsolve show --position`` takes."""
        return self._game.position_text(_whole(rank, "rank"))

    def draw(self, rank: int) -> str:
        """The position of ``rank`` drawn for a terminal, as ``bitsolve show``."""
        return self._game.draw(_whole(rank, "rank"))

    def parse(self, text: str) -> int:
        """The rank of the position written ``text`` (the game's text form);
        ``ValueError`` with the command line's message if it is none."""
        return self._game.parse(text)

    def bfs(
        self,
        algo: str = "two-bit",
        backend: str = "cpu",
        threads: Optional[int] = None,
        store: Optional[PathLike] = None,
        max_depth: Optional[int] = None,
        inversion: bool = False,
        progress: bool = False,
        memory: Optional[Union[int, str]] = None,
    ) -> BfsReport:
        """Breadth-first search of the whole space, as ``bitsolve bfs``.

        ``algo``: ``"two-bit"`` (layer sizes), ``"one-bit"`` (needs a
        move-alternation property) or ``"reach"`` (reachable count only);
        ``backend``: ``"cpu"`` or ``"gpu"``; ``threads``: worker threads (all
        cores when ``None``); ``store``: a directory for a memory-mapped table
        that a rerun resumes; ``max_depth``: stop after that layer;
        ``inversion``: Peg Solitaire's meet-in-the-middle with one-bit BFS;
        ``progress``: a progress bar on stderr when it is a terminal;
        ``memory``: keep the two-bit table on disk in ``store`` with at most
        this much of it in memory (bytes, or text such as ``"512M"``). The GIL
        is released while the search runs; Ctrl-C stops it within a chunk of
        work and raises ``KeyboardInterrupt``, leaving a ``store`` sealed as
        far as it got for the same call to resume. Returns a :class:`BfsReport`.
        """
        text = self._game.bfs(
            algo,
            backend,
            _threads(threads),
            _path(store),
            max_depth,
            inversion,
            progress,
            None if memory is None else str(memory),
        )
        return BfsReport(json.loads(text))

    def solve(
        self,
        position: Union[str, int],
        store: Optional[PathLike] = None,
        threads: Optional[int] = None,
    ) -> Solution:
        """An optimal move sequence from ``position`` (text, or a rank) to the
        goal (or the start), as ``bitsolve solve``: a table of depths mod 3
        is built first (all reachable states, 2 bits each), or read from
        ``store`` where an earlier solve kept it. Returns a :class:`Solution`.
        """
        if not isinstance(position, str):
            position = self.position_text(_whole(position, "position"))
        return Solution(json.loads(self._game.solve(position, _path(store), _threads(threads))))

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"bitsolve.game({self.name!r}{options})  # {self.descriptor}, {self.size} ranks"


class TwoPlayerGame:
    """One layer of a two-player game's tables (see :func:`game`): the
    positions ``retro`` solves together, ranked ``0 .. size - 1`` as its
    value tables index them (Fox-and-Geese: the positions with ``layer``
    geese, both sides to move; Dodgem: those with ``layer`` cars).
    Positions are the text ``bitsolve query --position`` and ``play`` take
    (``"gggggg..........F................:fox"``, ``"B../B../.RR:blue"``).
    With ``symmetry=True`` every rank is still a position, but only the
    representatives hold values in a store.
    """

    def __init__(self, name: str, layer: Optional[int] = None, **options: Any) -> None:
        self._game = _bitsolve.TwoPlayer(name, _options(options), layer)

    @property
    def name(self) -> str:
        """The game's registry name (``fox-geese``)."""
        return self._game.name

    @property
    def layer(self) -> int:
        """The layer whose positions the ranks number."""
        return self._game.layer

    @property
    def max_layer(self) -> int:
        """The top layer (layers run ``0 .. max_layer``)."""
        return self._game.max_layer

    @property
    def descriptor(self) -> str:
        """The layer's table, as stores name it (``fox-geese g=5``)."""
        return self._game.descriptor

    @property
    def size(self) -> int:
        """The number of ranks of the layer (:meth:`Database.layer_size`)."""
        return self._game.size

    @property
    def sides(self) -> Tuple[str, str]:
        """The first and second player's names (``("fox", "geese")``)."""
        return tuple(self._game.sides)

    @property
    def start(self) -> Optional[Tuple[int, int]]:
        """The (layer, rank) of the position ``play`` starts from; ``None``
        where the tables do not hold the game's start (Lasker Morris, whose
        opening is not solved)."""
        start = self._game.start
        return None if start is None else tuple(start)

    def unrank(self, ranks: Iterable[int]) -> List[str]:
        """The position texts of ``ranks`` (a 1-D array of ``uint64``) of this
        layer; ``ValueError`` for a rank not below :attr:`size`."""
        return self._game.unrank(_ranks(ranks))

    def rank(self, positions: Union[str, Iterable[str]]) -> np.ndarray:
        """The ranks (``uint64``) of position texts in this layer;
        ``ValueError`` naming the first that is no position or lies in
        another layer (see :meth:`locate`)."""
        texts = [positions] if isinstance(positions, str) else list(positions)
        return self._game.rank(texts)

    def parse(self, text: str) -> int:
        """The rank of position ``text`` in this layer."""
        return int(self.rank(text)[0])

    def locate(self, text: str) -> Tuple[int, int]:
        """The (layer, rank) of position ``text``, in whichever layer it lies."""
        return tuple(self._game.locate(text))

    def position_text(self, rank: int, layer: Optional[int] = None) -> str:
        """The position of ``rank`` (of ``layer``, this one by default) as text."""
        return self._game.show(self._layer(layer), _whole(rank, "rank"))[0]

    def draw(self, rank: int, layer: Optional[int] = None) -> str:
        """The position of ``rank`` drawn for a terminal, the side to move included."""
        return self._game.show(self._layer(layer), _whole(rank, "rank"))[1]

    def moves(self, rank: int, layer: Optional[int] = None) -> List[Tuple[str, int, int]]:
        """Each move from ``rank`` (of ``layer``): its name as ``query``
        prints it (``"a2-b2"``), and the (layer, rank) it leads to."""
        return self._game.moves(self._layer(layer), _whole(rank, "rank"))

    def successors(self, rank: int) -> np.ndarray:
        """The positions one move from ``rank`` of this layer as a ``uint64``
        array of rows (layer, rank), sorted, each once: a capture leads to
        the layer below."""
        return self._game.successors(_whole(rank, "rank"))

    def _layer(self, layer: Any) -> int:
        return self.layer if layer is None else _whole(layer, "layer")

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"bitsolve.game({self.name!r}, layer={self.layer})  # {self.descriptor}, {self.size} ranks"


def game(name: str, **options: Any) -> Union[Game, TwoPlayerGame]:
    """Opens game ``name`` of the registry with its options as keyword
    arguments (``bitsolve.game("pancake", n=11)``,
    ``bitsolve.game("sliding-tile", width=3, height=3)``,
    ``bitsolve.game("peg-solitaire", board="french", start_hole="c3")``;
    ``board=`` takes a path or a built-in name). A bad name, option or value raises ``ValueError`` with
    the command line's message. A two-player game gives a
    :class:`TwoPlayerGame` over one layer: ``layer=`` (Fox-and-Geese also
    ``geese=``; by default the start position's layer),
    ``bitsolve.game("fox-geese", geese=5)``, ``bitsolve.game("dodgem", n=3)``;
    it is solved with :func:`retro` and read with :func:`open_database`.
    See :func:`games` for the list."""
    kinds = {entry["name"]: entry["kind"] for entry in games()}
    if kinds.get(name) == "two-player":
        layer = options.pop("layer", None)
        if name == "fox-geese" and "geese" in options:
            layer = options.pop("geese")
        return TwoPlayerGame(name, None if layer is None else _whole(layer, "layer"), **options)
    return Game(name, **options)


def _ranks(ranks: Any, what: str = "ranks") -> np.ndarray:
    """Ranks (or masks) as a 1-D ``uint64`` array, checked by :func:`_integers`."""
    return _integers(ranks, np.uint64, what).reshape(-1)


def _rows(rows: Any, what: str) -> np.ndarray:
    """Rows of ``uint8`` cells (one row may be 1-D), checked by :func:`_integers`."""
    array = _integers(rows, np.uint8, what)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    return np.ascontiguousarray(array)


def _counts(counts: Sequence[int]) -> List[int]:
    return [_whole(c, "a colour's count", 0, 255) for c in counts]


def permutation_unrank(
    n: int, ranks: Any, order: str = "prefix-lehmer", threads: Optional[int] = 1
) -> np.ndarray:
    """The permutations of ``0 .. n-1`` with ``ranks`` (``0 .. n! - 1``) as a
    ``(len(ranks), n)`` ``uint8`` array, straight from the library's hash.
    ``order``: ``"prefix-lehmer"`` (the order Pancake ranks its stacks in:
    ``game("pancake", n=n).unrank(r) == permutation_unrank(n, r) + 1``),
    ``"myrvold-ruskey"`` or ``"lex"``; ``threads``: cores (one by default;
    ``None`` for all)."""
    return _bitsolve.permutation_unrank(_whole(n, "n"), _ranks(ranks), order, _threads(threads))


def permutation_rank(perms: Any, order: str = "prefix-lehmer", threads: Optional[int] = 1) -> np.ndarray:
    """The ranks (``uint64``) of permutation rows of ``0 .. n-1`` (a 2-D
    array, or one row) in ``order`` (see :func:`permutation_unrank`);
    ``ValueError`` naming the first row that is no permutation."""
    return _bitsolve.permutation_rank(_rows(perms, "permutations"), order, _threads(threads))


def binomial_unrank(n: int, k: int, ranks: Any, threads: Optional[int] = 1) -> np.ndarray:
    """The ``k``-subsets of ``n`` cells (``n`` at most 64) with ``ranks``
    (``0 .. C(n, k) - 1``) as ``uint64`` masks, bit ``i`` for cell ``i`` (the
    hash of board games' occupancy)."""
    return _bitsolve.binomial_unrank(_whole(n, "n"), _whole(k, "k"), _ranks(ranks), _threads(threads))


def binomial_rank(n: int, k: int, masks: Any, threads: Optional[int] = 1) -> np.ndarray:
    """The ranks of ``k``-subset masks of ``n`` cells (see
    :func:`binomial_unrank`); ``ValueError`` naming the first mask that has
    not ``k`` ones below bit ``n``."""
    return _bitsolve.binomial_rank(
        _whole(n, "n"), _whole(k, "k"), _ranks(masks, "masks"), _threads(threads)
    )


def multinomial_unrank(
    counts: Sequence[int], ranks: Any, order: str = "colour-sets", threads: Optional[int] = 1
) -> np.ndarray:
    """The cell vectors with ``counts[c]`` cells of colour ``c`` with ``ranks``
    (``0 .. multinomial - 1``) as a ``(len(ranks), sum(counts))`` ``uint8``
    array of colours.

    ``order``: ``"colour-sets"`` (the order the games rank in: nested sets,
    level ``j`` the cells of colour above ``j`` among those of colour ``j`` or
    more, the first level most significant; a positional game's boards are
    its three colours empty, white, black) or ``"paper"`` (Algorithm 10 of
    Edelkamp et al., 2009)."""
    return _bitsolve.multinomial_unrank(_counts(counts), _ranks(ranks), order, _threads(threads))


def multinomial_rank(
    counts: Sequence[int], cells: Any, order: str = "colour-sets", threads: Optional[int] = 1
) -> np.ndarray:
    """The ranks of cell vectors (rows of colours) with ``counts[c]`` cells of
    colour ``c`` in ``order`` (see :func:`multinomial_unrank`); ``ValueError``
    naming the first row with other counts."""
    return _bitsolve.multinomial_rank(_counts(counts), _rows(cells, "cells"), order, _threads(threads))


def _layers(layers: Any) -> Optional[Tuple[int, int]]:
    if layers is None:
        return None
    if isinstance(layers, (int, np.integer)) and not _is_bool(layers):
        layer = _whole(layers, "layer")
        return (layer, layer)
    if isinstance(layers, str):
        first, _, last = layers.partition("..")
        last = last.lstrip("=") or first
        try:
            return (int(first), int(last))
        except ValueError:
            raise ValueError(
                f"invalid parameter: '{layers}' is not a range of layers like 27..31"
            ) from None
    first, last = layers
    return (_whole(first, "layer"), _whole(last, "layer"))


def retro(
    name: str,
    layers: Union[None, int, str, Sequence[int]] = None,
    store: Optional[PathLike] = None,
    threads: Optional[int] = None,
    distances: bool = False,
    checkpoint_every: Optional[int] = None,
    progress: bool = False,
    **options: Any,
) -> RetroReport:
    """Two-bit retrograde analysis of two-player game ``name``, as
    ``bitsolve retro`` on the CPU: ``bitsolve.retro("fox-geese", layers=(1, 8),
    store="db", capture_wins=False, symmetry=False)``.

    ``layers``: ``(A, B)`` both included (or ``"A..B"``, or one layer);
    ``None`` takes the game's default (Dodgem: all its layers);
    ``store``: a directory that keeps each solved layer (skipped on a rerun,
    an interrupted one resumed); ``distances``: also keep each position's
    distance to the end (needs ``store``); ``checkpoint_every``: seconds
    between records of a layer's progress; the game's options (``capture_wins``,
    ``symmetry``, ``size`` ...) as keyword arguments. The GIL is released
    while it runs; Ctrl-C stops it within a chunk of work and raises
    ``KeyboardInterrupt``, leaving a ``store`` for the same call to resume.
    Returns a :class:`RetroReport`.
    """
    text = _bitsolve.retro(
        name,
        _options(options),
        _layers(layers),
        _path(store),
        _threads(threads),
        checkpoint_every,
        distances,
        progress,
    )
    return RetroReport(json.loads(text))


class Database:
    """A store of solved layers of a two-player game (see
    :func:`open_database`); each layer file is opened and checked once, on
    first use, and kept open."""

    def __init__(self, name: str, store: PathLike, **options: Any) -> None:
        self._database = _bitsolve.Database(name, _options(options), os.fspath(store))

    @property
    def name(self) -> str:
        return self._database.name

    @property
    def store(self) -> str:
        return os.fspath(self._database.store)

    def query(self, position: str) -> Dict[str, Any]:
        """What ``bitsolve query --position POSITION --json`` prints: a dict
        with ``position``, ``to_move``, ``value``, ``distance`` (plies, where
        the store keeps distances) and ``moves`` (each ``move``, ``value``,
        ``distance``). A position whose layer the store lacks raises
        ``ValueError`` naming the ``retro`` run that would add it."""
        return json.loads(self._database.query(position))

    def values(self, ranks: Iterable[int], layer: int) -> np.ndarray:
        """The stored values of ``ranks`` (a 1-D ``uint64`` array) in layer
        ``layer`` as a ``uint8`` array: 0 unknown, 1 the first player (Fox,
        blue) wins, 2 the second wins, 3 draw (:data:`VALUE_NAMES`). With
        ``symmetry=True`` only the stored representatives hold values. Reads
        a layer stored as one file (not the shares of an MPI job)."""
        return self._database.values(_ranks(ranks), _whole(layer, "layer"))

    def layer_size(self, layer: int) -> int:
        """The number of ranks of ``layer``."""
        return self._database.layer_size(_whole(layer, "layer"))

    def __repr__(self) -> str:
        return f"bitsolve.open_database({self.name!r}, store={self.store!r})"


def open_database(name: str, store: PathLike, **options: Any) -> Database:
    """The solved database of two-player game ``name`` in ``store`` (the
    directory ``retro(..., store=...)`` or ``bitsolve retro --store`` wrote),
    opened with the game's options as the solving run used them
    (``capture_wins=True``, ``symmetry=True``). See :class:`Database`."""
    return Database(name, store, **options)


def verify(path: PathLike) -> Dict[str, Any]:
    """Checks a store's table files (or one ``.bst`` file) against their
    checksums: the dict ``bitsolve verify PATH --json`` prints (``path``,
    ``intact``, and per file its ``status`` and problems). A damaged store
    is a report with ``intact`` false; a path holding no table raises."""
    return json.loads(_bitsolve.verify(os.fspath(path)))
