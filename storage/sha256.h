/*
 * sha256.h — FIPS 180-4 SHA-256, used to store tokens only as hashes. Pure, no state but the
 * caller's.
 */
#ifndef TABLED_SHA256_H
#define TABLED_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes the 32-byte digest of data[0..len) to out. */
void sha256(const void *data, size_t len, uint8_t out[32]);

/* Writes the digest as 64 lower-case hex characters plus a NUL to hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
