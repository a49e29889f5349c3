/* Zhang–Shasha with combined rows: one tree against a batch of trees, every keyroot table of
 * the batch side by side in one long row, so that the inner loop is long and vectorisable.
 *
 * Zhang, K. and Shasha, D. (1989). Simple fast algorithms for the editing distance between
 * trees and related problems. SIAM J. Comput. 18(6):1245-1262.
 *
 * The classic kernel (zhang_shasha.pxi) fills, for every keyroot i of tree A and every keyroot
 * j of tree B, a forest-distance table of |A(i)| x |B(j)| cells: about 70 tables of 25 cells
 * for two 18-node dependency trees, so loop overhead and branch misses cost more than the
 * cells. Here the tables of all keyroots j of all trees of a batch become *segments* of one
 * row: the nodes lj..j of B(j), one column each (the table's column 0, fd[r][0] = r, is
 * implied, see the batches below). A row of A's keyroot i is then one pass over the batch:
 *
 *   fd[r][c] = min(fd[r-1][c] + 1, fd[r][c-1] + 1, third[c])
 *
 * where third is the diagonal plus relabel cost (both nodes on their keyroot's left path) or
 * fd[p][start + q] + td[x][y] (otherwise). Everything but the left term is independent across
 * the row; the left term is a running minimum. With off[c] growing by 1 per column inside a
 * segment and by more than any row index between segments, min(T[c] - off[c], ...) is one
 * prefix minimum over the whole row that restarts at every segment by itself.
 *
 * Dependencies: in a row of a node x on the left path of keyroot i, a non-path column y of
 * segment j needs td[x][y], computed in the same row in the segment of y's own keyroot, which
 * is nested in B(j). Segments are therefore laid out by *level* (1 + the highest level of a
 * keyroot nested in it); such a row is computed level by level. td is kept in the combined
 * column layout: every column holds td[x][y] of its node, copied from the node's home column.
 *
 * Unit costs, integer distances. Trees with more than ZSR_MAX_NODES nodes or a layout wider
 * than ZSR_CAP columns are left to the classic kernel by the caller.
 */
#ifndef SPACY_AGREEMENT_ZS_ROWS_H
#define SPACY_AGREEMENT_ZS_ROWS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(ZSR_NO_SIMD)
#define ZSR_X86 1
#include <immintrin.h>
#endif

#define ZSR_MAX_NODES 512
#define ZSR_CAP 4096
#define ZSR_PAD 16
#define ZSR_INF (1 << 29)
#define ZSR_BIG (1 << 27)
#define ZSR_HEAD 4

/* ---------------------------------------------------------------- per-tree layouts
 * int32 record: W, nlev, rootcol, rootlev, lev[nlev + 1], then five arrays of W columns:
 * q (lml of the column's node minus the segment's first node: 0 on the segment's left path),
 * hcol (the node's home column), hlev (level of the home column), lab (label), pos (column
 * within its segment, from 1).
 */
static int64_t zsr_width(const int32_t* lml, const int32_t* kr, int64_t nk) {
    int64_t W = 0, a;
    for (a = 0; a < nk; a++) W += kr[a] - lml[kr[a]] + 1;
    return W;
}

/* Levels of the keyroots (increasing order) with a stack of disjoint processed intervals. */
static int32_t zsr_levels(const int32_t* lml, const int32_t* kr, int64_t nk, int32_t* level,
                          int32_t* st_start, int32_t* st_level) {
    int64_t a, top = 0;
    int32_t maxl = 0;
    for (a = 0; a < nk; a++) {
        int32_t j = kr[a], lj = lml[j], inner = -1;
        while (top > 0 && st_start[top - 1] >= lj) {
            if (st_level[top - 1] > inner) inner = st_level[top - 1];
            top--;
        }
        level[a] = inner + 1;
        if (level[a] > maxl) maxl = level[a];
        st_start[top] = lj;
        st_level[top] = level[a];
        top++;
    }
    return nk ? maxl + 1 : 0;
}

