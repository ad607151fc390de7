/* The reply rows for one lane type; included by _replies.c once per (lane type,
 * instruction set).
 *
 * Before including, define LANE_T (uint32_t when every letter code is below 32,
 * uint64_t below 64: a lane holds a target's set of letters), SIGNED_T (its
 * signed twin), LANES (targets per vector: as many as fill the instruction
 * set's registers, 16 bytes, or 32 with AVX2), NAME(x) (the names for that variant) and
 * TARGET (empty, or a function attribute such as __attribute__((target("avx2")))
 * for a copy the CPU picks at import); define MASTERMIND_ROWS for Mastermind's
 * rows too (they need no letter sets: uint32_t lanes do).
 *
 * The targets come transposed, one row per position (`by_position[p * stride +
 * t]`, a lane each), rows starting on a vector's boundary and readable up to
 * `count` rounded up to LANES; LANES targets are replied to at once, in
 * registers. Codes go to rows first..stop-1 of `out` (a row every `out_stride`
 * bytes, codes of `itemsize` bytes: 1, 2 or 4).
 */

typedef LANE_T NAME(vec) __attribute__((vector_size(LANES * sizeof(LANE_T))));
/* Signed lanes, to compare small counts (SSE2 compares only signed numbers). */
typedef SIGNED_T NAME(counts) __attribute__((vector_size(LANES * sizeof(LANE_T))));
/* The same, read in place from the rows of letters and bits (aligned to a vector). */
typedef LANE_T NAME(row) __attribute__((vector_size(LANES * sizeof(LANE_T)), may_alias));

/* Write `count` codes (lanes) to `row` as codes of `itemsize` bytes: a plain loop,
 * vectorised by the compiler. */
TARGET static inline void NAME(store)(const LANE_T *restrict codes, Py_ssize_t count,
                                      char *restrict row, Py_ssize_t itemsize)
{
    if (itemsize == 1)
        for (Py_ssize_t t = 0; t < count; t++)
            ((uint8_t *)row)[t] = (uint8_t)codes[t];
    else if (itemsize == 2)
        for (Py_ssize_t t = 0; t < count; t++)
            ((uint16_t *)row)[t] = (uint16_t)codes[t];
    else
        for (Py_ssize_t t = 0; t < count; t++)
            ((uint32_t *)row)[t] = (uint32_t)codes[t];
}

/* The Wordle reply code of each guess (see client.games.wordle_reply) to each of
 * `count` targets, their letters also given as bits (`bits`, laid out like
 * by_position).
 *
 * For a guess,
 * green[p] says (per lane) the target has the guess's letter at p, and present
 * has the bits of the letters at the target's non-green positions. The
 * NYT rule, greens first, then yellows left to right while the target has an
 * unmatched copy of the letter, becomes:
 *
 * - a letter that the guess holds once is yellow at a non-green position when
 *   its bit is in present;
 * - a repeated letter L at a non-green position p is yellow when the target's
 *   non-green positions hold more copies of L than the guess's non-green
 *   positions before p (each of which took one).
 */
TARGET static inline __attribute__((always_inline)) void
NAME(rows_of_length)(const uint8_t *restrict guesses, const Py_ssize_t length,
                                     const LANE_T *restrict by_position,
                                     const LANE_T *restrict bits, Py_ssize_t stride,
                                     Py_ssize_t count, Py_ssize_t first, Py_ssize_t stop,
                                     char *restrict out, Py_ssize_t out_stride,
                                     Py_ssize_t itemsize)
{
    typedef NAME(vec) vec;
    typedef NAME(row) row;
    const vec zero = {0}, one = zero + 1, two = zero + 2, three = zero + 3;
    vec green[MAX_WORDLE_LENGTH];
    int repeated[MAX_WORDLE_LENGTH];
    /* A guess's codes for the tile (count <= TILE), as wide as a lane. */
    LANE_T codes[TILE] __attribute__((aligned(VECTOR)));
    for (Py_ssize_t g = first; g < stop; g++) {
        const uint8_t *guess = guesses + g * length;
        for (Py_ssize_t p = 0; p < length; p++) {
            repeated[p] = 0;
            for (Py_ssize_t q = 0; q < length; q++)
                repeated[p] |= q != p && guess[q] == guess[p];
        }
        for (Py_ssize_t t = 0; t < count; t += LANES) {
            vec present = zero;
            for (Py_ssize_t p = 0; p < length; p++) {
                const vec letters = *(const row *)(by_position + p * stride + t);
                green[p] = (vec)(letters == zero + guess[p]);
                present |= *(const row *)(bits + p * stride + t) & ~green[p];
            }
            vec code = zero;
            for (Py_ssize_t p = 0; p < length; p++) {
                const LANE_T letter = guess[p];
                vec yellow; /* 1 where the letter is yellow or green, else 0 */
                if (!repeated[p]) {
                    yellow = (present >> letter) & one;
                } else {
                    /* Masks are -1: subtracted, they count. A target's letter L at a
                       place where the guess has another letter is never green; where
                       the guess has L, it is L only when green. */
                    vec copies = zero, taken = zero;
                    for (Py_ssize_t q = 0; q < length; q++) {
                        if (guess[q] != letter)
                            copies -= (vec)(*(const row *)(by_position + q * stride + t) ==
                                            zero + letter);
                        else if (q < p)
                            taken -= ~green[q];
                    }
                    yellow = (vec)((NAME(counts))copies > (NAME(counts))taken) & one;
                }
                code = code * three + ((two & green[p]) | (yellow & ~green[p]));
            }
            *(NAME(row) *)(codes + t) = code;
        }
        NAME(store)(codes, count, out + g * out_stride, itemsize);
    }
}

