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

/* zs_layout.h: records, batches and blocks; zs_kernels.h: the row functions and their choice;
 * here: one tree against the batches of a forest (all pairs, scattered pairs, one pair). */
#include "zs_kernels.h"

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

/* ---------------------------------------------------------------- groups of rows
 * dist[k * n_trees + j] = TED(i0 + k, j) for the rows i0 <= i < i0 + g (g <= ZSR_GROUP) and all
 * j > i (-1: left to the classic kernel), each pair in the orientation of fewer DP cells when
 * F1 (the mirrored forest) is given, cost_l/cost_r being each tree's Zhang–Shasha cost in both.
 * The stored blocks a row meets whole come first, block by block, each for every row of the
 * group that meets it: a block is read from memory once for the group instead of once for each
 * row (the blocks of a forest are far bigger than the caches; about an eighth less time on the
 * PCEDT-scale corpus than row by row). Then each row's other trees, queued into batches. */
#define ZSR_GROUP 8

/* Whether the pair (i, j) has fewer DP cells mirrored. */
static int zsr_side(const zsr_forest* F1, const int64_t* cost_l, const int64_t* cost_r, int64_t i, int64_t j) {
    return F1 != NULL && cost_r[i] * cost_r[j] < cost_l[i] * cost_l[j];
}

/* The trees a <= j < b against row i in orientation m, but for the whole blocks (zsr_group's
 * first part): queued, their distances in dist[j] when the batch is run. */
static void zsr_range(int variant, const zsr_forest* F, int64_t i, int64_t a, int64_t b, zsr_work* w, int m,
                           int32_t* dist) {
    int64_t j = a;
    while (j < b) {
        if (F->blk != NULL && F->blk_off[j] >= 0) {
            int32_t nb = F->blk[F->blk_off[j] + 2];
            if (j + nb <= b) { j += nb; continue; }
        }
        if (F->rec_off[j] < 0) dist[j] = -1;
        else zsr_add(variant, F, i, j, j, w, m, dist);
        j++;
    }
}

static void zsr_group(int variant, const zsr_forest* F0, const zsr_forest* F1, const int64_t* cost_l,
                      const int64_t* cost_r, int64_t i0, int g, int64_t n_trees, zsr_work* w, int32_t* dist) {
    int64_t first[ZSR_GROUP], j;
    int k, m;
    /* with trees sorted by cost ratio, row k's pairs are mirrored (orientation 1) up to first[k]
     * and not after (F1 NULL: none are); where the order is another, a pair past first[k] is
     * computed unmirrored, the same distance with more cells */
    for (k = 0; k < g; k++) {
        int64_t i = i0 + k;
        first[k] = i + 1;
        if (F1 != NULL)
            while (first[k] < n_trees && zsr_side(F1, cost_l, cost_r, i, first[k])) first[k]++;
    }
    for (m = 0; m < (F1 != NULL ? 2 : 1); m++) {
        const zsr_forest* F = m ? F1 : F0;
        if (F->blk == NULL) continue;
        for (j = i0 + 1; j < n_trees;) {
            zsr_view v;
            if (F->blk_off[j] < 0) { j++; continue; }
            v = zsr_block_view(F->blk + F->blk_off[j]);
            for (k = 0; k < g; k++) {
                int64_t i = i0 + k, lo = m ? i + 1 : first[k], hi = m ? first[k] : n_trees, t;
                if (j < lo || j + v.nb > hi || !zsr_rows_fit(F, i)) continue;
                zsr_run(variant, F, i, &v, w);
                for (t = 0; t < v.nb; t++) dist[k * n_trees + j + t] = w->out[t];
            }
            j += v.nb;
        }
    }
    for (k = 0; k < g; k++) {
        int64_t i = i0 + k;
        int32_t* row = dist + k * n_trees;
        w->nb[0] = w->nb[1] = 0;
        w->width[0] = w->width[1] = 0;
        if (!zsr_rows_fit(F0, i)) {
            for (j = i + 1; j < n_trees; j++) row[j] = -1;
            continue;
        }
        if (i + 1 < first[k]) zsr_range(variant, F1, i, i + 1, first[k], w, 1, row);
        zsr_range(variant, F0, i, first[k], n_trees, w, 0, row);
        zsr_flush(variant, F0, i, w, 0, row);
        if (F1 != NULL) zsr_flush(variant, F1, i, w, 1, row);
    }
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
