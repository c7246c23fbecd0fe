# Included by _core.pyx: the C helpers (bit builtins, the clock, the table's
# memory, the signal check), card sets as bitmasks and their lookup tables.
#
# A card set is a uint64_t: bit 13 * suit + rank - 2 is a card (the layout of
# solver.cards), SUIT13 one suit's bits, SPREAD one bit per suit of rank 0.


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_clzll(unsigned long long) nogil
    void __builtin_prefetch(const void*) nogil

cdef extern from *:
    """
    /* Gathering the bits of a mask into the low bits of a word (pext) and
       back (pdep), for the retrograde graph's one-word keys (retrokey.pxi).
       BMI2 does each in one instruction, but only from Zen 3 on is it fast
       on AMD (earlier it is microcoded, slower than a loop), and not every
       x86-64 CPU has it: the instructions are compiled for their own
       functions alone and used only when dk_fast_bmi2() says so.  The
       planes are uint64_t as in the callers: under another type GCC's
       interprocedural alias analysis took the callers' stores for dead. */
    #include <stdint.h>
    #if defined(__x86_64__) && defined(__GNUC__)
    #include <immintrin.h>
    #include <cpuid.h>
    __attribute__((target("bmi2"))) static uint64_t
    dk_gather4_bmi2(const uint64_t* m, uint64_t mask, int n) {
        return _pext_u64(m[0], mask) | (_pext_u64(m[1], mask) << n)
             | (_pext_u64(m[2], mask) << (2 * n)) | (_pext_u64(m[3], mask) << (3 * n));
    }
    __attribute__((target("bmi2"))) static void
    dk_scatter4_bmi2(uint64_t k, uint64_t mask, int n, uint64_t* m) {
        uint64_t low = ((uint64_t)1 << n) - 1;
        m[0] = _pdep_u64(k & low, mask);
        m[1] = _pdep_u64((k >> n) & low, mask);
        m[2] = _pdep_u64((k >> (2 * n)) & low, mask);
        m[3] = _pdep_u64((k >> (3 * n)) & low, mask);
    }
    static int dk_fast_bmi2(void) {
        unsigned a, b, c, d, family;
        if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 8))) return 0;
        if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
        if (b == 0x68747541u) {  /* AuthenticAMD: pext/pdep fast from family 0x19 (Zen 3) */
            __get_cpuid(1, &a, &b, &c, &d);
            family = ((a >> 8) & 0xf) + ((a >> 20) & 0xff);
            if (family < 0x19) return 0;
        }
        return 1;
    }
    #else
    static uint64_t dk_gather4_bmi2(const uint64_t* m, uint64_t mask, int n) { return 0; }
    static void dk_scatter4_bmi2(uint64_t k, uint64_t mask, int n, uint64_t* m) {}
    static int dk_fast_bmi2(void) { return 0; }
    #endif
    """
    uint64_t dk_gather4_bmi2(const uint64_t* m, uint64_t mask, int n) nogil
    void dk_scatter4_bmi2(uint64_t k, uint64_t mask, int n, uint64_t* m) nogil
    int dk_fast_bmi2() nogil

cdef extern from *:
    """
    /* Two threads handing work over (the retrograde graph's builder and its
       helper, retro.pxi and retrobuild.pxi): counters published and read
       with release/acquire order, a wait that spins a moment (the other
       thread is likely running on the other core) and then gives the core
       away. */
    #include <pthread.h>
    #include <sched.h>
    static inline int64_t dk_load_acq(int64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline uint64_t dk_load_u64_acq(uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void dk_store_u64_rel(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline void dk_store_u64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline void dk_store_rel(int64_t* p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int dk_load_int(int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void dk_store_int(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline void dk_wait(int* spins) {
        if (++*spins < 512) {
    #if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
    #elif defined(__aarch64__)
            __asm__ __volatile__("yield");
    #endif
        } else {
            sched_yield();
        }
    }
    typedef struct { pthread_t t; } dk_thread;
    static int dk_thread_start(dk_thread* h, void* (*fn)(void*), void* arg) {
        return pthread_create(&h->t, NULL, fn, arg);
    }
    static void dk_thread_join(dk_thread* h) { pthread_join(h->t, NULL); }
    """
    int64_t dk_load_acq(int64_t* p) nogil
    uint64_t dk_load_u64_acq(uint64_t* p) nogil
    void dk_store_u64_rel(uint64_t* p, uint64_t v) nogil
    void dk_store_u64(uint64_t* p, uint64_t v) nogil
    void dk_store_rel(int64_t* p, int64_t v) nogil
    int dk_load_int(int* p) nogil
    void dk_store_int(int* p, int v) nogil
    void dk_wait(int* spins) nogil
    ctypedef struct dk_thread:
        pass
    int dk_thread_start(dk_thread* h, void* (*fn)(void*) noexcept nogil, void* arg) nogil
    void dk_thread_join(dk_thread* h) nogil

