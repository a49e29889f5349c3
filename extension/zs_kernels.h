/* The row functions of the combined-row Zhang–Shasha (zs_rows.h explains the method): portable
 * C, AVX2 and AVX-512 variants over one batch (zs_layout.h), and the choice among them at run time. */
#ifndef SPACY_AGREEMENT_ZS_KERNELS_H
#define SPACY_AGREEMENT_ZS_KERNELS_H

#include "zs_layout.h"

/* ---------------------------------------------------------------- kernels
 * A kernel variant is two row functions; zsr_rows_with walks A's keyroots and rows once for all.
 *
 * path row r (node x of A on its keyroot's left path, label lx), level by level:
 *   third = diagonal (r - 1 at a first column) + relabel on the segment's left path, else
 *   q + td[x][home]; td stored back for every column (its own value on the path, the home
 *   column's copy elsewhere);
 * inner row (x off the left path, prow = row p, the row of x's leftmost leaf minus one):
 *   third = prow[gidx] + td[x][c] (prow[-1] = p).
 * Both then take min with up + 1 and the prefix minimum of T - off. */
typedef void (*zsr_path_row)(const zsr_view* B, const int32_t* up, int32_t* cur, int32_t* tdx, int32_t lx,
                             int32_t rm1);
typedef void (*zsr_inner_row)(const zsr_view* B, const int32_t* up, const int32_t* prow, int32_t* cur,
                              const int32_t* tdx);
/* first row (x = li, a leaf of A, the first row of every keyroot table; b: the bit of x's label
 * among the batch's labels, -1: none): the forest distance from one node to m nodes is m - 1
 * when one of them has x's label, m otherwise (map x to that node, insert the rest), so
 * fd[1][c] = pos[c] - [label of x in the segment's forest up to c] and
 * td[x][y] = |B(y)| - [label of x in B(y)], with no gather and no scan. cur NULL: a one-node
 * table, whose fd row no later row reads. */
typedef void (*zsr_first_row)(const zsr_view* B, int32_t* cur, int32_t* tdx, int32_t b);

/* out[k] = TED(A, tree k of the batch). A: labels, leftmost leaves, keyroots (validated). */
static void zsr_rows_with(zsr_path_row path_row, zsr_inner_row inner_row, zsr_first_row first_row, const int32_t* alab,
                          const int32_t* alml, const int32_t* akr, int64_t an, int64_t ank,
                          const zsr_view* B, int32_t* td, int32_t* fdbuf, int32_t* out) {
    const int64_t tw = B->Wp + 2 * ZSR_PAD;
    const int32_t* r0 = B->pos;
    int32_t* fd = fdbuf + ZSR_PAD;
    int64_t ka, x, k;
    for (x = 0; x < an; x++) td[x * tw + B->Wp] = ZSR_BIG;
    for (ka = 0; ka < ank; ka++) {
        int64_t i = akr[ka], li = alml[i], mi = i - li + 1, di = 1;
        if (B->nlab >= 0) {
            fd[-1] = 1;
            first_row(B, mi == 1 ? NULL : fd, td + li * tw, zsr_label_bit(B, alab[li]));
            di = 2;
        }
        for (; di <= mi; di++) {
            const int32_t* up = di == 1 ? r0 : fd + (di - 2) * tw;
            int32_t* cur = fd + (di - 1) * tw;
            int64_t p;
            x = li + di - 1;
            p = alml[x] - li;
            cur[-1] = (int32_t)di;
            if (p == 0) path_row(B, up, cur, td + x * tw, alab[x], (int32_t)(di - 1));
            else inner_row(B, up, fd + (p - 1) * tw, cur, td + x * tw);
        }
    }
    for (k = 0; k < B->nb; k++) out[k] = td[(an - 1) * tw + B->rootcol[k]];
}

static void zsr_path_scalar(const zsr_view* B, const int32_t* up, int32_t* cur, int32_t* tdx, int32_t lx,
                            int32_t rm1) {
    int32_t l, c;
    for (l = 0; l < B->nlev; l++) {
        int32_t run = ZSR_INF;
        for (c = B->lev[l]; c < B->lev[l + 1]; c++) {
            int32_t u = up[c] + 1, dg = tdx[B->home[c]], t, v;
            if (B->on[c]) t = (B->on[c] == -2 ? rm1 : up[c - 1]) + (B->lab[c] != lx);
            else t = B->qv[c] + dg;
            if (u < t) t = u;
            v = t - B->off[c];
            if (v < run) run = v;
            cur[c] = run + B->off[c];
            tdx[c] = B->on[c] ? cur[c] : dg;
        }
    }
}

