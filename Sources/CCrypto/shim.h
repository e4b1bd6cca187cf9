#ifndef HEALTHLOG_CCRYPTO_SHIM_H
#define HEALTHLOG_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/provider.h>
#include <openssl/core_dispatch.h>
#include <openssl/params.h>
#endif
