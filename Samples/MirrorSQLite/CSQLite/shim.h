#ifndef HEALTHLOG_CSQLITE_SHIM_H
#define HEALTHLOG_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT (bind a copy of the value), which Swift cannot import as a macro.
static inline sqlite3_destructor_type healthlog_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
