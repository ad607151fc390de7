"""Types of the compiled scan (builder/optimal/_scan.c); see bounds.ScanKernel."""

import numpy as np

#: 1 if distinct replies with codes below 32 are counted eight guesses at a time
#: (AVX2, found at import), else 0.
VECTOR_SETS: int

class Scanner:
    """One search's reply matrix (target-major), bound tables and output arrays."""

    max_code: int

    def __init__(
        self,
        matrix: np.ndarray,
        win: int,
        table: np.ndarray,
        plogp_table: np.ndarray,
        minimax: bool,
        weights: np.ndarray,
        index: np.ndarray,
        bound: np.ndarray,
        closed: np.ndarray,
        squares: np.ndarray,
        plogp: np.ndarray,
        distinct: np.ndarray,
    ) -> None: ...
    def scan(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        max_class: int,
        budget: int,
        stop_at: int,
        caps: np.ndarray,
        /,
    ) -> tuple[int, int]: ...
    def distinct(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        enough: int,
        caps: np.ndarray,
        probe: np.ndarray,
        /,
    ) -> tuple[int, int]: ...
    def classes(
        self,
        guess: int,
        targets: np.ndarray,
        ordered: np.ndarray,
        exact: dict[bytes, tuple[int, int]],
        lower: dict[bytes, int],
        suffix: bytes,
        small_limit: int,
        /,
    ) -> tuple[list[np.ndarray], list[bytes | None], list[int]]: ...
    def adversary(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        rank: np.ndarray,
        limit: int,
        chosen: np.ndarray,
        kept: np.ndarray,
        /,
    ) -> None: ...

def group(
    matrix: np.ndarray,
    guess: int,
    targets: np.ndarray,
    ordered: np.ndarray,
    starts: np.ndarray,
    codes: np.ndarray,
    /,
) -> int: ...
def labels(
    matrix: np.ndarray, guess: int, targets: np.ndarray, win: int, out: np.ndarray, /
) -> int: ...