/* NAME(rows_of_length), compiled for each length the project ships (its loops over
 * positions then unrolled, every vector in a register) and for any other. */
TARGET static void NAME(wordle_rows)(const uint8_t *restrict guesses, Py_ssize_t length,
                                     const LANE_T *restrict by_position,
                                     const LANE_T *restrict bits, Py_ssize_t stride,
                                     Py_ssize_t count, Py_ssize_t first, Py_ssize_t stop,
                                     char *restrict out, Py_ssize_t out_stride,
                                     Py_ssize_t itemsize)
{
#define ROWS(k)                                                                                    \
    NAME(rows_of_length)(guesses, k, by_position, bits, stride, count, first, stop, out,        \
                         out_stride, itemsize)
    switch (length) {
    case 4: ROWS(4); break;
    case 5: ROWS(5); break;
    case 6: ROWS(6); break;
    case 7: ROWS(7); break;
    case 8: ROWS(8); break;
    case 9: ROWS(9); break;
    case 10: ROWS(10); break;
    case 11: ROWS(11); break;
    default: ROWS(length); break;
    }
#undef ROWS
}

#ifdef MASTERMIND_ROWS
/* The Mastermind reply code, black * (length + 1) + white (see
 * client.games.mastermind_reply), of each guess to each of `count` targets.
 *
 * With shared = the sum over colours of min(the guess's count, the target's
 * count), white is shared - black (a black peg of colour c is one of c's
 * shared pegs in both codes), so the code is black * length + shared: per
 * lane, black counts the places that match, and shared takes each of the
 * guess's colours once, against the target's count of it.
 */
TARGET static void NAME(mastermind_rows)(const uint8_t *restrict guesses, Py_ssize_t length,
                                         const LANE_T *restrict by_position, Py_ssize_t stride,
                                         Py_ssize_t count, Py_ssize_t first, Py_ssize_t stop,
                                         char *restrict out, Py_ssize_t out_stride,
                                         Py_ssize_t itemsize)
{
    typedef NAME(vec) vec;
    typedef NAME(row) row;
    const vec zero = {0};
    LANE_T codes[TILE] __attribute__((aligned(VECTOR)));
    uint8_t colours[256];      /* the guess's distinct colours */
    LANE_T times[256] = {0};   /* how often the guess has each colour */
    for (Py_ssize_t g = first; g < stop; g++) {
        const uint8_t *guess = guesses + g * length;
        Py_ssize_t distinct = 0;
        for (Py_ssize_t p = 0; p < length; p++)
            if (times[guess[p]]++ == 0)
                colours[distinct++] = guess[p];
        for (Py_ssize_t t = 0; t < count; t += LANES) {
            vec black = zero, shared = zero; /* masks are -1: subtracted, they count */
            for (Py_ssize_t p = 0; p < length; p++)
                black -= (vec)(*(const row *)(by_position + p * stride + t) == zero + guess[p]);
            for (Py_ssize_t i = 0; i < distinct; i++) {
                const LANE_T colour = colours[i];
                vec have = zero;
                for (Py_ssize_t p = 0; p < length; p++)
                    have -= (vec)(*(const row *)(by_position + p * stride + t) == zero + colour);
                const vec wanted = zero + times[colour];
                const vec fewer = (vec)((NAME(counts))have < (NAME(counts))wanted);
                shared += (have & fewer) | (wanted & ~fewer);
            }
            *(row *)(codes + t) = black * (LANE_T)length + shared;
        }
        for (Py_ssize_t i = 0; i < distinct; i++)
            times[colours[i]] = 0;
        NAME(store)(codes, count, out + g * out_stride, itemsize);
    }
}
#endif