static int64_t zsr_record_ints(int64_t W, int32_t nlev) { return ZSR_HEAD + nlev + 1 + 5 * W; }

/* Writes the record of one validated tree (n >= 1) into out; scratch holds 4 * n ints. */
static void zsr_build_tree(const int32_t* lab, const int32_t* lml, const int32_t* kr, int64_t n, int64_t nk,
                           int32_t* out, int32_t* scratch) {
    int64_t W = zsr_width(lml, kr, nk), a, c = 0, y;
    int32_t* level = scratch;
    int32_t* colof = scratch + n;       /* home column of each node */
    int32_t* levof = scratch + 2 * n;   /* level of that column */
    int32_t nlev = zsr_levels(lml, kr, nk, level, scratch + 2 * n, scratch + 3 * n);
    int32_t l;
    int32_t *lev = out + ZSR_HEAD, *qv = lev + nlev + 1, *hcol = qv + W, *hlev = hcol + W, *lb = hlev + W,
            *pos = lb + W;
    out[0] = (int32_t)W;
    out[1] = nlev;
    for (l = 0; l < nlev; l++) {
        lev[l] = (int32_t)c;
        for (a = 0; a < nk; a++) {
            int32_t j, lj;
            if (level[a] != l) continue;
            j = kr[a];
            lj = lml[j];
            for (y = lj; y <= j; y++, c++) {
                int32_t q = lml[y] - lj;
                qv[c] = q;
                lb[c] = lab[y];
                pos[c] = (int32_t)(y - lj + 1);
                hcol[c] = (int32_t)y; /* the node, until its home column is known */
                if (q == 0) { colof[y] = (int32_t)c; levof[y] = l; }
            }
        }
    }
    lev[nlev] = (int32_t)c;
    for (c = 0; c < W; c++) {
        int32_t node = hcol[c];
        hlev[c] = levof[node];
        hcol[c] = colof[node];
    }
    out[2] = colof[n - 1];
    out[3] = levof[n - 1];
}

/* ---------------------------------------------------------------- batches
 * A segment's first column has on = -2, its other left-path columns -1, the rest 0. The
 * table's column 0 (deleting the first r nodes of A's forest costs r) is not stored: the
 * diagonal of a first column reads r - 1 instead of the column before it, an inner row's
 * left-path columns read row p's value p from the slot just before that row (gidx = -1), and
 * the left term never wins at a first column (fd[r][1] <= r < fd[r][0] + 1). */
typedef struct {
    int32_t Wp, nlev, nb;
    int32_t lev[ZSR_MAX_NODES + 2];
    int32_t gidx[ZSR_CAP + 2 * ZSR_PAD], home[ZSR_CAP + 2 * ZSR_PAD], qv[ZSR_CAP + 2 * ZSR_PAD];
    int32_t on[ZSR_CAP + 2 * ZSR_PAD], lab[ZSR_CAP + 2 * ZSR_PAD], off[ZSR_CAP + 2 * ZSR_PAD];
    int32_t pos_[ZSR_PAD + ZSR_CAP + 2 * ZSR_PAD]; /* pos = pos_ + ZSR_PAD: pos[-1] is readable */
    int32_t rootcol[ZSR_CAP];
    int32_t cursor[ZSR_MAX_NODES + 2], delta[ZSR_MAX_NODES + 2], seg[ZSR_MAX_NODES + 2];
} zsr_batch;

/* What the kernels read of a batch: a zsr_batch built for one row, or a block stored once
 * for all rows (zsr_build_blocks). The column arrays hold Wp + ZSR_PAD entries. */
typedef struct {
    int32_t Wp, nlev, nb;
    const int32_t *lev, *gidx, *home, *qv, *on, *lab, *off, *pos, *rootcol;
} zsr_view;

