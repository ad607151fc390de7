/* The partition kernels' loops for one type of reply code; included once per
 * type by _partitions.c (as optimal/_scan_loops.h is by _scan.c).
 *
 * Before including, define CODE_T (the matrix's element type) and NAME(x) (the
 * function names for that type). A guess's reply to target t is
 * base[t * stride]: base points at the guess's cell of target 0, stride is 1 in
 * a guess-major matrix (matrix[g, t]) and the row length in a target-major one
 * (matrix[t, g]). Targets and guesses are checked by the callers; a reply code
 * at or past `space` (the scratch arrays' length) stops the count with -1.
 */

/* Count the replies of targets[:n] into counts; list the distinct codes in order
 * (first appearance); return how many, or -1 for a code past space. The caller
 * zeroes counts[order[:k]] afterwards. */
static inline __attribute__((always_inline)) int64_t
NAME(count_replies)(const CODE_T *base, int64_t stride, const int64_t *targets, int64_t n,
                    int64_t space, int64_t *counts, int64_t *order)
{
    int64_t n_codes = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t code = base[targets[i] * stride];
        if (code >= space)
            return -1;
        if (counts[code] == 0)
            order[n_codes++] = code;
        counts[code]++;
    }
    return n_codes;
}

/* count_replies that also adds weights[j] (targets[j]'s) into mass[code]. */
static inline __attribute__((always_inline)) int64_t
NAME(weigh_replies)(const CODE_T *base, int64_t stride, const int64_t *targets, int64_t n,
                    const double *weights, int64_t space, int64_t *counts, int64_t *order,
                    double *mass)
{
    int64_t n_codes = 0;
    for (int64_t j = 0; j < n; j++) {
        const int64_t code = base[targets[j] * stride];
        if (code >= space)
            return -1;
        if (counts[code] == 0)
            order[n_codes++] = code;
        counts[code]++;
        mass[code] += weights[j];
    }
    return n_codes;
}

/* values[c] = the metric of candidates[c]'s partition of targets[:n] (partitions.
 * metric_values), the cell of (g, t) at matrix[g * g_step + t * t_step]; the
 * scratch arrays have space entries (terms n + 1). Returns 0, or -1 for a code
 * past space. */
static inline __attribute__((always_inline)) int
NAME(metric_values_at)(const CODE_T *matrix, int64_t g_step, int64_t t_step,
                       const int64_t *candidates, int64_t nc, const int64_t *targets, int64_t n,
                       int metric, int arithmetic, int64_t space, int64_t *counts,
                       int64_t *order, int64_t *sizes, double *terms, double *values)
{
    fill_terms(n, metric, arithmetic, terms);
    for (int64_t c = 0; c < nc; c++) {
        const int64_t n_codes = NAME(count_replies)(matrix + candidates[c] * g_step, t_step,
                                                    targets, n, space, counts, order);
        if (n_codes < 0)
            return -1;
        values[c] = metric_of_counts(counts, order, n_codes, metric, arithmetic, terms, sizes,
                                     INFINITY);
        for (int64_t i = 0; i < n_codes; i++)
            counts[order[i]] = 0;
    }
    return 0;
}

static int NAME(metric_values)(const CODE_T *matrix, int64_t cols, int target_major,
                               const int64_t *candidates, int64_t nc, const int64_t *targets,
                               int64_t n, int metric, int arithmetic, int64_t space,
                               int64_t *counts, int64_t *order, int64_t *sizes, double *terms,
                               double *values)
{
    /* Two copies of the loop, each with its steps known: the guess-major one reads
       a row with unit stride. */
    if (target_major)
        return NAME(metric_values_at)(matrix, 1, cols, candidates, nc, targets, n, metric,
                                      arithmetic, space, counts, order, sizes, terms, values);
    return NAME(metric_values_at)(matrix, cols, 1, candidates, nc, targets, n, metric,
                                  arithmetic, space, counts, order, sizes, terms, values);
}

/* The weighted metric_values (partitions.metric_of_masses): weights[j] is
 * targets[j]'s; mass zeroed, space entries. Returns 0, or -1 for a bad code. */
static inline __attribute__((always_inline)) int
NAME(weighted_values_at)(const CODE_T *matrix, int64_t g_step, int64_t t_step,
                         const int64_t *candidates, int64_t nc, const int64_t *targets,
                         int64_t n, const double *weights, int metric, int64_t win,
                         int64_t space, int64_t *counts, int64_t *order, double *mass,
                         double *values)
{
    double total = 0.0;
    for (int64_t j = 0; j < n; j++)
        total += weights[j];
    for (int64_t c = 0; c < nc; c++) {
        const int64_t n_codes =
            NAME(weigh_replies)(matrix + candidates[c] * g_step, t_step, targets, n, weights,
                                space, counts, order, mass);
        if (n_codes < 0)
            return -1;
        values[c] = metric_of_masses(mass, order, n_codes, metric, total, win);
        for (int64_t i = 0; i < n_codes; i++) {
            counts[order[i]] = 0;
            mass[order[i]] = 0.0;
        }
    }
    return 0;
}

