/*
 * sha256.h — SHA-256 (FIPS 180-4) of a buffer, used to store tokens only as hashes. A thin
 * wrapper over OpenSSL's libcrypto (already linked through libwebsockets), so the project keeps
 * no hand-written cryptographic primitive. The digests are the standard ones: a database written
 * by tabled 0.1.0 (which had its own implementation) holds the very same hashes.
 */
#ifndef TABLED_SHA256_H
#define TABLED_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes the 32-byte digest of data[0..len) to out. Borrows data. Aborts the process only if
 * libcrypto cannot run the digest (it fails only when out of memory), like xmalloc. */
void sha256(const void *data, size_t len, uint8_t out[32]);

/* Writes the digest as 64 lower-case hex characters plus a NUL to hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