static zsr_view zsr_batch_view(const zsr_batch* B) {
    zsr_view v;
    v.Wp = B->Wp; v.nlev = B->nlev; v.nb = B->nb;
    v.lev = B->lev; v.gidx = B->gidx; v.home = B->home; v.qv = B->qv; v.on = B->on; v.lab = B->lab;
    v.off = B->off; v.pos = B->pos_ + ZSR_PAD; v.rootcol = B->rootcol;
    return v;
}

/* Offsets of the prefix minimum: off[c] = c + ZSR_STEP * s(c), where s(c) numbers the segments
 * in column order (each level's from that level's first column on, so that levels never
 * overlap, and every padding column one of its own): + 1 per column inside a segment, more
 * than ZSR_STEP (more than any row index of A) from one segment to the next, so that no
 * value crosses a segment's start. */
#define ZSR_STEP (ZSR_MAX_NODES + 1)

/* Lays the records recs[0..nb) side by side (total width <= ZSR_CAP). */
static void zsr_batch_build(zsr_batch* B, const int32_t* const* recs, int32_t nb) {
    int32_t k, l, nlev = 0, c, W = 0, Wp;
    int32_t* pos = B->pos_ + ZSR_PAD;
    for (k = 0; k < nb; k++) if (recs[k][1] > nlev) nlev = recs[k][1];
    for (l = 0; l <= nlev; l++) B->cursor[l] = 0;
    for (k = 0; k < nb; k++) {
        const int32_t* lev = recs[k] + ZSR_HEAD;
        for (l = 0; l < recs[k][1]; l++) B->cursor[l] += lev[l + 1] - lev[l];
    }
    for (l = 0; l < nlev; l++) {
        int32_t width = B->cursor[l];
        B->lev[l] = W;
        B->cursor[l] = W;
        B->seg[l] = W;
        W += width;
    }
    Wp = (W + ZSR_PAD - 1) / ZSR_PAD * ZSR_PAD;
    B->lev[nlev] = Wp;
    B->Wp = Wp;
    B->nlev = nlev;
    B->nb = nb;
    for (k = 0; k < nb; k++) {
        const int32_t* r = recs[k];
        int32_t tW = r[0], tn = r[1];
        const int32_t *lev = r + ZSR_HEAD, *qv = lev + tn + 1, *hcol = qv + tW, *hlev = hcol + tW,
                      *lb = hlev + tW, *ps = lb + tW;
        for (l = 0; l < tn; l++) {
            int32_t d = B->cursor[l] - lev[l], c0, sg = B->seg[l];
            B->delta[l] = d;
            for (c0 = lev[l]; c0 < lev[l + 1]; c0++) {
                int32_t c1 = c0 + d, q = qv[c0], p = ps[c0];
                sg += p == 1;
                B->gidx[c1] = q == 0 ? -1 : c1 - p + q;
                B->qv[c1] = q;
                B->on[c1] = q != 0 ? 0 : p == 1 ? -2 : -1;
                B->lab[c1] = lb[c0];
                B->off[c1] = c1 + ZSR_STEP * sg;
                pos[c1] = p;
            }
            B->seg[l] = sg;
            B->cursor[l] += lev[l + 1] - lev[l];
        }
        for (l = 0; l < tn; l++) {
            int32_t c0;
            for (c0 = lev[l]; c0 < lev[l + 1]; c0++) B->home[c0 + B->delta[l]] = hcol[c0] + B->delta[hlev[c0]];
        }
        B->rootcol[k] = r[2] + B->delta[r[3]];
    }
    for (c = W; c < Wp + ZSR_PAD; c++) {
        B->gidx[c] = c; B->home[c] = Wp; B->qv[c] = 0; B->on[c] = 0; B->lab[c] = -1; pos[c] = 0;
        B->off[c] = c + ZSR_STEP * (c + 1);
    }
    pos[-1] = 0;
}

/* Buffers for a tree A of n rows against a batch: td n * ZSR_STRIDE,
 * fd n * ZSR_STRIDE + ZSR_PAD ints (rows are Wp + 2 * ZSR_PAD <= ZSR_STRIDE apart). */
