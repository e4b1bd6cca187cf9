#ifndef HEALTHLOG_CCRYPTO_SHIM_H
#define HEALTHLOG_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
