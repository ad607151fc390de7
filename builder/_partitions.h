/* The greedy metrics' arithmetic and approx_entropy's estimate, in plain C.
 *
 * builder/partitions.py documents what these compute; builder/_partitions.c
 * wraps them for Python and grows whole greedy trees with them. Each float is
 * computed with the seeds' operations in the seeds' order (the trees break
 * near-ties by these exact floats), so nothing here may be reassociated: the
 * module is built without -ffast-math and with -ffp-contract=off (no fused
 * multiply-adds). No checks here: the wrappers check every index first.
 */
#ifndef GUESSWORK_PARTITIONS_H
#define GUESSWORK_PARTITIONS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* builder/metrics.py's codes. */
#define METRIC_MAX 0
#define METRIC_EXPECTATION 1
#define METRIC_NEG_ENTROPY 2
#define METRIC_ENTROPY 3
#define METRIC_RANDOM 4
#define METRIC_APPROX_ENTROPY 5
#define SEED_2022 0
#define SEED_2020 1

/* partitions.WIN_TIE: the weighted metrics' tie-break weight. */
#define WIN_TIE 1e-9

/* Fill terms[x] (x = 1..total) with one branch's share of the metric, P computed
 * as the seed did: x / total (2022) or (1 / total) * x (2020). */
static void fill_terms(int64_t total, int metric, int arithmetic, double *terms)
{
    const double scale = 1.0 / (double)total;
    for (int64_t x = 1; x <= total; x++) {
        const double p = arithmetic == SEED_2022 ? (double)x / (double)total : scale * (double)x;
        if (metric == METRIC_EXPECTATION)
            terms[x] = p * (double)x;
        else if (arithmetic == SEED_2022)
            terms[x] = p * log2(p);
        else
            terms[x] = p * (log(p) / log(2.0));
    }
}

/* Sort values[:n] ascending. Insertion sort for the few dozen sizes typical here;
 * long words give thousands of replies at a large node, where its n^2 would
 * dominate, so longer runs are quicksorted (integers: any sort gives the same). */