#define ZSR_STRIDE (ZSR_CAP + 2 * ZSR_PAD)

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

/* out[k] = TED(A, tree k of the batch). A: labels, leftmost leaves, keyroots (validated). */
static void zsr_rows_with(zsr_path_row path_row, zsr_inner_row inner_row, const int32_t* alab,
                          const int32_t* alml, const int32_t* akr, int64_t an, int64_t ank,
                          const zsr_view* B, int32_t* td, int32_t* fdbuf, int32_t* out) {
    const int64_t tw = B->Wp + 2 * ZSR_PAD;
    const int32_t* r0 = B->pos;
    int32_t* fd = fdbuf + ZSR_PAD;
    int64_t ka, x, k;
    for (x = 0; x < an; x++) td[x * tw + B->Wp] = ZSR_BIG;
    for (ka = 0; ka < ank; ka++) {
        int64_t i = akr[ka], li = alml[i], mi = i - li + 1, di;
        for (di = 1; di <= mi; di++) {
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

#ifdef ZSR_X86
#define ZSR_L8(p) _mm256_loadu_si256((const __m256i*)(p))
#define ZSR_S8(p, v) _mm256_storeu_si256((__m256i*)(p), v)

/* min(prefix minimum of T - off, carry) + off over 8 lanes; carry becomes its last lane. The
 * scan runs inside each 128-bit half (two byte-aligns), then the lower half's last lane is
 * spread over the upper half: four shuffles in all. */
__attribute__((target("avx2"))) static inline __m256i zsr_scan8(__m256i T, __m256i off, __m256i* carry) {
    const __m256i inf = _mm256_set1_epi32(ZSR_INF);
    __m256i v = _mm256_sub_epi32(T, off);
    v = _mm256_min_epi32(v, _mm256_alignr_epi8(v, inf, 12));
    v = _mm256_min_epi32(v, _mm256_alignr_epi8(v, inf, 8));
    v = _mm256_min_epi32(v, _mm256_blend_epi32(inf, _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(3)), 0xF0));
    v = _mm256_min_epi32(v, *carry);
    *carry = _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(7));
    return _mm256_add_epi32(v, off);
}

__attribute__((target("avx2"))) static void zsr_path_avx2(const zsr_view* B, const int32_t* up, int32_t* cur,
                                                          int32_t* tdx, int32_t label, int32_t rm1) {
    const __m256i one = _mm256_set1_epi32(1), two = _mm256_set1_epi32(-2), lx = _mm256_set1_epi32(label),
                  diag0 = _mm256_set1_epi32(rm1);
    int32_t l, c;
    for (l = 0; l < B->nlev; l++) {
        __m256i carry = _mm256_set1_epi32(ZSR_INF);
        for (c = B->lev[l]; c < B->lev[l + 1]; c += 8) {
            __m256i U = _mm256_add_epi32(ZSR_L8(up + c), one);
            __m256i Dg = _mm256_i32gather_epi32(tdx, ZSR_L8(B->home + c), 4);
            __m256i on = ZSR_L8(B->on + c);
            __m256i Tn = _mm256_add_epi32(ZSR_L8(B->qv + c), Dg);
            __m256i eq = _mm256_cmpeq_epi32(ZSR_L8(B->lab + c), lx);
            __m256i dg = _mm256_blendv_epi8(ZSR_L8(up + c - 1), diag0, _mm256_cmpeq_epi32(on, two));
            __m256i Tp = _mm256_add_epi32(dg, _mm256_add_epi32(one, eq));
            __m256i F = zsr_scan8(_mm256_min_epi32(U, _mm256_blendv_epi8(Tn, Tp, on)), ZSR_L8(B->off + c), &carry);
            ZSR_S8(cur + c, F);
            ZSR_S8(tdx + c, _mm256_blendv_epi8(Dg, F, on));
        }
    }
}

__attribute__((target("avx2"))) static void zsr_inner_avx2(const zsr_view* B, const int32_t* up,
                                                           const int32_t* prow, int32_t* cur, const int32_t* tdx) {
    const __m256i one = _mm256_set1_epi32(1);
    __m256i carry = _mm256_set1_epi32(ZSR_INF);
    int32_t c;
    for (c = 0; c < B->Wp; c += 8) {
        __m256i U = _mm256_add_epi32(ZSR_L8(up + c), one);
        __m256i G = _mm256_i32gather_epi32(prow, ZSR_L8(B->gidx + c), 4);
        __m256i T = _mm256_min_epi32(U, _mm256_add_epi32(G, ZSR_L8(tdx + c)));
        ZSR_S8(cur + c, zsr_scan8(T, ZSR_L8(B->off + c), &carry));
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
    v = _mm512_min_epi32(_mm512_min_epi32(v, _mm512_alignr_epi32(v, inf, 8)), *carry);
    *carry = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), v);
    return _mm512_add_epi32(v, off);
}

