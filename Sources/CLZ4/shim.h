#ifndef HEALTHLOG_CLZ4_SHIM_H
#define HEALTHLOG_CLZ4_SHIM_H
#include <lz4.h>
#include <lz4frame.h>
#endif
