#ifndef HEALTHLOG_CARCHIVE_SHIM_H
#define HEALTHLOG_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>

/* AE_IFREG is a cast macro, which Swift does not import. */
static const unsigned int healthlog_archive_regular_file = AE_IFREG;
#endif