__attribute__((target("avx512f"))) static void zsr_path_avx512(const zsr_view* B, const int32_t* up,
                                                               int32_t* cur, int32_t* tdx, int32_t label,
                                                               int32_t rm1) {
    const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512(), lx = _mm512_set1_epi32(label),
                  two = _mm512_set1_epi32(-2), diag0 = _mm512_set1_epi32(rm1);
    int32_t l, c;
    for (l = 0; l < B->nlev; l++) {
        __m512i carry = _mm512_set1_epi32(ZSR_INF);
        for (c = B->lev[l]; c < B->lev[l + 1]; c += 16) {
            __m512i U = _mm512_add_epi32(ZSR_L16(up + c), one);
            __m512i Dg = _mm512_i32gather_epi32(ZSR_L16(B->home + c), tdx, 4);
            __m512i onv = ZSR_L16(B->on + c);
            __mmask16 on = _mm512_cmplt_epi32_mask(onv, zero);
            __mmask16 first = _mm512_cmpeq_epi32_mask(onv, two);
            __mmask16 eq = _mm512_cmpeq_epi32_mask(ZSR_L16(B->lab + c), lx);
            __m512i Tn = _mm512_add_epi32(ZSR_L16(B->qv + c), Dg);
            __m512i dg = _mm512_mask_blend_epi32(first, ZSR_L16(up + c - 1), diag0);
            __m512i Tp = _mm512_add_epi32(dg, _mm512_mask_blend_epi32(eq, one, zero));
            __m512i F = zsr_scan16(_mm512_min_epi32(U, _mm512_mask_blend_epi32(on, Tn, Tp)), ZSR_L16(B->off + c),
                                   &carry);
            ZSR_S16(cur + c, F);
            ZSR_S16(tdx + c, _mm512_mask_blend_epi32(on, Dg, F));
        }
    }
}

