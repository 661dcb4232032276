/* rbtree: N insertions of distinct random keys into an empty red-black tree
 * on one rank, pinned (held-out data, never used to choose the selection):
 * the textbook insertion (descent, then recolouring and rotations up the
 * path), nodes of 40 bytes taken in turn from a pool, a sentinel for the
 * leaves. The keys are splitmix64 of 0..N-1 scaled by a seed of N (a
 * bijection: distinct), drawn before anything is timed; one build clears
 * the tree and inserts all N (the pool 40 N bytes: 40 KiB at N = 2^10,
 * 10 MiB at 2^18, past L2). Usage:
 *   rbtree N...  prints "rbtree_n N seconds" for each N (2^8 <= N <= 2^22;
 *                timing.h's least_pass, about 0.2 s of samples).
 * Check (not timed): an in-order walk meets N keys in increasing order, the
 * root is black, no red node has a red child, and every path from the root
 * to a leaf meets the same number of black nodes. Times are the least of
 * one build (timing.h): on a machine shared with other programs, other work
 * only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

struct node {
    uint64_t key;
    struct node *left, *right, *parent;
    int red;
};

struct tree {
    long n;
    const uint64_t *keys;
    struct node *pool, nil, *root;
};

static void rotate_left(struct tree *t, struct node *x)
{
    struct node *y = x->right;

    x->right = y->left;
    if (y->left != &t->nil)
        y->left->parent = x;
    y->parent = x->parent;
    if (x->parent == &t->nil)
        t->root = y;
    else if (x == x->parent->left)
        x->parent->left = y;
    else
        x->parent->right = y;
    y->left = x;
    x->parent = y;
}

static void rotate_right(struct tree *t, struct node *x)
{
    struct node *y = x->left;

    x->left = y->right;
    if (y->right != &t->nil)
        y->right->parent = x;
    y->parent = x->parent;
    if (x->parent == &t->nil)
        t->root = y;
    else if (x == x->parent->right)
        x->parent->right = y;
    else
        x->parent->left = y;
    y->right = x;
    x->parent = y;
}

static void insert(struct tree *t, struct node *z)
{
    struct node *y = &t->nil, *x = t->root;

    while (x != &t->nil) {
        y = x;
        x = z->key < x->key ? x->left : x->right;
    }
    z->parent = y;
    if (y == &t->nil)
        t->root = z;
    else if (z->key < y->key)
        y->left = z;
    else
        y->right = z;
    z->left = z->right = &t->nil;
    z->red = 1;
    while (z->parent->red) {
        struct node *g = z->parent->parent;
        if (z->parent == g->left) {
            struct node *u = g->right;
            if (u->red) {
                z->parent->red = 0;
                u->red = 0;
                g->red = 1;
                z = g;
            } else {
                if (z == z->parent->right) {
                    z = z->parent;
                    rotate_left(t, z);
                }
                z->parent->red = 0;
                z->parent->parent->red = 1;
                rotate_right(t, z->parent->parent);
            }
        } else {
            struct node *u = g->left;
            if (u->red) {
                z->parent->red = 0;
                u->red = 0;
                g->red = 1;
                z = g;
            } else {
                if (z == z->parent->left) {
                    z = z->parent;
                    rotate_right(t, z);
                }
                z->parent->red = 0;
                z->parent->parent->red = 1;
                rotate_left(t, z->parent->parent);
            }
        }
    }
    t->root->red = 0;
}

static void build(void *arg)
{
    struct tree *t = arg;
    long i;

    t->nil.red = 0;
    t->nil.left = t->nil.right = t->nil.parent = &t->nil;
    t->root = &t->nil;
    for (i = 0; i < t->n; i++) {
        t->pool[i].key = t->keys[i];
        insert(t, &t->pool[i]);
    }
}

/* The black height below x, or -1 if a rule is broken; counts the keys in
 * order into *seen, *last the last key met. */
static int walk(const struct tree *t, const struct node *x, long *seen, uint64_t *last)
{
    int l, r;

    if (x == &t->nil)
        return 1;
    if (x->red && (x->left->red || x->right->red))
        return -1;
    l = walk(t, x->left, seen, last);
    if (l < 0 || (*seen > 0 && x->key <= *last))
        return -1;
    *last = x->key;
    (*seen)++;
    r = walk(t, x->right, seen, last);
    if (r < 0 || r != l)
        return -1;
    return l + !x->red;
}

static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

int main(int argc, char **argv)
{
    int rank, size, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10), i, seen = 0;
        struct tree t;
        uint64_t *keys, last = 0;
        double tm;

        if (size != 1 || n < 256 || n > (1L << 22))
            MPI_Abort(MPI_COMM_WORLD, 1);
        keys = malloc((size_t)n * sizeof *keys);
        t.pool = malloc((size_t)n * sizeof *t.pool);
        if (keys == NULL || t.pool == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (i = 0; i < n; i++)
            keys[i] = splitmix((uint64_t)i + 0x9E37ULL * (uint64_t)n);
        t.n = n;
        t.keys = keys;
        tm = least_pass(build, &t, 0.2);
        if (t.root->red || walk(&t, t.root, &seen, &last) < 0 || seen != n) {
            fprintf(stderr, "rbtree: N %ld: the tree is not a red-black tree of N keys\n",
                    n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("rbtree_n %ld %.6e\n", n, tm);
        free(keys);
        free(t.pool);
    }
    MPI_Finalize();
    return 0;
}
