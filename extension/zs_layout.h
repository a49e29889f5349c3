/* Column layouts of the combined-row Zhang–Shasha (zs_rows.h explains the method): each tree's
 * record, a batch of trees laid side by side by level, and blocks of trees laid out once. */
#ifndef SPACY_AGREEMENT_ZS_LAYOUT_H
#define SPACY_AGREEMENT_ZS_LAYOUT_H

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
 * the left term never wins at a first column (fd[r][1] <= r < fd[r][0] + 1).
 *
 * A segment's values depend only on its subtree (the labels and leftmost leaves of nodes
 * lj..j, which its columns' lab and q spell), so a batch lays out each distinct segment once:
 * a keyroot subtree met again, in another tree of the batch or in the same tree, reads the
 * columns of the first (its homes and root column point there). On dependency trees that is
 * about one column in twelve of a 1,024-column batch, mostly leaves and small subtrees. */
#define ZSR_HSLOTS (2 * ZSR_CAP)
#define ZSR_LEAF_LABELS 64

typedef struct {
    int32_t Wp, nlev, nb;
    int32_t lev[ZSR_MAX_NODES + 2];
    int32_t gidx[ZSR_CAP + 2 * ZSR_PAD], home[ZSR_CAP + 2 * ZSR_PAD], qv[ZSR_CAP + 2 * ZSR_PAD];
    int32_t on[ZSR_CAP + 2 * ZSR_PAD], lab[ZSR_CAP + 2 * ZSR_PAD], off[ZSR_CAP + 2 * ZSR_PAD];
    int32_t pos_[ZSR_PAD + ZSR_CAP + 2 * ZSR_PAD]; /* pos = pos_ + ZSR_PAD: pos[-1] is readable */
    int32_t rootcol[ZSR_CAP];
    /* first rows (zs_kernels.h): each column's subtree size, the labels in that subtree and in
     * the segment's forest up to the column (its prefix), one bit per distinct label of the
     * batch (blab, nlab of them; nlab < 0: more than ZSR_LEAF_LABELS) in two halves */
    int32_t tsize[ZSR_CAP + 2 * ZSR_PAD], mlo[ZSR_CAP + 2 * ZSR_PAD], mhi[ZSR_CAP + 2 * ZSR_PAD];
    int32_t plo[ZSR_CAP + 2 * ZSR_PAD], phi[ZSR_CAP + 2 * ZSR_PAD];
    int32_t blab[ZSR_LEAF_LABELS], nlab;
    int32_t cursor[ZSR_MAX_NODES + 2], nseg_lev[ZSR_MAX_NODES + 2];
    /* distinct segments: where they were first met (record columns q, lab), width, level,
     * order within the level, first batch column; and every record column's segment */
    const int32_t *sq[ZSR_CAP], *slab[ZSR_CAP];
    int32_t sw[ZSR_CAP], slev[ZSR_CAP], sord[ZSR_CAP], sstart[ZSR_CAP], colseg[ZSR_CAP];
    /* open addressing over the distinct segments of the build numbered hgen (zero-initialised) */
    uint32_t hgen[ZSR_HSLOTS], hash[ZSR_HSLOTS], gen;
    int32_t hseg[ZSR_HSLOTS];
    /* the bits of the batch's labels, by label (256 slots, numbered by gen as above) */
    uint32_t lgen[256];
    int32_t lkey[256], lbit[256];
} zsr_batch;

/* What the kernels read of a batch: a zsr_batch built for one row, or a block stored once
 * for all rows (zsr_build_blocks). The column arrays hold Wp + ZSR_PAD entries. */
typedef struct {
    int32_t Wp, nlev, nb, nlab;
    const int32_t *lev, *gidx, *home, *qv, *on, *lab, *off, *pos, *rootcol, *tsize, *mlo, *mhi, *plo, *phi, *blab;
} zsr_view;