__attribute__((target("avx512f"))) static void zsr_inner_avx512(const zsr_view* B, const int32_t* up,
                                                                const int32_t* prow, int32_t* cur,
                                                                const int32_t* tdx) {
    const __m512i one = _mm512_set1_epi32(1);
    __m512i carry = _mm512_set1_epi32(ZSR_INF);
    int32_t c;
    for (c = 0; c < B->Wp; c += 16) {
        __m512i U = _mm512_add_epi32(ZSR_L16(up + c), one);
        __m512i G = _mm512_i32gather_epi32(ZSR_L16(B->gidx + c), prow, 4);
        __m512i T = _mm512_min_epi32(U, _mm512_add_epi32(G, ZSR_L16(tdx + c)));
        ZSR_S16(cur + c, zsr_scan16(T, ZSR_L16(B->off + c), &carry));
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
#ifdef ZSR_X86
    if (variant == 2) { path_row = zsr_path_avx512; inner_row = zsr_inner_avx512; }
    if (variant == 1) { path_row = zsr_path_avx2; inner_row = zsr_inner_avx2; }
#endif
    (void)variant;
    zsr_rows_with(path_row, inner_row, alab, alml, akr, an, ank, B, td, fdbuf, out);
}

/* ---------------------------------------------------------------- blocks
 * The trees of a forest cut once into blocks of consecutive eligible trees of at most
 * ZSR_TARGET columns (a wider tree alone), each block laid out as a batch and stored:
 * Wp, nlev, nb, 0, lev[nlev + 1], rootcol[nb], pos (ZSR_PAD + Wp + ZSR_PAD, pos[-1] = 0), then
 * gidx, home, qv, on, lab, off (Wp + ZSR_PAD each). A row meeting a whole block reads it as it
 * is instead of laying its trees out again. */

/* Batch width in columns: wide enough that a row is long, small enough for L1/L2. */
#define ZSR_TARGET 1024

static int64_t zsr_block_ints(int32_t Wp, int32_t nlev, int32_t nb) {
    return 4 + nlev + 1 + nb + 2 * ZSR_PAD + Wp + 6 * ((int64_t)Wp + ZSR_PAD);
}

static zsr_view zsr_block_view(const int32_t* m) {
    zsr_view v;
    int64_t cols;
    v.Wp = m[0]; v.nlev = m[1]; v.nb = m[2];
    cols = (int64_t)v.Wp + ZSR_PAD;
    v.lev = m + 4;
    v.rootcol = v.lev + v.nlev + 1;
    v.pos = v.rootcol + v.nb + ZSR_PAD;
    v.gidx = v.pos + cols;
    v.home = v.gidx + cols; v.qv = v.home + cols; v.on = v.qv + cols; v.lab = v.on + cols; v.off = v.lab + cols;
    return v;
}

static void zsr_block_store(const zsr_batch* B, int32_t* m) {
    zsr_view v;
    int64_t cols = (int64_t)B->Wp + ZSR_PAD;
    m[0] = B->Wp; m[1] = B->nlev; m[2] = B->nb; m[3] = 0;
    v = zsr_block_view(m);
    memcpy((int32_t*)v.lev, B->lev, sizeof(int32_t) * (B->nlev + 1));
    memcpy((int32_t*)v.rootcol, B->rootcol, sizeof(int32_t) * B->nb);
    memcpy((int32_t*)v.pos - ZSR_PAD, B->pos_, sizeof(int32_t) * (ZSR_PAD + cols));
    memcpy((int32_t*)v.gidx, B->gidx, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.home, B->home, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.qv, B->qv, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.on, B->on, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.lab, B->lab, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.off, B->off, sizeof(int32_t) * cols);
}

/* Cuts trees 0..n_trees into blocks (rec_off[t] < 0: tree t is in none) and stores them in mem
 * (NULL: only counts); blk_off[t] is the offset of the block starting at tree t, else -1.
 * Returns the ints the blocks take. B is scratch. */
static int64_t zsr_build_blocks(const int32_t* rec, const int64_t* rec_off, int64_t n_trees, zsr_batch* B,
                                const int32_t** recs, int32_t* mem, int64_t* blk_off) {
    int64_t t = 0, total = 0;
    while (t < n_trees) {
        int64_t e = t;
        int32_t width = 0, nb = 0, nlev = 0, Wp;
        if (rec_off[t] < 0) { blk_off[t++] = -1; continue; }
        while (e < n_trees && rec_off[e] >= 0 && (nb == 0 || width + rec[rec_off[e]] <= ZSR_TARGET)) {
            const int32_t* r = rec + rec_off[e];
            recs[nb++] = r;
            width += r[0];
            if (r[1] > nlev) nlev = r[1];
            e++;
        }
        Wp = (width + ZSR_PAD - 1) / ZSR_PAD * ZSR_PAD;
        blk_off[t] = total;
        if (mem != NULL) {
            zsr_batch_build(B, recs, nb);
            zsr_block_store(B, mem + total);
        }
        total += zsr_block_ints(Wp, nlev, nb);
        for (t = t + 1; t < e; t++) blk_off[t] = -1;
    }
    return total;
}

/* ---------------------------------------------------------------- forests
 * One orientation of a validated forest, its records (rec_off[t] < 0: tree t has none, being
 * too big for a batch or not needed there; its pairs are left to the classic kernel; the row
 * side needs no record, only zsr_rows_fit) and its blocks (blk NULL: none). */
typedef struct {
    const int32_t *lab, *lml, *kr;
    const int64_t *off, *kro;
    const int32_t* rec;
    const int64_t* rec_off;
    const int32_t* blk;
    const int64_t* blk_off;
} zsr_forest;

typedef struct {
    zsr_batch B;
    const int32_t* recs[2][ZSR_CAP];
    int64_t js[2][ZSR_CAP];
    int32_t nb[2], width[2];
    int32_t out[ZSR_CAP];
    int32_t rec[ZSR_HEAD + ZSR_MAX_NODES + 1 + 5 * ZSR_CAP], scratch[4 * ZSR_MAX_NODES]; /* zsr_one */
    int32_t *td, *fd; /* owned by the caller: see ZSR_STRIDE */
} zsr_work;

/* Whether tree i can be the row side (A) of a batch: its rows fit the buffers (ZSR_STRIDE). */
static int zsr_rows_fit(const zsr_forest* F, int64_t i) {
    int64_t n = F->off[i + 1] - F->off[i];
    return n >= 1 && n <= ZSR_MAX_NODES;
}

/* Tree i of F against the batch V; out[k] = TED(i, tree k of V). */
static void zsr_run(int variant, const zsr_forest* F, int64_t i, const zsr_view* V, zsr_work* w) {
    int64_t a0 = F->off[i], n = F->off[i + 1] - a0, k0 = F->kro[i], nk = F->kro[i + 1] - k0;
    zsr_rows(variant, F->lab + a0, F->lml + a0, F->kr + k0, n, nk, V, w->td, w->fd, w->out);
}

static void zsr_flush(int variant, const zsr_forest* F, int64_t i, zsr_work* w, int m, int32_t* dist) {
    int32_t k, nb = w->nb[m];
    zsr_view v;
    if (!nb) return;
    zsr_batch_build(&w->B, w->recs[m], nb);
    v = zsr_batch_view(&w->B);
    zsr_run(variant, F, i, &v, w);
    for (k = 0; k < nb; k++) dist[w->js[m][k]] = w->out[k];
    w->nb[m] = 0;
    w->width[m] = 0;
}

/* Queues tree j against tree i in orientation m; its distance goes to dist[key]. */
static void zsr_add(int variant, const zsr_forest* F, int64_t i, int64_t j, int64_t key, zsr_work* w, int m,
                    int32_t* dist) {
    const int32_t* r = F->rec + F->rec_off[j];
    if (w->width[m] + r[0] > ZSR_TARGET && w->nb[m] > 0) zsr_flush(variant, F, i, w, m, dist);
    w->recs[m][w->nb[m]] = r;
    w->js[m][w->nb[m]] = key;
    w->nb[m] += 1;
    w->width[m] += r[0];
}

/* dist[j] = TED(i, j) for a <= j < b in orientation m: whole stored blocks as they are, the
 * other trees queued. */
static void zsr_range(int variant, const zsr_forest* F, int64_t i, int64_t a, int64_t b, zsr_work* w, int m,
                      int32_t* dist) {
    int64_t j = a, k;
    if (!zsr_rows_fit(F, i)) {
        for (; j < b; j++) dist[j] = -1;
        return;
    }
    while (j < b) {
        if (F->blk != NULL && F->blk_off[j] >= 0) {
            zsr_view v = zsr_block_view(F->blk + F->blk_off[j]);
            if (j + v.nb <= b) {
                zsr_run(variant, F, i, &v, w);
                for (k = 0; k < v.nb; k++) dist[j + k] = w->out[k];
                j += v.nb;
                continue;
            }
        }
        if (F->rec_off[j] < 0) dist[j] = -1;
        else zsr_add(variant, F, i, j, j, w, m, dist);
        j++;
    }
}

/* dist[j] = TED(i, j) for i < j < n_trees, each pair in the orientation of fewer DP cells
 * when mirror is given (cost_l/cost_r: each tree's Zhang–Shasha cost in both orientations);
 * -1 for the pairs left to the classic kernel. Runs of consecutive trees in one orientation
 * go to zsr_range: with trees sorted by cost_r / cost_l they are a prefix and a suffix. */
static void zsr_row(int variant, const zsr_forest* F0, const zsr_forest* F1, const int64_t* cost_l,
                    const int64_t* cost_r, int64_t i, int64_t n_trees, zsr_work* w, int32_t* dist) {
    int64_t a = i + 1, b;
    w->nb[0] = w->nb[1] = 0;
    w->width[0] = w->width[1] = 0;
    while (a < n_trees) {
        int m = F1 != NULL && cost_r[i] * cost_r[a] < cost_l[i] * cost_l[a];
        for (b = a + 1; b < n_trees; b++)
            if ((F1 != NULL && cost_r[i] * cost_r[b] < cost_l[i] * cost_l[b]) != m) break;
        zsr_range(variant, m ? F1 : F0, i, a, b, w, m, dist);
        a = b;
    }
    zsr_flush(variant, F0, i, w, 0, dist);
    if (F1 != NULL) zsr_flush(variant, F1, i, w, 1, dist);
}

/* TED(A, B) of one pair of validated trees, or -1 when one does not fit (A over ZSR_MAX_NODES
 * nodes or empty, B too, or B wider than ZSR_CAP columns): w's buffers hold A's rows. */
static int32_t zsr_one(int variant, const int32_t* alab, const int32_t* alml, const int32_t* akr, int64_t an,
                       int64_t ank, const int32_t* blab, const int32_t* blml, const int32_t* bkr, int64_t bn,
                       int64_t bnk, zsr_work* w) {
    const int32_t* recs[1];
    zsr_view v;
    if (an < 1 || an > ZSR_MAX_NODES || bn < 1 || bn > ZSR_MAX_NODES) return -1;
    if (zsr_width(blml, bkr, bnk) > ZSR_CAP) return -1;
    zsr_build_tree(blab, blml, bkr, bn, bnk, w->rec, w->scratch);
    recs[0] = w->rec;
    zsr_batch_build(&w->B, recs, 1);
    v = zsr_batch_view(&w->B);
    zsr_rows(variant, alab, alml, akr, an, ank, &v, w->td, w->fd, w->out);
    return w->out[0];
}

/* dist[k] = TED(left[k], right[k]) for pairs sorted by left (order[k] gives the position of
 * the k-th sorted pair in the caller's arrays); -1 where the classic kernel must do it. */
static void zsr_pairs(int variant, const zsr_forest* F, const int64_t* left, const int64_t* right,
                      const int64_t* order, int64_t n_pairs, zsr_work* w, int32_t* dist) {
    int64_t k = 0;
    while (k < n_pairs) {
        int64_t i = left[order[k]], e = k;
        while (e < n_pairs && left[order[e]] == i) e++;
        if (!zsr_rows_fit(F, i)) {
            for (; k < e; k++) dist[order[k]] = -1;
            continue;
        }
        w->nb[0] = 0;
        w->width[0] = 0;
        for (; k < e; k++) {
            int64_t j = right[order[k]];
            if (F->rec_off[j] < 0) { dist[order[k]] = -1; continue; }
            zsr_add(variant, F, i, j, order[k], w, 0, dist);
        }
        zsr_flush(variant, F, i, w, 0, dist);
    }
}

#endif