static void sort_sizes(int64_t *values, int64_t n)
{
    while (n > 64) {
        /* Quicksort: partition around the median of three, recurse into the smaller
           side, loop on the larger (stack depth at most log2 n). */
        const int64_t a = values[0], b = values[n / 2], c = values[n - 1];
        const int64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int64_t i = 0, j = n - 1;
        for (;;) {
            while (values[i] < pivot)
                i++;
            while (values[j] > pivot)
                j--;
            if (i >= j)
                break;
            const int64_t t = values[i];
            values[i++] = values[j];
            values[j--] = t;
        }
        /* values[:j + 1] <= pivot <= values[j + 1:] */
        if (j + 1 < n - j - 1) {
            sort_sizes(values, j + 1);
            values += j + 1;
            n -= j + 1;
        } else {
            sort_sizes(values + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (int64_t i = 1; i < n; i++) {
        const int64_t item = values[i];
        int64_t j = i - 1;
        while (j >= 0 && values[j] > item) {
            values[j + 1] = values[j];
            j--;
        }
        values[j + 1] = item;
    }
}

/* Return the metric of the branch sizes counts[order[:n_codes]] (partitions.
 * metric_of_counts): terms from fill_terms, sizes scratch of n_codes. A value
 * clearly above bound may be approximate (it cannot win a min). */
static double metric_of_counts(const int64_t *counts, const int64_t *order, int64_t n_codes,
                               int metric, int arithmetic, const double *terms, int64_t *sizes,
                               double bound)
{
    if (metric == METRIC_MAX) {
        int64_t biggest = 0;
        for (int64_t i = 0; i < n_codes; i++)
            if (counts[order[i]] > biggest)
                biggest = counts[order[i]];
        return (double)biggest;
    }
    const double sign = metric == METRIC_ENTROPY ? -1.0 : 1.0;
    /* Summing in first-appearance order is exactly the 2020 seed's arithmetic. */
    double value = 0.0;
    for (int64_t i = 0; i < n_codes; i++)
        value += terms[counts[order[i]]];
    if (arithmetic == SEED_2020)
        return sign * value;
    /* The 2022 seed sums over sorted sizes. Another order differs by a few ulps at
       most, so only a candidate close to the bound needs the sort. */
    if (sign * value > bound + 1e-9 * fabs(bound) + 1e-12)
        return sign * value;
    for (int64_t i = 0; i < n_codes; i++)
        sizes[i] = counts[order[i]];
    sort_sizes(sizes, n_codes);
    value = 0.0;
    for (int64_t i = 0; i < n_codes; i++)
        value += terms[sizes[i]];
    return sign * value;
}

/* Return the weighted metric of the classes order[:n_codes] of weights mass[code]
 * out of total, less WIN_TIE times the winning reply win's share
 * (partitions.metric_of_masses). */
static double metric_of_masses(const double *mass, const int64_t *order, int64_t n_codes,
                               int metric, double total, int64_t win)
{
    double value = 0.0, won = 0.0;
    for (int64_t i = 0; i < n_codes; i++) {
        const int64_t code = order[i];
        const double p = mass[code] / total;
        if (code == win)
            won = p;
        if (metric == METRIC_MAX) {
            if (p > value)
                value = p;
        } else {
            value += metric == METRIC_EXPECTATION ? p * p : p * log2(p);
        }
    }
    if (metric == METRIC_ENTROPY)
        value = -value;
    return value - WIN_TIE * won;
}

/* Whether a node of size targets considers the whole guess list
 * (greedy.considers_every_guess; window_high < 0: no upper bound). */
static inline int considers_every_guess(int64_t size, int hard, int64_t window_low,
                                        int64_t window_high)
{
    return !hard && size >= window_low && (window_high < 0 || size <= window_high);
}

/* How many of n candidates approx_entropy retries (partitions.retry_count):
 * retry_percent percent rounded up, at least one. */
static int64_t retry_count(int64_t n, double retry_percent)
{
    /* The small slack keeps e.g. 3% of 100 at 3 despite binary fractions. */
    const double wanted = ceil((double)n * retry_percent / 100.0 - 1e-9);
    if (wanted < 1.0)
        return 1;
    return wanted < (double)n ? (int64_t)wanted : n;
}

/* One outcome's term -P log2(P) of an entropy, P = part / total. */
static inline double share_entropy(int64_t part, int64_t total)
{
    if (part == 0)
        return 0.0;
    const double p = (double)part / (double)total;
    return -p * log2(p);
}

/* Scratch for position_entropies and retried_candidates, sized by the caller:
 * at and table length x n_letters, holding and last_word n_letters; estimates
 * and spare one per candidate. */
typedef struct {
    int64_t length, n_letters;
    int64_t *at, *holding, *last_word;
    double *table, *estimates, *spare;
} Letters;

/* Fill e->table (length x n_letters) with the seed's H(Y_ci) over the words
 * letters[consistent[:total]] (partitions.position_entropies). */
static void position_entropies(Letters *e, const uint8_t *letters, const int64_t *consistent,
                               int64_t total)
{
    const int64_t length = e->length, n_letters = e->n_letters;
    memset(e->at, 0, (size_t)(length * n_letters) * sizeof(int64_t));
    memset(e->holding, 0, (size_t)n_letters * sizeof(int64_t));
    for (int64_t letter = 0; letter < n_letters; letter++)
        e->last_word[letter] = -1;
    for (int64_t j = 0; j < total; j++) {
        const uint8_t *word = letters + consistent[j] * length;
        for (int64_t i = 0; i < length; i++) {
            const uint8_t letter = word[i];
            e->at[i * n_letters + letter]++;
            if (e->last_word[letter] != j) { /* count each word once per letter */
                e->last_word[letter] = j;
                e->holding[letter]++;
            }
        }
    }
    for (int64_t i = 0; i < length; i++)
        for (int64_t letter = 0; letter < n_letters; letter++) {
            const int64_t green = e->at[i * n_letters + letter], holding = e->holding[letter];
            e->table[i * n_letters + letter] = share_entropy(green, total) +
                                               share_entropy(holding - green, total) +
                                               share_entropy(total - holding, total);
        }
}

/* Return the k-th smallest of values[:n] (0-based), reordering values. */
static double select_kth(double *values, int64_t n, int64_t k)
{
    int64_t low = 0, high = n - 1;
    while (low < high) {
        const double pivot = values[low + (high - low) / 2];
        int64_t i = low, j = high;
        while (i <= j) {
            while (values[i] < pivot)
                i++;
            while (values[j] > pivot)
                j--;
            if (i <= j) {
                const double t = values[i];
                values[i++] = values[j];
                values[j--] = t;
            }
        }
        /* values[low:j + 1] <= pivot <= values[i:high + 1], values between equal it */
        if (k <= j)
            high = j;
        else if (k >= i)
            low = i;
        else
            return values[k];
    }
    return values[k];
}

/* Write into chosen the positions in candidates[:n] (ascending) that approx_entropy
 * retries exactly (partitions.retried_candidates), over the targets
 * letters[consistent[:total]]; return how many. */
static int64_t retried_candidates(Letters *e, const uint8_t *letters, const int64_t *candidates,
                                  int64_t n, const int64_t *consistent, int64_t total,
                                  double retry_percent, int64_t *chosen)
{
    position_entropies(e, letters, consistent, total);
    const int64_t length = e->length, n_letters = e->n_letters;
    double *estimates = e->estimates;
    for (int64_t c = 0; c < n; c++) {
        const uint8_t *word = letters + candidates[c] * length;
        double estimate = 0.0;
        for (int64_t i = 0; i < length; i++)
            estimate += e->table[i * n_letters + word[i]];
        estimates[c] = estimate;
    }
    const int64_t keep = retry_count(n, retry_percent);
    if (keep >= n) {
        for (int64_t c = 0; c < n; c++)
            chosen[c] = c;
        return n;
    }
    memcpy(e->spare, estimates, (size_t)n * sizeof(double));
    const double cut = select_kth(e->spare, n, n - keep); /* the keep-th largest estimate */
    int64_t ties = keep;
    for (int64_t c = 0; c < n; c++)
        if (estimates[c] > cut)
            ties--;
    int64_t kept = 0;
    for (int64_t c = 0; c < n; c++)
        if (estimates[c] > cut || (estimates[c] == cut && ties > 0)) {
            if (estimates[c] == cut)
                ties--;
            chosen[kept++] = c;
        }
    return kept;
}

#endif
