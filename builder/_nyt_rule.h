/* NYT hard mode's rule: the one implementation, for every compiled caller.
 *
 * builder/_nyt.c wraps it for Python (builder/nyt_hard.py) and the optimal
 * search; builder/_partitions.c's greedy tree grower calls it directly. The
 * constraint state (see builder/nyt_hard.py): per position the green letter or
 * NYT_FREE/NYT_CONFLICT, then per letter the least count a guess must hold.
 * No checks here: callers pass a word of `length` letter codes below `letters`
 * and a state of `length + letters` entries (at most 256 letters).
 */
#ifndef GUESSWORK_NYT_RULE_H
#define GUESSWORK_NYT_RULE_H

#include <stdint.h>
#include <string.h>

#define NYT_FREE (-1)
#define NYT_CONFLICT (-2)
#define NYT_MISS 0
#define NYT_GREEN 2

/* Return 1 when `word` meets the rule in `state`, else 0. */
static inline int nyt_legal(const uint8_t *word, int64_t length, const int8_t *state,
                            int64_t letters)
{
    for (int64_t p = 0; p < length; p++) {
        const int fixed = state[p];
        if (fixed != NYT_FREE && fixed != word[p])
            return 0;
    }
    int have[256] = {0};
    for (int64_t p = 0; p < length; p++)
        have[word[p]]++;
    for (int64_t letter = 0; letter < letters; letter++)
        if (state[length + letter] > have[letter])
            return 0;
    return 1;
}

/* Write into `out` the state after `guess` got reply `code` (base-3 colours, the
 * first letter most significant) in `state`; `out` may be `state`. */
static inline void nyt_advance(const int8_t *state, const uint8_t *guess, int64_t length,
                               int64_t letters, int64_t code, int8_t *out)
{
    int8_t revealed[256] = {0};
    memmove(out, state, (size_t)(length + letters));
    int64_t rest = code;
    for (int64_t p = length - 1; p >= 0; p--) {
        const int colour = (int)(rest % 3);
        rest /= 3;
        if (colour == NYT_MISS)
            continue;
        const uint8_t letter = guess[p];
        revealed[letter]++;
        if (colour == NYT_GREEN) {
            if (out[p] == NYT_FREE)
                out[p] = (int8_t)letter;
            else if (out[p] != letter)
                out[p] = NYT_CONFLICT;
        }
    }
    for (int64_t letter = 0; letter < letters; letter++)
        if (revealed[letter] > out[length + letter])
            out[length + letter] = revealed[letter];
}

#endif