static void zsr_inner_scalar(const zsr_view* B, const int32_t* up, const int32_t* prow, int32_t* cur,
                             const int32_t* tdx) {
    int32_t c, run = ZSR_INF;
    for (c = 0; c < B->Wp; c++) {
        int32_t u = up[c] + 1, t = prow[B->gidx[c]] + tdx[c], v;
        if (u < t) t = u;
        v = t - B->off[c];
        if (v < run) run = v;
        cur[c] = run + B->off[c];
    }
}

static void zsr_first_scalar(const zsr_view* B, int32_t* cur, int32_t* tdx, int32_t b) {
    const int32_t *m = b >= 32 ? B->mhi : B->mlo, *pm = b >= 32 ? B->phi : B->plo;
    const uint32_t s = (uint32_t)b & 31u, keep = b < 0 ? 0u : 1u;
    int64_t c, Wp = B->Wp;
    for (c = 0; c < Wp; c++) tdx[c] = B->tsize[c] - (int32_t)(((uint32_t)m[c] >> s) & keep);
    if (cur != NULL)
        for (c = 0; c < Wp; c++) cur[c] = B->pos[c] - (int32_t)(((uint32_t)pm[c] >> s) & keep);
}

#ifdef ZSR_X86
#define ZSR_L8(p) _mm256_loadu_si256((const __m256i*)(p))
#define ZSR_S8(p, v) _mm256_storeu_si256((__m256i*)(p), v)

__attribute__((target("avx2"))) static void zsr_first_avx2(const zsr_view* B, int32_t* cur, int32_t* tdx,
                                                           int32_t b) {
    const int32_t *m = b >= 32 ? B->mhi : B->mlo, *pm = b >= 32 ? B->phi : B->plo, *tsize = B->tsize, *pos = B->pos;
    const __m128i shift = _mm_cvtsi32_si128(b < 0 ? 32 : b & 31); /* a shift by 32 gives 0 */
    const __m256i one = _mm256_set1_epi32(1);
    int64_t c, Wp = B->Wp;
    if (cur == NULL) {
        for (c = 0; c < Wp; c += 8)
            ZSR_S8(tdx + c, _mm256_sub_epi32(ZSR_L8(tsize + c), _mm256_and_si256(_mm256_srl_epi32(ZSR_L8(m + c), shift), one)));
        return;
    }
    for (c = 0; c < Wp; c += 8) {
        ZSR_S8(tdx + c, _mm256_sub_epi32(ZSR_L8(tsize + c), _mm256_and_si256(_mm256_srl_epi32(ZSR_L8(m + c), shift), one)));
        ZSR_S8(cur + c, _mm256_sub_epi32(ZSR_L8(pos + c), _mm256_and_si256(_mm256_srl_epi32(ZSR_L8(pm + c), shift), one)));
    }
}

/* min(prefix minimum of T - off, carry) + off over 8 lanes; carry becomes its last lane. The
 * scan runs inside each 128-bit half (two byte-aligns), then the lower half's last lane is
 * spread over the upper half: four shuffles in all. */
__attribute__((target("avx2"))) static inline __m256i zsr_scan8(__m256i T, __m256i off, __m256i* carry) {
    const __m256i inf = _mm256_set1_epi32(ZSR_INF);
    __m256i v = _mm256_sub_epi32(T, off);
    v = _mm256_min_epi32(v, _mm256_alignr_epi8(v, inf, 12));
    v = _mm256_min_epi32(v, _mm256_alignr_epi8(v, inf, 8));
    v = _mm256_min_epi32(v, _mm256_blend_epi32(inf, _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(3)), 0xF0));
    {
        /* the carry chain is one min per vector: the last lane is taken before the carry is applied */
        __m256i last = _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(7)), before = *carry;
        *carry = _mm256_min_epi32(before, last);
        return _mm256_add_epi32(_mm256_min_epi32(v, before), off);
    }
}

/* The path row copies td[x][home[c]] into every column off the segment's left path; the home
 * column is on a lower level, so computed before in this row. Homes are far apart (each
 * distinct keyroot subtree laid out once, on its own level), so the lanes off the path are
 * gathered (masked: about one vector in eight has none); a gather of 8 costs about 13 cycles
 * on AMD Zen 3, more than the rest of the vector's work. */