static zsr_view zsr_batch_view(const zsr_batch* B) {
    zsr_view v;
    v.Wp = B->Wp; v.nlev = B->nlev; v.nb = B->nb; v.nlab = B->nlab;
    v.lev = B->lev; v.gidx = B->gidx; v.home = B->home; v.qv = B->qv; v.on = B->on; v.lab = B->lab;
    v.off = B->off; v.pos = B->pos_ + ZSR_PAD; v.rootcol = B->rootcol;
    v.tsize = B->tsize; v.mlo = B->mlo; v.mhi = B->mhi; v.plo = B->plo; v.phi = B->phi; v.blab = B->blab;
    return v;
}

/* The bit of label x among the batch's labels (blab), or -1 where the batch has none. */
static int32_t zsr_label_bit(const zsr_view* B, int32_t x) {
    int32_t b;
    for (b = 0; b < B->nlab; b++) if (B->blab[b] == x) return b;
    return -1;
}

/* Offsets of the prefix minimum: off[c] = c + ZSR_STEP * s(c), where s(c) numbers the segments
 * in column order (each level's from that level's first column on, so that levels never
 * overlap, and every padding column one of its own): + 1 per column inside a segment, more
 * than ZSR_STEP (more than any row index of A) from one segment to the next, so that no
 * value crosses a segment's start. */
#define ZSR_STEP (ZSR_MAX_NODES + 1)

/* The distinct segment of w columns with these q and lab (first met at level l), numbered in
 * the order met; new ones get the next place in their level. */
static int32_t zsr_segment(zsr_batch* B, const int32_t* q, const int32_t* lb, int32_t w, int32_t l,
                           int32_t* nseg) {
    uint32_t h = 2166136261u ^ (uint32_t)w, slot;
    int32_t c, s;
    for (c = 0; c < w; c++) h = ((h ^ (uint32_t)q[c]) * 16777619u ^ (uint32_t)lb[c]) * 16777619u;
    for (slot = h & (ZSR_HSLOTS - 1); B->hgen[slot] == B->gen; slot = (slot + 1) & (ZSR_HSLOTS - 1)) {
        s = B->hseg[slot];
        if (B->hash[slot] == h && B->sw[s] == w && !memcmp(B->sq[s], q, sizeof(int32_t) * w)
            && !memcmp(B->slab[s], lb, sizeof(int32_t) * w))
            return s;
    }
    s = (*nseg)++;
    B->hgen[slot] = B->gen;
    B->hash[slot] = h;
    B->hseg[slot] = s;
    B->sq[s] = q; B->slab[s] = lb; B->sw[s] = w; B->slev[s] = l;
    B->sord[s] = ++B->nseg_lev[l];
    B->sstart[s] = B->cursor[l];
    B->cursor[l] += w;
    return s;
}

/* The first-row columns of the distinct segments: the size of each column's subtree (its
 * node's lml to the node: positions q + 1 .. p of its segment), the labels in it and the labels
 * of positions 1 .. p, as bits over the batch's labels; nlab = -1 (first rows computed as path
 * rows) past ZSR_LEAF_LABELS labels. The subtree masks in one pass per segment: the subtrees
 * ending before p inside p's own are its children's, merged already (a stack of them). */
static void zsr_leaf_columns(zsr_batch* B, int32_t nseg) {
    int32_t s, p, top;
    int32_t st_start[ZSR_MAX_NODES + 1];
    uint64_t st_mask[ZSR_MAX_NODES + 1];
    B->nlab = 0;
    for (s = 0; s < nseg; s++) {
        int32_t c1 = B->sstart[s];
        uint64_t prefix = 0;
        for (p = 1, top = 0; p <= B->sw[s]; p++, c1++) {
            int32_t x = B->slab[s][p - 1], q = B->sq[s][p - 1], b;
            uint32_t slot = ((uint32_t)x * 2654435761u) >> 24; /* 256 slots */
            uint64_t m;
            while (B->lgen[slot] == B->gen && B->lkey[slot] != x) slot = (slot + 1) & 255u;
            if (B->lgen[slot] == B->gen) {
                b = B->lbit[slot];
            } else {
                if (B->nlab == ZSR_LEAF_LABELS) { B->nlab = -1; return; }
                b = B->nlab;
                B->blab[B->nlab++] = x;
                B->lgen[slot] = B->gen; B->lkey[slot] = x; B->lbit[slot] = b;
            }
            m = (uint64_t)1 << b;
            while (top > 0 && st_start[top - 1] > q) m |= st_mask[--top];
            st_start[top] = q + 1; st_mask[top] = m; top++;
            prefix |= (uint64_t)1 << b;
            B->tsize[c1] = p - q;
            B->mlo[c1] = (int32_t)(uint32_t)m;
            B->mhi[c1] = (int32_t)(uint32_t)(m >> 32);
            B->plo[c1] = (int32_t)(uint32_t)prefix;
            B->phi[c1] = (int32_t)(uint32_t)(prefix >> 32);
        }
    }
}

