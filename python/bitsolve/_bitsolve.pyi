"""Types of the native module; the package ``bitsolve`` wraps it."""

from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

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
    ) -> str: ...

class Database:
    name: str
    store: str
    def __init__(self, name: str, options: Options, store: str) -> None: ...
    def query(self, text: str) -> str: ...
    def values(self, ranks: npt.NDArray[np.uint64], layer: int) -> npt.NDArray[np.uint8]: ...
    def layer_size(self, layer: int) -> int: ...

def games_json() -> str: ...
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