__attribute__((target("avx2"))) static void zsr_path_avx2(const zsr_view* B, const int32_t* up, int32_t* cur,
                                                          int32_t* tdx, int32_t label, int32_t rm1) {
    const __m256i one = _mm256_set1_epi32(1), two = _mm256_set1_epi32(-2), lx = _mm256_set1_epi32(label),
                  diag0 = _mm256_set1_epi32(rm1), zero = _mm256_setzero_si256();
    /* the batch's arrays in locals, 64-bit column indices: with -fwrapv and no strict aliasing
     * (Python's flags) the compiler would otherwise reload them and sign-extend c at every vector */
    const int32_t *lev = B->lev, *on_ = B->on, *home_ = B->home, *qv = B->qv, *lab = B->lab, *off = B->off;
    const int64_t nlev = B->nlev;
    int64_t l, c;
    for (l = 0; l < nlev; l++) {
        __m256i carry = _mm256_set1_epi32(ZSR_INF);
        const int64_t end = lev[l + 1];
        for (c = lev[l]; c < end; c += 8) {
            __m256i U = _mm256_add_epi32(ZSR_L8(up + c), one);
            __m256i on = ZSR_L8(on_ + c), Dg;
            __m256i off_path = _mm256_cmpeq_epi32(on, zero);
            if (_mm256_testz_si256(off_path, off_path)) Dg = zero; /* every lane on its segment's path */
            else Dg = _mm256_mask_i32gather_epi32(zero, tdx, ZSR_L8(home_ + c), off_path, 4);
            __m256i Tn = _mm256_add_epi32(ZSR_L8(qv + c), Dg);
            __m256i eq = _mm256_cmpeq_epi32(ZSR_L8(lab + c), lx);
            __m256i dg = _mm256_blendv_epi8(ZSR_L8(up + c - 1), diag0, _mm256_cmpeq_epi32(on, two));
            __m256i Tp = _mm256_add_epi32(dg, _mm256_add_epi32(one, eq));
            __m256i F = zsr_scan8(_mm256_min_epi32(U, _mm256_blendv_epi8(Tn, Tp, on)), ZSR_L8(off + c), &carry);
            ZSR_S8(cur + c, F);
            ZSR_S8(tdx + c, _mm256_blendv_epi8(Dg, F, on));
        }
    }
}

/* The inner row reads prow[gidx[c]]. gidx points back into the column's own segment (or is
 * -1: row p's implied column 0, p itself), mostly not far: on dependency trees every lane of
 * 93% of the 8-column vectors at c0 points into prow[c0 - 8 .. c0 + 8), read then with two
 * in-register permutes instead of a gather (a gather of 8 costs about 13 cycles on AMD Zen 3,
 * more than the rest of the vector's work). The other vectors gather. */
__attribute__((target("avx2"))) static void zsr_inner_avx2(const zsr_view* B, const int32_t* up,
                                                           const int32_t* prow, int32_t* cur, const int32_t* tdx) {
    const __m256i one = _mm256_set1_epi32(1), seven = _mm256_set1_epi32(7), none = _mm256_set1_epi32(-1),
                  zero = _mm256_setzero_si256(), p = _mm256_set1_epi32(prow[-1]);
    const int32_t *gidx = B->gidx, *off = B->off;
    const int64_t Wp = B->Wp;
    __m256i carry = _mm256_set1_epi32(ZSR_INF);
    int64_t c;
    for (c = 0; c < Wp; c += 8) {
        __m256i U = _mm256_add_epi32(ZSR_L8(up + c), one);
        __m256i idx = ZSR_L8(gidx + c), G, T;
        __m256i rel = _mm256_sub_epi32(idx, _mm256_set1_epi32((int32_t)c - 8));
        __m256i path = _mm256_cmpeq_epi32(idx, none);
        __m256i far = _mm256_andnot_si256(path, _mm256_cmpgt_epi32(zero, rel));
        if (__builtin_expect(_mm256_testz_si256(far, far), 1)) {
            /* prow - 8 at c = 0 is the padding before the row: no lane reads it (rel >= 8) */
            __m256i lo = _mm256_permutevar8x32_epi32(ZSR_L8(prow + c - 8), rel);
            __m256i hi = _mm256_permutevar8x32_epi32(ZSR_L8(prow + c), rel);
            G = _mm256_blendv_epi8(_mm256_blendv_epi8(lo, hi, _mm256_cmpgt_epi32(rel, seven)), p, path);
        } else {
            G = _mm256_i32gather_epi32(prow, idx, 4);
        }
        T = _mm256_min_epi32(U, _mm256_add_epi32(G, ZSR_L8(tdx + c)));
        ZSR_S8(cur + c, zsr_scan8(T, ZSR_L8(off + c), &carry));
    }
}

