/* The scan's loops for one type of reply code; included once per type by _scan.c.
 *
 * Before including, define CODE_T (the matrix's element type) and NAME(x) (the
 * function names for that type). Every loop reads the target-major matrix
 * through row pointers, one per target of the set (rows[j][g] is the reply
 * to guess g of target targets[j]), so consecutive guesses read neighbouring
 * bytes of the same few rows: the cache lines a set needs are fetched once per
 * 64 guesses, whatever the set's size. Candidates and targets are checked
 * against the matrix's bounds as they are read; a bad index stops the loop and
 * is reported (the caller raises), never read.
 */

/* Point rows[j] at target targets[j]'s row; return -1 if one is out of range. */
static int NAME(point_rows)(Scanner *s, const int64_t *targets, Py_ssize_t n)
{
    const CODE_T *base = (const CODE_T *)s->matrix.buf;
    for (Py_ssize_t j = 0; j < n; j++) {
        if ((uint64_t)targets[j] >= (uint64_t)s->n_targets)
            return -1;
        s->rows[j] = (const char *)(base + targets[j] * s->n_guesses);
    }
    return 0;
}

/* See Scanner.scan. Returns 0, or -1 if a candidate is out of range. */
static int NAME(scan)(Scanner *s, const int64_t *cand, Py_ssize_t nc, Py_ssize_t n,
                      int64_t max_class, int64_t budget, int64_t stop_at, const int64_t *caps,
                      int64_t *kept_out, int64_t *excluded_out)
{
    const CODE_T *const *rows = (const CODE_T *const *)s->rows;
    int64_t *counts = s->counts, *touched = s->touched;
    int64_t *mass = s->mass, *heaviest = s->heaviest, *lightest = s->lightest;
    const int64_t *table = (const int64_t *)s->table.buf;
    const double *plogp_table = (const double *)s->plogp_table.buf;
    const int64_t *weights = (const int64_t *)s->weights.buf;
    const int weighted = length_of(&s->weights) > 0;
    int64_t *out_index = (int64_t *)s->index.buf, *out_bound = (int64_t *)s->bound.buf;
    int8_t *out_closed = (int8_t *)s->closed.buf;
    int64_t *out_squares = (int64_t *)s->squares.buf;
    double *out_plogp = (double *)s->plogp.buf;
    int32_t *out_distinct = (int32_t *)s->distinct.buf;
    const int64_t win = s->win, guesses = s->n_guesses;
    int64_t node_mass = 0, kept = 0, excluded = INFEASIBLE;
    if (weighted)
        for (Py_ssize_t j = 0; j < n; j++)
            node_mass += weights[s->targets[j]];
    for (Py_ssize_t i = 0; i < nc; i++) {
        const int64_t guess = cand[i];
        if ((uint64_t)guess >= (uint64_t)guesses)
            return -1;
        if (caps != NULL) {
            /* A total-objective bound is at least 3n - (distinct replies + win), so a
               guess whose cap puts that at or past both the budget and the least
               bound excluded so far can neither be kept nor lower that least: it is
               not read (its count stays capped). */
            const int64_t floor = 3 * (int64_t)n - caps[guess];
            if (floor >= budget && floor >= excluded) {
                out_distinct[i] = caps[guess] < INT32_MAX ? (int32_t)caps[guess] : INT32_MAX;
                continue;
            }
        }
        Py_ssize_t k = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            const int64_t code = rows[j][guess];
            if (counts[code] == 0) {
                touched[k++] = code;
                if (weighted) {
                    mass[code] = 0;
                    heaviest[code] = 0;
                    lightest[code] = INFEASIBLE;
                }
            }
            counts[code]++;
            if (weighted) {
                const int64_t w = weights[s->targets[j]];
                mass[code] += w;
                if (w > heaviest[code])
                    heaviest[code] = w;
                if (w < lightest[code])
                    lightest[code] = w;
            }
        }
        int green = 0, closed = 1;
        int64_t parts = 0, worst = 0, bound = 0, squares = 0;
        double plogp = 0.0;
        for (Py_ssize_t c = 0; c < k; c++) {
            const int64_t code = touched[c], m = counts[code];
            counts[code] = 0;
            squares += m * m;
            plogp += plogp_table[m];
            if (code == win) {
                green = 1;
                continue;
            }
            parts++;
            if (m > worst)
                worst = m;
            if (m > 2)
                closed = 0;
            if (s->minimax) {
                if (table[m] > bound)
                    bound = table[m];
            } else if (weighted) {
                bound += weighted_class_bound(mass[code], heaviest[code], lightest[code], m,
                                              table[m]);
            } else {
                bound += table[m];
            }
        }
        bound += s->minimax ? 1 : weighted ? node_mass : (int64_t)n;
        if (parts == 1 && !green) {
            out_distinct[i] = 0; /* does not split */
            continue;
        }
        out_distinct[i] = (int32_t)(parts + (green ? 2 : 0));
        if (worst > max_class)
            continue;
        if (bound >= budget) {
            if (bound < excluded) {
                excluded = bound;
                if (excluded <= stop_at) {
                    /* No guess can do better: the least bound is found. The rest
                       were not counted: no cap on their distinct replies. */
                    for (Py_ssize_t rest = i + 1; rest < nc; rest++)
                        out_distinct[rest] = INT32_MAX;
                    break;
                }
            }
            continue;
        }
        out_index[kept] = i;
        out_bound[kept] = bound;
        out_closed[kept] = (int8_t)closed;
        out_squares[kept] = squares;
        out_plogp[kept] = plogp;
        kept++;
    }
    *kept_out = kept;
    *excluded_out = excluded;
    return 0;
}