static int NAME(weighted_values)(const CODE_T *matrix, int64_t cols, int target_major,
                                 const int64_t *candidates, int64_t nc, const int64_t *targets,
                                 int64_t n, const double *weights, int metric, int64_t win,
                                 int64_t space, int64_t *counts, int64_t *order, double *mass,
                                 double *values)
{
    if (target_major)
        return NAME(weighted_values_at)(matrix, 1, cols, candidates, nc, targets, n, weights,
                                        metric, win, space, counts, order, mass, values);
    return NAME(weighted_values_at)(matrix, cols, 1, candidates, nc, targets, n, weights, metric,
                                    win, space, counts, order, mass, values);
}

/* approx_entropy's guess for the node of targets[:size] (as GreedyStep.rank
 * chooses it): the candidates are every guess (everything; under NYT hard mode
 * only the legal ones, state nyt_state) or the node's targets; the exact
 * neg_entropy is computed for those retried_candidates keeps. Writes the
 * guess (-1: no candidate) and adds the work done; returns 0, or -1 for a bad
 * code. */
static int NAME(approx_entropy_guess)(Grow *g, const int64_t *targets, int64_t size,
                                      int everything, const int8_t *nyt_state, int64_t *guess,
                                      int64_t *work)
{
    const CODE_T *matrix = g->matrix;
    int64_t *consistent = g->consistent, *candidates = consistent, n_candidates = size;
    for (int64_t j = 0; j < size; j++)
        consistent[j] = g->target_to_guess[targets[j]];
    if (everything) {
        candidates = g->candidates;
        n_candidates = 0;
        for (int64_t c = 0; c < g->n_guesses; c++)
            if (!g->nyt || nyt_legal(g->nyt_letters + c * g->length, g->length, nyt_state,
                                     g->nyt_letter_count))
                candidates[n_candidates++] = c;
    }
    const int64_t n_retried =
        retried_candidates(&g->estimate, g->letters, candidates, n_candidates, consistent, size,
                           g->retry_percent, g->chosen);
    fill_terms(size, METRIC_NEG_ENTROPY, g->arithmetic, g->terms);
    int64_t best = -1;
    double best_value = INFINITY;
    for (int64_t r = 0; r < n_retried; r++) {
        const int64_t c = candidates[g->chosen[r]];
        const int64_t n_codes = NAME(count_replies)(matrix + c * g->cols, 1, targets, size,
                                                    g->space, g->counts, g->order);
        if (n_codes < 0)
            return -1;
        const double value = metric_of_counts(g->counts, g->order, n_codes, METRIC_NEG_ENTROPY,
                                              g->arithmetic, g->terms, g->sizes, best_value);
        for (int64_t i = 0; i < n_codes; i++)
            g->counts[g->order[i]] = 0;
        if (value < best_value) {
            best_value = value;
            best = c;
        }
    }
    *guess = best;
    *work += n_candidates * g->estimate.length + n_retried * size;
    return 0;
}

/* The best guess by the metric for the node of targets[:size] (the first
 * candidate wins ties): every guess of the list (everything; under NYT hard mode
 * only the legal ones, state nyt_state) or the node's targets. Writes the guess
 * (-1: no candidate) and adds the work; returns 0, or -1 for a bad code. */
static int NAME(metric_guess)(Grow *g, const int64_t *targets, int64_t size, int everything,
                              const int8_t *nyt_state, int64_t *guess, int64_t *work)
{
    const CODE_T *matrix = g->matrix;
    const int weighted = g->n_weights > 0;
    const int64_t n_candidates = everything ? g->n_guesses : size;
    *work += n_candidates * size;
    fill_terms(size, g->metric, g->arithmetic, g->terms);
    double node_mass = 0.0;
    if (weighted)
        for (int64_t j = 0; j < size; j++) {
            g->node_weights[j] = g->weights[targets[j]];
            node_mass += g->node_weights[j];
        }
    int64_t best = -1;
    double best_value = INFINITY;
    for (int64_t c = 0; c < n_candidates; c++) {
        const int64_t candidate = everything ? c : g->target_to_guess[targets[c]];
        if (g->nyt && everything &&
            !nyt_legal(g->nyt_letters + candidate * g->length, g->length, nyt_state,
                       g->nyt_letter_count))
            continue;
        const CODE_T *row = matrix + candidate * g->cols;
        int64_t n_codes;
        double value;
        if (weighted) {
            n_codes = NAME(weigh_replies)(row, 1, targets, size, g->node_weights, g->space,
                                          g->counts, g->order, g->mass);
            if (n_codes < 0)
                return -1;
            value = metric_of_masses(g->mass, g->order, n_codes, g->metric, node_mass, g->win);
        } else {
            n_codes = NAME(count_replies)(row, 1, targets, size, g->space, g->counts, g->order);
            if (n_codes < 0)
                return -1;
            value = metric_of_counts(g->counts, g->order, n_codes, g->metric, g->arithmetic,
                                     g->terms, g->sizes, best_value);
        }
        for (int64_t i = 0; i < n_codes; i++) {
            g->counts[g->order[i]] = 0;
            g->mass[g->order[i]] = 0.0;
        }
        if (value < best_value) {
            best_value = value;
            best = candidate;
        }
    }
    *guess = best;
    return 0;
}

