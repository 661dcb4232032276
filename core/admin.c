/* admin: the store work of the maintenance commands; see admin.h. */
#include "core/admin.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

int admin_open(const char *path, int may_create, int read_only, db **out, struct err *err)
{
    struct db_options opt = {DB_SYNC_FULL, read_only, 10000};
    struct stat st;

    *out = NULL;
    if (!may_create && db_is_file(path) && stat(path, &st) != 0) {
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "%s", strerror(errno));
        return 1;
    }
    return db_open(out, path, &opt, err) != 0 ? -1 : 0;
}

int admin_check(db *d, const char *path, char **problems, const char **covered,
                struct err *err)
{
    int sound = db_check(d, problems, err);
    *covered = db_is_file(path) ? "every page, index and record checked"
                                : "the server answers and the schema is this prophecyd's";
    return sound;
}
