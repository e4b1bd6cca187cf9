#ifndef HEALTHLOG_CCRYPTO_SHIM_H
#define HEALTHLOG_CCRYPTO_SHIM_H
// The import hashes every record with SHA-256's own calls (SHA256_Init, …), which
// OpenSSL 3 marks deprecated in favour of EVP: an EVP digest allocates its context again
// at every init. Defined before any OpenSSL header, so they come without the warning.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/provider.h>
#include <openssl/core_dispatch.h>
#include <openssl/params.h>
#include <openssl/sha.h>
#endif