/* See Scanner.distinct, continuing from a count `best` already found (0 at the
 * start; `which` holds its guess). Returns the count (and in `which` the first
 * guess with it, -1 if none), or -1 if a guess is out of range. */
static int64_t NAME(distinct)(Scanner *s, const int64_t *cand, Py_ssize_t nc, Py_ssize_t n,
                              int64_t enough, const int64_t *caps, const int64_t *probe,
                              Py_ssize_t n_probe, int64_t best, int64_t *which)
{
    const CODE_T *const *rows = (const CODE_T *const *)s->rows;
    const int64_t guesses = s->n_guesses;
    const int win_word = (int)(s->win >> 6);
    const uint64_t win_bit = (uint64_t)1 << (s->win & 63);
    for (Py_ssize_t i = 0; i < n_probe + nc; i++) {
        const int64_t guess = i < n_probe ? probe[i] : cand[i - n_probe];
        if ((uint64_t)guess >= (uint64_t)guesses)
            return -1;
        if (caps != NULL && caps[guess] <= best)
            continue; /* cannot count more than the best found */
        uint64_t bits[4] = {0, 0, 0, 0};
        int64_t k = 0;
        Py_ssize_t j = 0;
        while (j < n) {
            /* A block of targets, then a check: with k codes so far and n - j
               targets left, the count can reach at most k + (n - j) + 1 (the win
               counts twice). A guess that cannot beat the best is dropped there:
               most guesses collide early and are read only in part. */
            const Py_ssize_t end = j + 16 < n ? j + 16 : n;
            for (; j < end; j++) {
                const unsigned code = (unsigned)rows[j][guess];
                bits[code >> 6] |= (uint64_t)1 << (code & 63);
            }
            k = __builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]) +
                __builtin_popcountll(bits[2]) + __builtin_popcountll(bits[3]);
            if (k + (n - j) + 1 <= best)
                break;
        }
        if (j < n)
            continue; /* cannot count more than the best found */
        const int64_t won = (bits[win_word] & win_bit) != 0;
        if (k == 1 && !won)
            continue; /* does not split */
        if (k + won > best) {
            best = k + won;
            *which = guess;
            if (best >= enough)
                break;
        }
    }
    return best;
}

/* See group(): a counting sort of the set by reply code. The targets are in
 * range and their codes below `size`; `place` has size + 1 entries. Returns
 * the number of groups. */
static Py_ssize_t NAME(group)(const CODE_T *matrix, Py_ssize_t n_guesses, int64_t guess,
                              const int64_t *targets, Py_ssize_t n, int64_t size, int64_t *place,
                              int64_t *ordered, int64_t *starts, int64_t *codes)
{
    memset(place, 0, (size_t)(size + 1) * sizeof(int64_t));
    for (Py_ssize_t j = 0; j < n; j++)
        place[matrix[targets[j] * n_guesses + guess] + 1]++;
    Py_ssize_t groups = 0;
    for (int64_t c = 0; c < size; c++) {
        if (place[c + 1] > 0) {
            starts[groups] = place[c];
            codes[groups] = c;
            groups++;
        }
        place[c + 1] += place[c];
    }
    starts[groups] = n;
    for (Py_ssize_t j = 0; j < n; j++)
        ordered[place[matrix[targets[j] * n_guesses + guess]]++] = targets[j];
    return groups;
}

/* See labels(): classes labelled by first appearance, the win as 255. The
 * targets are in range and their codes below `size`; `label_of` has `size`
 * entries. Returns the number of classes. */
static Py_ssize_t NAME(labels)(const CODE_T *matrix, Py_ssize_t n_guesses, int64_t guess,
                               const int64_t *targets, Py_ssize_t n, int64_t size, int64_t win,
                               int64_t *label_of, int32_t *labels)
{
    for (int64_t c = 0; c < size; c++)
        label_of[c] = -1;
    Py_ssize_t count = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        const int64_t code = matrix[targets[j] * n_guesses + guess];
        if (label_of[code] < 0)
            label_of[code] = count++;
        labels[j] = code == win ? 255 : (int32_t)label_of[code];
    }
    return count;
}

/* See Scanner.adversary. Returns 0, or -1 if a candidate is out of range. */
static int NAME(adversary)(Scanner *s, const int64_t *cand, Py_ssize_t nc, Py_ssize_t n,
                           const int64_t *rank, int64_t limit, int64_t *chosen, int64_t *kept)
{
    const CODE_T *const *rows = (const CODE_T *const *)s->rows;
    int64_t *counts = s->counts, *touched = s->touched;
    for (Py_ssize_t i = 0; i < nc; i++) {
        const int64_t guess = cand[i];
        if ((uint64_t)guess >= (uint64_t)s->n_guesses)
            return -1;
        Py_ssize_t k = 0, j = 0;
        int over = 0;
        for (; j < n && !over; j++) {
            const int64_t code = rows[j][guess];
            if (counts[code]++ == 0)
                touched[k++] = code;
            over = counts[code] > limit; /* the rest cannot bring it back under */
        }
        /* The largest class; of equal ones, the least rank. Counts go back to zero. */
        int64_t best = -1, most = 0;
        for (Py_ssize_t c = 0; c < k; c++) {
            const int64_t code = touched[c], m = counts[code];
            if (m > most || (m == most && rank[code] < rank[best])) {
                best = code;
                most = m;
            }
            counts[code] = 0;
        }
        chosen[i] = over ? -1 : best;
        kept[i] = over ? limit + 1 : most;
    }
    return 0;
}
