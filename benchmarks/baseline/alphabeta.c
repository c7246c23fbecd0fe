/*
 * A plain alpha-beta solver of the 2-player Durak endgame: a fixed reference
 * for benchmarks/bench_baseline.py (issue 13), written apart from the
 * project's solver and sharing none of its code or ideas beyond the rules.
 *
 * Game: two players, the pile empty, every card known, the default rules of
 * docs/rules.md (podkidnoy, no transfer, bout cap 6): R8 lead one card or
 * several of one rank (F4: at most the limit), R9 throw-ins of a table rank,
 * R10 limit min(6, defender's hand when the bout began), R11 cover with a
 * higher card of the suit or a trump, or take, R13/P4 throw-ins after a take,
 * P3 pass, R15-R18 end of bout, R19-R20 end of game.
 *
 * Search: negamax alpha-beta over the values +1 win, 0 draw, -1 loss for the
 * side to move; one move is one card (a multi-card lead is one move); moves
 * in a fixed order (cards low to high, trumps last; covers before take,
 * throw-ins before pass); a transposition table keyed by the raw state (both
 * hands and the table), always-replace, cleared before every position.  No
 * canonical keys, no move ordering, no pruning but alpha-beta.
 *
 * R23 (endless play is a draw) cannot arise here, so the search has neither
 * a repetition check nor a depth cap: without transfer no state repeats.
 * Within a bout every move but take and pass puts a card on the table; take
 * happens once and pass ends the bout.  Between two successful defences the
 * same player leads (R18) and his hand only shrinks (he leads at least one
 * card each bout and never picks up), and each success discards cards for
 * good.  So (discards, leader's hand) decreases strictly from bout to bout.
 *
 * Input, one position a line:  TRUMP HAND0 HAND1 ATTACKER
 *   TRUMP 0..3 (S H D C), HAND0/HAND1 hexadecimal card masks with bit
 *   suit*13 + rank-2 per card (the project's layout, solver/game/cards.py),
 *   ATTACKER 0 or 1: the seat to lead.
 * Output, one line a position:  VALUE NODES SECONDS
 *   VALUE win/draw/loss for the attacker (the side to move), or "timeout".
 * Usage: alphabeta [MAX_SECONDS [TT_BITS]]   (defaults 60 and 20)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t Mask;

typedef struct {
    Mask hand[2];
    Mask att;     /* attack cards on the table */
    Mask open;    /* attack cards not covered yet (subset of att) */
    Mask cov;     /* cover cards on the table */
    int attacker; /* main attacker of the bout; the other seat defends */
    int take;     /* the defender has said "take" (P4) */
    int limit;    /* R10: attack cards this bout may hold (F6: fixed at the lead) */
} State;

typedef struct {  /* a table entry: the full raw state and a bound */
    Mask h0, h1, att, open, cov;
    int32_t meta; /* attacker | take << 1 | limit << 2; -1 = empty slot */
    int8_t value;
    int8_t bound; /* EXACT, LOWER (the value is at least `value`), UPPER (at most) */
} Entry;
enum { EXACT, LOWER, UPPER };

static int trump;
static int order[52], n_order;   /* the deck's cards, low to high, trumps last */
static Mask suit_mask[4], rank_mask[13];
static Entry *table;
static int tt_bits;
static uint64_t nodes;
static double deadline;
static int timed_out;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int popcount(Mask m) { return __builtin_popcountll(m); }
static Mask bit(int c) { return (Mask)1 << c; }

/* R2: the cards of `hand` that beat `card`. */
static Mask beaters(int card, Mask hand) {
    int s = card / 13;
    Mask higher = suit_mask[s] & ~((bit(card) << 1) - 1);
    if (s != trump) higher |= suit_mask[trump];
    return hand & higher;
}

