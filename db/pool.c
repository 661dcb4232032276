/* pool: read connections; see pool.h. */
#include "db/pool.h"
#include "common/xalloc.h"

#include <pthread.h>

struct db_pool {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    int n, nfree;
    db **all;
    db **free_list;
};

int db_pool_open(db_pool **out, const char *path, int n, struct err *err)
{
    struct db_options opt = {DB_SYNC_NORMAL, 1, 10000};
    db_pool *p = xcalloc(1, sizeof *p);
    int i;

    *out = NULL;
    if (p == NULL)
        return err_nomem(err);
    p->all = xcalloc((size_t)n, sizeof *p->all);
    p->free_list = xcalloc((size_t)n, sizeof *p->free_list);
    if (p->all == NULL || p->free_list == NULL) {
        xfree(p->all);
        xfree(p->free_list);
        xfree(p);
        return err_nomem(err);
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->freed, NULL);
    p->n = n;
    for (i = 0; i < n; i++) {
        if (db_open(&p->all[i], path, &opt, err) != 0) {
            db_pool_close(p);
            return -1;
        }
        p->free_list[p->nfree++] = p->all[i];
    }
    *out = p;
    return 0;
}

void db_pool_close(db_pool *p)
{
    int i;
    if (p == NULL)
        return;
    for (i = 0; i < p->n; i++)
        db_close(p->all[i]);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->freed);
    xfree(p->all);
    xfree(p->free_list);
    xfree(p);
}

db *db_pool_get(db_pool *p)
{
    db *d;
    pthread_mutex_lock(&p->lock);
    while (p->nfree == 0)
        pthread_cond_wait(&p->freed, &p->lock);
    d = p->free_list[--p->nfree];
    pthread_mutex_unlock(&p->lock);
    return d;
}

void db_pool_put(db_pool *p, db *d)
{
    pthread_mutex_lock(&p->lock);
    p->free_list[p->nfree++] = d;
    pthread_cond_signal(&p->freed);
    pthread_mutex_unlock(&p->lock);
}
