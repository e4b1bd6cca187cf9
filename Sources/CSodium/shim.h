#ifndef HEALTHLOG_CSODIUM_SHIM_H
#define HEALTHLOG_CSODIUM_SHIM_H
#include <sodium.h>
#endif
