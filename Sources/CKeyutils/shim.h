#ifndef HEALTHLOG_CKEYUTILS_SHIM_H
#define HEALTHLOG_CKEYUTILS_SHIM_H
#include <keyutils.h>
#endif
