"""Types of the compiled greedy kernels (builder/_partitions.c); see builder.partitions."""

import numpy as np

def fill_terms(total: int, metric: int, arithmetic: int, terms: np.ndarray, /) -> None: ...
def metric_of_counts(
    counts: np.ndarray,
    order: np.ndarray,
    n_codes: int,
    metric: int,
    arithmetic: int,
    terms: np.ndarray,
    sizes: np.ndarray,
    bound: float = ...,
    /,
) -> float: ...
def count_replies(
    matrix: np.ndarray, guess: int, targets: np.ndarray, counts: np.ndarray, order: np.ndarray, /
) -> int: ...
def metric_of_masses(
    mass: np.ndarray, order: np.ndarray, n_codes: int, metric: int, total: float, win: int, /
) -> float: ...
def weigh_replies(
    matrix: np.ndarray,
    target_major: bool,
    guess: int,
    targets: np.ndarray,
    weights: np.ndarray,
    counts: np.ndarray,
    order: np.ndarray,
    mass: np.ndarray,
    /,
) -> int: ...
def metric_values(
    matrix: np.ndarray,
    target_major: bool,
    candidates: np.ndarray,
    targets: np.ndarray,
    metric: int,
    arithmetic: int,
    reply_space: int,
    weights: np.ndarray,
    win: int,
    values: np.ndarray,
    /,
) -> None: ...
def position_entropies(
    letters: np.ndarray, consistent: np.ndarray, table: np.ndarray, /
) -> None: ...
def retried_candidates(
    letters: np.ndarray,
    candidates: np.ndarray,
    consistent: np.ndarray,
    retry_percent: float,
    chosen: np.ndarray,
    /,
) -> int: ...
def retry_count(n_candidates: int, retry_percent: float, /) -> int: ...
def considers_every_guess(size: int, hard: bool, window_low: int, window_high: int, /) -> bool: ...
def grow(
    matrix: np.ndarray,
    target_to_guess: np.ndarray,
    metric: int,
    arithmetic: int,
    hard: bool,
    window_low: int,
    window_high: int,
    randoms: np.ndarray,
    win_reply: int,
    n_guesses: int,
    perm: np.ndarray,
    scratch: np.ndarray,
    counts: np.ndarray,
    order: np.ndarray,
    fill: np.ndarray,
    sizes: np.ndarray,
    terms: np.ndarray,
    node_guess: np.ndarray,
    node_size: np.ndarray,
    node_depth: np.ndarray,
    node_start: np.ndarray,
    edge_offsets: np.ndarray,
    edge_reply: np.ndarray,
    edge_child: np.ndarray,
    target_scores: np.ndarray,
    state: np.ndarray,
    work_budget: int,
    nyt: bool,
    nyt_letters: np.ndarray,
    nyt_states: np.ndarray,
    letters: np.ndarray,
    retry_percent: float,
    weights: np.ndarray,
    mass: np.ndarray,
    /,
) -> None: ...