#define ZSR_L16(p) _mm512_loadu_si512((const void*)(p))
#define ZSR_S16(p, v) _mm512_storeu_si512((void*)(p), v)

/* zsr_scan8 over 16 lanes. */
__attribute__((target("avx512f"))) static inline __m512i zsr_scan16(__m512i T, __m512i off, __m512i* carry) {
    const __m512i inf = _mm512_set1_epi32(ZSR_INF);
    __m512i v = _mm512_sub_epi32(T, off);
    v = _mm512_min_epi32(v, _mm512_alignr_epi32(v, inf, 15));
    v = _mm512_min_epi32(v, _mm512_alignr_epi32(v, inf, 14));
    v = _mm512_min_epi32(v, _mm512_alignr_epi32(v, inf, 12));
    v = _mm512_min_epi32(v, _mm512_alignr_epi32(v, inf, 8));
    {
        __m512i last = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), v), before = *carry;
        *carry = _mm512_min_epi32(before, last);
        return _mm512_add_epi32(_mm512_min_epi32(v, before), off);
    }
}

/* zsr_first_avx2 over 16 lanes. */
__attribute__((target("avx512f"))) static void zsr_first_avx512(const zsr_view* B, int32_t* cur, int32_t* tdx,
                                                                int32_t b) {
    const int32_t *m = b >= 32 ? B->mhi : B->mlo, *pm = b >= 32 ? B->phi : B->plo, *tsize = B->tsize, *pos = B->pos;
    const __m128i shift = _mm_cvtsi32_si128(b < 0 ? 32 : b & 31); /* a shift by 32 gives 0 */
    const __m512i one = _mm512_set1_epi32(1);
    int64_t c, Wp = B->Wp;
    if (cur == NULL) {
        for (c = 0; c < Wp; c += 16)
            ZSR_S16(tdx + c, _mm512_sub_epi32(ZSR_L16(tsize + c), _mm512_and_si512(_mm512_srl_epi32(ZSR_L16(m + c), shift), one)));
        return;
    }
    for (c = 0; c < Wp; c += 16) {
        ZSR_S16(tdx + c, _mm512_sub_epi32(ZSR_L16(tsize + c), _mm512_and_si512(_mm512_srl_epi32(ZSR_L16(m + c), shift), one)));
        ZSR_S16(cur + c, _mm512_sub_epi32(ZSR_L16(pos + c), _mm512_and_si512(_mm512_srl_epi32(ZSR_L16(pm + c), shift), one)));
    }
}

/* zsr_path_avx2 over 16 lanes: the lanes off their segment's path gathered under a mask (none
 * gathered where every lane is on its path). */
__attribute__((target("avx512f"))) static void zsr_path_avx512(const zsr_view* B, const int32_t* up,
                                                               int32_t* cur, int32_t* tdx, int32_t label,
                                                               int32_t rm1) {
    const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512(), lx = _mm512_set1_epi32(label),
                  two = _mm512_set1_epi32(-2), diag0 = _mm512_set1_epi32(rm1);
    const int32_t *lev = B->lev, *on_ = B->on, *home = B->home, *qv = B->qv, *lab = B->lab, *off = B->off;
    const int64_t nlev = B->nlev;
    int64_t l, c;
    for (l = 0; l < nlev; l++) {
        __m512i carry = _mm512_set1_epi32(ZSR_INF);
        const int64_t end = lev[l + 1];
        for (c = lev[l]; c < end; c += 16) {
            __m512i U = _mm512_add_epi32(ZSR_L16(up + c), one);
            __m512i onv = ZSR_L16(on_ + c);
            __mmask16 on = _mm512_cmplt_epi32_mask(onv, zero);
            __mmask16 off_path = (__mmask16)~on;
            __m512i Dg = off_path ? _mm512_mask_i32gather_epi32(zero, off_path, ZSR_L16(home + c), tdx, 4) : zero;
            __mmask16 first = _mm512_cmpeq_epi32_mask(onv, two);
            __mmask16 eq = _mm512_cmpeq_epi32_mask(ZSR_L16(lab + c), lx);
            __m512i Tn = _mm512_add_epi32(ZSR_L16(qv + c), Dg);
            __m512i dg = _mm512_mask_blend_epi32(first, ZSR_L16(up + c - 1), diag0);
            __m512i Tp = _mm512_add_epi32(dg, _mm512_mask_blend_epi32(eq, one, zero));
            __m512i F = zsr_scan16(_mm512_min_epi32(U, _mm512_mask_blend_epi32(on, Tn, Tp)), ZSR_L16(off + c),
                                   &carry);
            ZSR_S16(cur + c, F);
            ZSR_S16(tdx + c, _mm512_mask_blend_epi32(on, Dg, F));
        }
    }
}

