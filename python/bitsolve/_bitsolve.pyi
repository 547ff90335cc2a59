"""Types of the native module; the package ``bitsolve`` wraps it."""

from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

__version__: str
#: Most worker threads a call may ask for (the command line's --threads limit).
MAX_THREADS: int

Options = List[Tuple[str, Optional[str]]]

class Game:
    name: str
    descriptor: str
    size: int
    start_ranks: List[int]
    goal_ranks: List[int]
    width: Optional[int]
    def __init__(self, name: str, options: Options) -> None: ...
    def options(self) -> Options: ...
    def unrank(
        self, ranks: npt.NDArray[np.uint64], threads: Optional[int] = None
    ) -> npt.NDArray[np.int64]: ...
    def rank(
        self, states: npt.NDArray[np.int64], threads: Optional[int] = None
    ) -> npt.NDArray[np.uint64]: ...
    def successors(self, rank: int) -> npt.NDArray[np.uint64]: ...
    def position_text(self, rank: int) -> str: ...
    def draw(self, rank: int) -> str: ...
    def parse(self, text: str) -> int: ...
    def solve(self, text: str, store: Optional[str], threads: Optional[int]) -> str: ...
    def bfs(
        self,
        algo: str,
        backend: str,
        threads: Optional[int],
        store: Optional[str],
        max_depth: Optional[int],
        inversion: bool,
        progress: bool,
        memory: Optional[str] = None,
    ) -> str: ...

class Database:
    name: str
    store: str
    def __init__(self, name: str, options: Options, store: str) -> None: ...
    def query(self, text: str) -> str: ...
    def values(self, ranks: npt.NDArray[np.uint64], layer: int) -> npt.NDArray[np.uint8]: ...
    def layer_size(self, layer: int) -> int: ...

class TwoPlayer:
    name: str
    layer: int
    max_layer: int
    descriptor: str
    size: int
    sides: Tuple[str, str]
    start: Tuple[int, int]
    def __init__(self, name: str, options: Options, layer: Optional[int] = None) -> None: ...
    def unrank(self, ranks: npt.NDArray[np.uint64]) -> List[str]: ...
    def rank(self, texts: List[str]) -> npt.NDArray[np.uint64]: ...
    def locate(self, text: str) -> Tuple[int, int]: ...
    def moves(self, layer: int, rank: int) -> List[Tuple[str, int, int]]: ...
    def show(self, layer: int, rank: int) -> Tuple[str, str]: ...
    def successors(self, rank: int) -> npt.NDArray[np.uint64]: ...

def games_json() -> str: ...
def permutation_unrank(
    n: int, ranks: npt.NDArray[np.uint64], order: str = ..., threads: Optional[int] = None
) -> npt.NDArray[np.uint8]: ...
def permutation_rank(
    perms: npt.NDArray[np.uint8], order: str = ..., threads: Optional[int] = None
) -> npt.NDArray[np.uint64]: ...
def binomial_unrank(
    n: int, k: int, ranks: npt.NDArray[np.uint64], threads: Optional[int] = None
) -> npt.NDArray[np.uint64]: ...
def binomial_rank(
    n: int, k: int, masks: npt.NDArray[np.uint64], threads: Optional[int] = None
) -> npt.NDArray[np.uint64]: ...
def multinomial_unrank(
    counts: List[int],
    ranks: npt.NDArray[np.uint64],
    order: str = "colour-sets",
    threads: Optional[int] = None,
) -> npt.NDArray[np.uint8]: ...
def multinomial_rank(
    counts: List[int],
    cells: npt.NDArray[np.uint8],
    order: str = "colour-sets",
    threads: Optional[int] = None,
) -> npt.NDArray[np.uint64]: ...
def retro(
    name: str,
    options: Options,
    layers: Optional[Tuple[int, int]],
    store: Optional[str],
    threads: Optional[int],
    checkpoint_every: Optional[int],
    distances: bool,
    progress: bool,
) -> str: ...
def verify(path: str) -> str: ...