/* Expand nodes breadth-first from state[0] until done or out of budget
 * (greedy_tree.build_greedy_tree describes the arrays). Returns GROW_OK, or a GROW_ error
 * (the wrapper raises) after which the arrays are not to be used. */
static int NAME(grow)(Grow *g)
{
    const CODE_T *matrix = g->matrix;
    int64_t *state = g->state;
    int64_t cursor = state[0], n_nodes = state[1], n_edges = state[2], scored = state[3];
    int64_t work = 0;
    while (cursor < n_nodes && work < g->work_budget) {
        const int64_t node = cursor++;
        const int64_t start = g->node_start[node], size = g->node_size[node];
        const int64_t depth = g->node_depth[node];
        if (start < 0 || size < 1 || size > g->n_targets - start)
            return GROW_BAD_NODE;
        int64_t *targets = g->perm + start;
        g->edge_offsets[node] = n_edges;
        if (size == 1) {
            g->node_guess[node] = g->target_to_guess[targets[0]];
            g->target_scores[targets[0]] = depth;
            scored++;
            continue;
        }
        /* Choose the guess. */
        const int everything =
            considers_every_guess(size, g->hard, g->window_low, g->window_high);
        const int8_t *nyt_state = g->nyt ? g->nyt_states + node * g->nyt_width : NULL;
        int64_t best;
        if (g->metric == METRIC_RANDOM) {
            const double pick = g->randoms[node] * (double)size;
            if (!(pick >= 0.0 && pick < (double)size))
                return GROW_BAD_NODE;
            best = g->target_to_guess[targets[(int64_t)pick]];
        } else {
            const int failed =
                g->metric == METRIC_APPROX_ENTROPY
                    ? NAME(approx_entropy_guess)(g, targets, size, everything, nyt_state, &best,
                                                 &work)
                    : NAME(metric_guess)(g, targets, size, everything, nyt_state, &best, &work);
            if (failed)
                return GROW_BAD_CODE;
            if (best < 0)
                return GROW_NO_GUESS;
        }
        g->node_guess[node] = best;
        /* Partition the slice stably by reply, branches in first-appearance order. */
        const CODE_T *row = matrix + best * g->cols;
        const int64_t n_codes =
            NAME(count_replies)(row, 1, targets, size, g->space, g->counts, g->order);
        if (n_codes < 0)
            return GROW_BAD_CODE;
        if (n_codes == 1 && g->order[0] != g->win) {
            state[4] = GROW_STUCK;
            state[5] = node;
            return GROW_OK;
        }
        int64_t position = start;
        for (int64_t i = 0; i < n_codes; i++) {
            g->fill[g->order[i]] = position;
            position += g->counts[g->order[i]];
        }
        for (int64_t i = 0; i < size; i++) {
            const int64_t target = targets[i];
            g->scratch[g->fill[row[target]]++] = target;
        }
        memcpy(targets, g->scratch + start, (size_t)size * sizeof(int64_t));
        position = start;
        for (int64_t i = 0; i < n_codes; i++) {
            const int64_t code = g->order[i], branch = g->counts[code];
            if (code == g->win) {
                if (branch != 1) {
                    state[4] = GROW_STUCK;
                    state[5] = node;
                    return GROW_OK;
                }
                g->target_scores[g->perm[position]] = depth;
                scored++;
            } else {
                if (n_nodes + 1 >= g->capacity)
                    return GROW_FULL;
                g->node_start[n_nodes] = position;
                g->node_size[n_nodes] = branch;
                g->node_depth[n_nodes] = depth + 1;
                if (g->nyt)
                    nyt_advance(nyt_state, g->nyt_letters + best * g->length, g->length,
                                g->nyt_letter_count, code, g->nyt_states + n_nodes * g->nyt_width);
                g->edge_reply[n_edges] = code;
                g->edge_child[n_edges] = n_nodes;
                n_nodes++;
                n_edges++;
            }
            position += branch;
            g->counts[code] = 0;
        }
    }
    g->edge_offsets[cursor] = n_edges;
    state[0] = cursor;
    state[1] = n_nodes;
    state[2] = n_edges;
    state[3] = scored;
    return GROW_OK;
}