/* Lays the records recs[0..nb) side by side (total width of the records <= ZSR_CAP), each
 * distinct segment once. */
static void zsr_batch_build(zsr_batch* B, const int32_t* const* recs, int32_t nb) {
    int32_t k, l, nlev = 0, c, W = 0, Wp, nseg = 0, base, s;
    int32_t* pos = B->pos_ + ZSR_PAD;
    if (++B->gen == 0) { /* the numbering wrapped: forget every slot */
        memset(B->hgen, 0, sizeof(B->hgen));
        memset(B->lgen, 0, sizeof(B->lgen));
        B->gen = 1;
    }
    for (k = 0; k < nb; k++) if (recs[k][1] > nlev) nlev = recs[k][1];
    for (l = 0; l <= nlev; l++) B->cursor[l] = B->nseg_lev[l] = 0;
    /* 1. the distinct segments, placed within their level */
    for (k = 0, base = 0; k < nb; base += recs[k][0], k++) {
        const int32_t* r = recs[k];
        int32_t tW = r[0], tn = r[1];
        const int32_t *lev = r + ZSR_HEAD, *qv = lev + tn + 1, *lb = qv + 3 * tW, *ps = lb + tW;
        for (l = 0; l < tn; l++) {
            int32_t c0 = lev[l];
            while (c0 < lev[l + 1]) {
                int32_t e = c0 + 1;
                while (e < lev[l + 1] && ps[e] != 1) e++;
                s = zsr_segment(B, qv + c0, lb + c0, e - c0, l, &nseg);
                for (; c0 < e; c0++) B->colseg[base + c0] = s;
            }
        }
    }
    for (l = 0; l < nlev; l++) {
        int32_t width = B->cursor[l];
        B->lev[l] = W;
        W += width;
    }
    Wp = (W + ZSR_PAD - 1) / ZSR_PAD * ZSR_PAD;
    B->lev[nlev] = Wp;
    B->Wp = Wp;
    B->nlev = nlev;
    B->nb = nb;
    for (s = 0; s < nseg; s++) B->sstart[s] += B->lev[B->slev[s]];
    /* 2. the columns of each distinct segment, then every tree's homes and root column */
    for (s = 0; s < nseg; s++) {
        int32_t c1 = B->sstart[s], sg = B->lev[B->slev[s]] + B->sord[s], p;
        for (p = 1; p <= B->sw[s]; p++, c1++) {
            int32_t q = B->sq[s][p - 1];
            B->gidx[c1] = q == 0 ? -1 : c1 - p + q;
            B->qv[c1] = q;
            B->on[c1] = q != 0 ? 0 : p == 1 ? -2 : -1;
            B->lab[c1] = B->slab[s][p - 1];
            B->off[c1] = c1 + ZSR_STEP * sg;
            pos[c1] = p;
        }
    }
    zsr_leaf_columns(B, nseg);
    for (k = 0, base = 0; k < nb; base += recs[k][0], k++) {
        const int32_t* r = recs[k];
        int32_t tW = r[0], tn = r[1];
        const int32_t *lev = r + ZSR_HEAD, *qv = lev + tn + 1, *hcol = qv + tW, *ps = hcol + 3 * tW;
        for (c = 0; c < tW; c++) {
            int32_t hc = hcol[c], hs = B->colseg[base + hc];
            s = B->colseg[base + c];
            /* the homes of a segment met first in this tree (its columns are this tree's) */
            if (B->sq[s] == qv + c - (ps[c] - 1))
                B->home[B->sstart[s] + ps[c] - 1] = B->sstart[hs] + ps[hc] - 1;
        }
        B->rootcol[k] = B->sstart[B->colseg[base + r[2]]] + ps[r[2]] - 1;
    }
    for (c = W; c < Wp + ZSR_PAD; c++) {
        B->gidx[c] = c; B->home[c] = Wp; B->qv[c] = 0; B->on[c] = 0; B->lab[c] = -1; pos[c] = 0;
        B->off[c] = c + ZSR_STEP * (c + 1);
        B->tsize[c] = ZSR_BIG; /* as a path row leaves them: td[x][Wp] */
        B->mlo[c] = B->mhi[c] = B->plo[c] = B->phi[c] = 0;
    }
    pos[-1] = 0;
}

