// SHA-256 from the system's OpenSSL libcrypto (libssl-dev), for the tests' fake server: it checks
// PKCE challenges with a hash that is not Feedline's own.
//
// The system library instead of swift-crypto: swift-crypto compiles BoringSSL from source, which
// took minutes of every clean CI build (twice: plain and ThreadSanitizer) for one hash function.
#ifndef FEEDLINE_CLIBCRYPTO_SHIM_H
#define FEEDLINE_CLIBCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/sha.h>

/// Writes SHA-256 of `length` bytes at `data` into `digest` (32 bytes).
static inline void feedline_sha256(const void *data, size_t length, unsigned char *digest) {
    SHA256((const unsigned char *)data, length, digest);
}

#endif