/* zsr_inner_avx2 over 16 lanes: where every lane off the path points into prow[c0 - 16 .. c0 + 16),
 * one two-table permute (vpermt2d) reads them all; other vectors gather. */
__attribute__((target("avx512f"))) static void zsr_inner_avx512(const zsr_view* B, const int32_t* up,
                                                                const int32_t* prow, int32_t* cur,
                                                                const int32_t* tdx) {
    const __m512i one = _mm512_set1_epi32(1), none = _mm512_set1_epi32(-1), zero = _mm512_setzero_si512(),
                  p = _mm512_set1_epi32(prow[-1]);
    const int32_t *gidx = B->gidx, *off = B->off;
    const int64_t Wp = B->Wp;
    __m512i carry = _mm512_set1_epi32(ZSR_INF);
    int64_t c;
    for (c = 0; c < Wp; c += 16) {
        __m512i U = _mm512_add_epi32(ZSR_L16(up + c), one);
        __m512i idx = ZSR_L16(gidx + c), G;
        __m512i rel = _mm512_sub_epi32(idx, _mm512_set1_epi32((int32_t)c - 16));
        __mmask16 path = _mm512_cmpeq_epi32_mask(idx, none);
        __mmask16 far = _mm512_mask_cmplt_epi32_mask((__mmask16)~path, rel, zero);
        if (__builtin_expect(far == 0, 1)) {
            /* prow - 16 at c = 0 is the padding before the row: no lane reads it (rel >= 16) */
            G = _mm512_mask_blend_epi32(path, _mm512_permutex2var_epi32(ZSR_L16(prow + c - 16), rel,
                                                                         ZSR_L16(prow + c)), p);
        } else {
            G = _mm512_i32gather_epi32(idx, prow, 4);
        }
        __m512i T = _mm512_min_epi32(U, _mm512_add_epi32(G, ZSR_L16(tdx + c)));
        ZSR_S16(cur + c, zsr_scan16(T, ZSR_L16(off + c), &carry));
    }
}
#endif

/* ---------------------------------------------------------------- dispatch
 * 0 scalar, 1 AVX2, 2 AVX-512: the best the CPU offers unless forced lower. */
static int zsr_forced = -1;

static int zsr_available(void) {
#ifdef ZSR_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 2;
    if (__builtin_cpu_supports("avx2")) return 1;
#endif
    return 0;
}

static int zsr_variant(void) {
    int best = zsr_available();
    if (zsr_forced >= 0 && zsr_forced < best) return zsr_forced;
    return best;
}

static void zsr_rows(int variant, const int32_t* alab, const int32_t* alml, const int32_t* akr, int64_t an,
                     int64_t ank, const zsr_view* B, int32_t* td, int32_t* fdbuf, int32_t* out) {
    zsr_path_row path_row = zsr_path_scalar;
    zsr_inner_row inner_row = zsr_inner_scalar;
    zsr_first_row first_row = zsr_first_scalar;
#ifdef ZSR_X86
    if (variant == 2) { path_row = zsr_path_avx512; inner_row = zsr_inner_avx512; first_row = zsr_first_avx512; }
    if (variant == 1) { path_row = zsr_path_avx2; inner_row = zsr_inner_avx2; first_row = zsr_first_avx2; }
#endif
    (void)variant;
    zsr_rows_with(path_row, inner_row, first_row, alab, alml, akr, an, ank, B, td, fdbuf, out);
}

#endif