/* Buffers for a tree A of n rows against a batch: td n * ZSR_STRIDE,
 * fd n * ZSR_STRIDE + ZSR_PAD ints (rows are Wp + 2 * ZSR_PAD <= ZSR_STRIDE apart). */
#define ZSR_STRIDE (ZSR_CAP + 2 * ZSR_PAD)

/* ---------------------------------------------------------------- blocks
 * The trees of a forest cut once into blocks of consecutive eligible trees of at most
 * ZSR_TARGET columns (a wider tree alone), each block laid out as a batch and stored:
 * Wp, nlev, nb, nlab, lev[nlev + 1], rootcol[nb], blab[ZSR_LEAF_LABELS], pos (ZSR_PAD + Wp +
 * ZSR_PAD, pos[-1] = 0), then gidx, home, qv, on, lab, off, tsize, mlo, mhi, plo, phi (Wp + ZSR_PAD
 * each). A row meeting a whole block reads it as it
 * is instead of laying its trees out again. */

/* Batch width in columns: wide enough that a row is long, small enough for L1/L2. */
#define ZSR_TARGET 1024

static int64_t zsr_block_ints(int32_t Wp, int32_t nlev, int32_t nb) {
    return 4 + nlev + 1 + nb + ZSR_LEAF_LABELS + 2 * ZSR_PAD + Wp + 11 * ((int64_t)Wp + ZSR_PAD);
}

static zsr_view zsr_block_view(const int32_t* m) {
    zsr_view v;
    int64_t cols;
    v.Wp = m[0]; v.nlev = m[1]; v.nb = m[2]; v.nlab = m[3];
    cols = (int64_t)v.Wp + ZSR_PAD;
    v.lev = m + 4;
    v.rootcol = v.lev + v.nlev + 1;
    v.blab = v.rootcol + v.nb;
    v.pos = v.blab + ZSR_LEAF_LABELS + ZSR_PAD;
    v.gidx = v.pos + cols;
    v.home = v.gidx + cols; v.qv = v.home + cols; v.on = v.qv + cols; v.lab = v.on + cols; v.off = v.lab + cols;
    v.tsize = v.off + cols; v.mlo = v.tsize + cols; v.mhi = v.mlo + cols; v.plo = v.mhi + cols; v.phi = v.plo + cols;
    return v;
}

static void zsr_block_store(const zsr_batch* B, int32_t* m) {
    zsr_view v;
    int64_t cols = (int64_t)B->Wp + ZSR_PAD;
    m[0] = B->Wp; m[1] = B->nlev; m[2] = B->nb; m[3] = B->nlab;
    v = zsr_block_view(m);
    memcpy((int32_t*)v.lev, B->lev, sizeof(int32_t) * (B->nlev + 1));
    memcpy((int32_t*)v.rootcol, B->rootcol, sizeof(int32_t) * B->nb);
    if (B->nlab > 0) memcpy((int32_t*)v.blab, B->blab, sizeof(int32_t) * B->nlab);
    memcpy((int32_t*)v.tsize, B->tsize, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.mlo, B->mlo, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.mhi, B->mhi, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.plo, B->plo, sizeof(int32_t) * cols);
    memcpy((int32_t*)v.phi, B->phi, sizeof(int32_t) * cols);
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

#endif
