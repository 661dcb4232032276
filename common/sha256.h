/* sha256: FIPS 180-4 SHA-256, for hashing write tokens (nothing secret is
 * stored). Also a constant-time comparison for digests. */
#ifndef PROPHECY_SHA256_H
#define PROPHECY_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

/* Writes the digest of data[0..n) to out. */
void sha256(const void *data, size_t n, uint8_t out[SHA256_LEN]);

/* HMAC-SHA256 (RFC 2104) of data[0..n) under key[0..klen) into out. Returns
 * 0, or -1 on out of memory (out is then zeroed). */
int hmac_sha256(const void *key, size_t klen, const void *data, size_t n,
                uint8_t out[SHA256_LEN]);

/* Returns 1 when a and b are equal, taking the same time whatever they hold. */
int ct_equal(const uint8_t *a, const uint8_t *b, size_t n);

/* Fills buf with n cryptographically random bytes (getrandom / /dev/urandom).
 * Returns 0 or -1. */
int random_bytes(void *buf, size_t n);

#endif