/* R9: every card of a rank that lies on the table. */
static Mask table_ranks(const State *s) {
    Mask t = s->att | s->cov, m = 0;
    for (int r = 0; r < 13; r++)
        if (t & rank_mask[r]) m |= rank_mask[r];
    return m;
}

/* P3/P4, F2: cards the attacker may add now. */
static Mask throwable(const State *s) {
    if (popcount(s->att) >= s->limit) return 0;
    return s->hand[s->attacker] & table_ranks(s);
}

static int to_move(const State *s) {
    if (s->att && !s->take && s->open) return 1 - s->attacker; /* P2 */
    return s->attacker;                                          /* lead, P3, P4 */
}

/* R15-R20: end the bout; returns 2 if play goes on, else the outcome for seat 0. */
static int end_bout(State *s) {
    int d = 1 - s->attacker;
    if (s->take) s->hand[d] |= s->att | s->cov;  /* R16; R18: the attacker leads again */
    else s->attacker = d;                        /* R15; R18: the defender leads */
    s->att = s->open = s->cov = 0;
    s->take = 0;
    s->limit = 0;
    if (s->hand[0] && s->hand[1]) return 2;
    if (!s->hand[0] && !s->hand[1]) return 0;    /* R20: nobody holds cards: a draw */
    return s->hand[0] ? -1 : 1;                  /* R20: the one holding cards is the durak */
}

/* After a move (F2): the attacker is asked only if he can add a card. */
static int settle(State *s) {
    if (!s->take && s->open) return 2;
    if (throwable(s)) return 2;
    return end_bout(s);
}

static int search(const State *s, int alpha, int beta);

/* The value of `child` for `me`, who moved into it; `over` is settle()'s answer. */
static int child_value(const State *child, int over, int me, int alpha, int beta) {
    if (over != 2) return me == 0 ? over : -over;
    if (to_move(child) == me) return search(child, alpha, beta);
    return -search(child, -beta, -alpha);
}

static Entry *slot(const State *s) {
    uint64_t h = s->hand[0] * 0x9E3779B97F4A7C15ull ^ s->hand[1] * 0xC2B2AE3D27D4EB4Full
               ^ s->att * 0x165667B19E3779F9ull ^ s->open * 0xD6E8FEB86659FD93ull
               ^ s->cov * 0xFF51AFD7ED558CCDull ^ (uint64_t)(s->attacker | s->take << 1 | s->limit << 2);
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    return &table[h >> (64 - tt_bits)];
}

static int same(const Entry *e, const State *s) {
    return e->meta == (s->attacker | s->take << 1 | s->limit << 2) && e->h0 == s->hand[0]
        && e->h1 == s->hand[1] && e->att == s->att && e->open == s->open && e->cov == s->cov;
}