cdef extern from *:
    """
    #include <time.h>
    static double dk_now(void) {
        struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    """
    double dk_now() nogil

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #ifdef __linux__
    #include <sys/mman.h>
    #endif
    /* The table in 2 MiB aligned memory, zeroed, with transparent huge pages
       asked for where the OS has them: its probes are random accesses and
       4 KiB pages make most of them TLB misses as well as cache misses.
       On Linux the memory is an anonymous mapping: the kernel zeroes each page
       when it is first touched, so a large table costs nothing until the
       search uses it (a 179-node problem does not pay for 4 GB of memset).
       The mapping's start is kept in the word before the aligned block. */
    #define DK_ALIGN ((size_t)1 << 21)
    static void* dk_table_alloc(size_t bytes) {
    #if defined(__linux__) && defined(MAP_ANONYMOUS)
        size_t total = bytes + 2 * DK_ALIGN;
        char* base = (char*)mmap(NULL, total, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == (char*)MAP_FAILED) return NULL;
        char* p = (char*)((((size_t)base + sizeof(size_t) * 2) + DK_ALIGN - 1) & ~(DK_ALIGN - 1));
        ((size_t*)p)[-1] = total;
        ((char**)p)[-2] = base;
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        return p;
    #else
        void* p = NULL;
        if (posix_memalign(&p, DK_ALIGN, bytes) != 0) return NULL;
        memset(p, 0, bytes);
        return p;
    #endif
    }
    static void dk_table_free(void* p) {
        if (p == NULL) return;
    #if defined(__linux__) && defined(MAP_ANONYMOUS)
        munmap(((char**)p)[-2], ((size_t*)p)[-1]);
    #else
        free(p);
    #endif
    }
    """
    void* dk_table_alloc(size_t bytes) nogil
    void dk_table_free(void* p) nogil

cdef extern from "Python.h":
    int PyErr_CheckSignals()
    void PyErr_Clear()


cdef inline int popcount64(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


def popcount(uint64_t mask) -> int:
    """Number of cards in a card set."""
    return popcount64(mask)


def beaters(int attack, uint64_t hand, int trump) -> int:
    """R2: the cards of ``hand`` that beat ``attack`` (same layout as solver.cards)."""
    return c_beaters(attack, hand, trump)


cdef uint64_t SUIT13 = 0x1FFF
cdef uint8_t CARD_SUIT[64]   # card // 13 and card % 13, looked up (make_key's inner loop)
cdef uint8_t CARD_RANK[64]
for _c in range(64):
    CARD_SUIT[_c] = _c // 13 if _c < 52 else 0
    CARD_RANK[_c] = _c % 13

# LIVE_RANK[lr][r]: rank r's place among the live ranks of the 13-bit set lr
# (make_key drops the dead ranks: the live ones numbered in order); a table,
# not a loop, because every key inside a bout asks for it
cdef int8_t LIVE_RANK[8192][13]
cdef int _lr, _j, _r
for _lr in range(8192):
    _j = 0
    for _r in range(13):
        LIVE_RANK[_lr][_r] = _j
        if (_lr >> _r) & 1:
            _j += 1
cdef uint64_t SPREAD = (<uint64_t>1) | ((<uint64_t>1) << 13) | ((<uint64_t>1) << 26) | ((<uint64_t>1) << 39)


cdef inline uint64_t c_beaters(int attack, uint64_t hand, int trump) noexcept nogil:
    cdef int s = attack // 13
    cdef uint64_t suit = SUIT13 << (13 * s)
    cdef uint64_t higher = suit & ~(((<uint64_t>1) << (attack + 1)) - 1)
    cdef uint64_t m = hand & higher
    if s != trump:
        m |= hand & (SUIT13 << (13 * trump))
    return m


cdef inline uint64_t rank_set(uint64_t m) noexcept nogil:
    return (m | (m >> 13) | (m >> 26) | (m >> 39)) & SUIT13