/* Negamax: the value of `s` for the side to move, exact within (alpha, beta). */
static int search(const State *s, int alpha, int beta) {
    if ((++nodes & 0xFFFF) == 0 && now() > deadline) timed_out = 1;
    if (timed_out) return 0;
    Entry *e = slot(s);
    if (same(e, s)) {
        if (e->bound == EXACT) return e->value;
        if (e->bound == LOWER && e->value >= beta) return e->value;
        if (e->bound == UPPER && e->value <= alpha) return e->value;
    }
    int alpha0 = alpha, best = -2, me = to_move(s), v;
    Mask hand = s->hand[me];
    State c;
#define TRY(expr) do { v = (expr); if (v > best) best = v; if (v > alpha) alpha = v; \
                       if (alpha >= beta) goto done; } while (0)
    if (!s->att) {
        /* P1, R8: lead one card, then (F4) every group of one rank up to the limit. */
        int limit = popcount(s->hand[1 - me]);
        if (limit > 6) limit = 6;
        for (int i = 0; i < n_order; i++) {
            int card = order[i];
            if (!(hand & bit(card))) continue;
            c = *s;
            c.hand[me] &= ~bit(card);
            c.att = c.open = bit(card);
            c.limit = limit;
            TRY(child_value(&c, settle(&c), me, alpha, beta));
        }
        for (int r = 0; r < 13; r++) {
            Mask same_rank = hand & rank_mask[r];
            for (Mask g = same_rank; g; g = (g - 1) & same_rank) {  /* every subset */
                if (popcount(g) < 2 || popcount(g) > limit) continue;
                c = *s;
                c.hand[me] &= ~g;
                c.att = c.open = g;
                c.limit = limit;
                TRY(child_value(&c, settle(&c), me, alpha, beta));
            }
        }
    } else if (me != s->attacker) {
        /* P2, R11: cover one open card with a beating card, or take. */
        for (int i = 0; i < n_order; i++) {
            int a = order[i];
            if (!(s->open & bit(a))) continue;
            Mask b = beaters(a, hand);
            for (int j = 0; j < n_order; j++) {
                int card = order[j];
                if (!(b & bit(card))) continue;
                c = *s;
                c.hand[me] &= ~bit(card);
                c.cov |= bit(card);
                c.open &= ~bit(a);
                TRY(child_value(&c, settle(&c), me, alpha, beta));
            }
        }
        c = *s;
        c.take = 1;
        TRY(child_value(&c, settle(&c), me, alpha, beta));
    } else {
        /* P3/P4, R9, R13: throw in one card of a table rank, or pass. */
        Mask t = throwable(s);
        for (int i = 0; i < n_order; i++) {
            int card = order[i];
            if (!(t & bit(card))) continue;
            c = *s;
            c.hand[me] &= ~bit(card);
            c.att |= bit(card);
            if (!c.take) c.open |= bit(card);
            TRY(child_value(&c, settle(&c), me, alpha, beta));
        }
        c = *s;
        TRY(child_value(&c, end_bout(&c), me, alpha, beta));
    }
done:
    if (timed_out) return 0;
    e->h0 = s->hand[0]; e->h1 = s->hand[1];
    e->att = s->att; e->open = s->open; e->cov = s->cov;
    e->meta = s->attacker | s->take << 1 | s->limit << 2;
    e->value = (int8_t)best;
    e->bound = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
    return best;
}

int main(int argc, char **argv) {
    double max_time = argc > 1 ? atof(argv[1]) : 60.0;
    tt_bits = argc > 2 ? atoi(argv[2]) : 20;
    table = malloc(sizeof(Entry) << tt_bits);
    if (!table) { fprintf(stderr, "alphabeta: out of memory\n"); return 1; }
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        State s = {0};
        if (sscanf(line, "%d %" SCNx64 " %" SCNx64 " %d", &trump, &s.hand[0], &s.hand[1],
                   &s.attacker) != 4) {
            fprintf(stderr, "alphabeta: bad line: %s", line);
            return 2;
        }
        memset(suit_mask, 0, sizeof suit_mask);
        memset(rank_mask, 0, sizeof rank_mask);
        for (int c = 0; c < 52; c++) {
            suit_mask[c / 13] |= bit(c);
            rank_mask[c % 13] |= bit(c);
        }
        n_order = 0;  /* non-trumps by rank (suits S H D C within a rank), then trumps */
        for (int t = 0; t < 2; t++)
            for (int r = 0; r < 13; r++)
                for (int su = 0; su < 4; su++)
                    if ((su == trump) == t) order[n_order++] = su * 13 + r;
        for (size_t i = 0; i < (size_t)1 << tt_bits; i++) table[i].meta = -1;
        nodes = 0;
        timed_out = 0;
        double t0 = now();
        deadline = t0 + max_time;
        int v = search(&s, -1, 1);
        double dt = now() - t0;
        printf("%s %" PRIu64 " %.6f\n",
               timed_out ? "timeout" : v > 0 ? "win" : v < 0 ? "loss" : "draw", nodes, dt);
        fflush(stdout);
    }
    free(table);
    return 0;
}
