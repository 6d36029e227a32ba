#include "sha256.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

void sha256(const void *data, size_t len, uint8_t out[32])
{
    unsigned int n = 0;
    /* EVP_Digest runs init/update/final on a context of its own; it fails only on allocation. */
    if (!EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) || n != 32) {
        fprintf(stderr, "tabled: SHA-256 through libcrypto failed\n");
        abort();
    }
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t d[32];
    sha256(data, len, d);
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[64] = '\0';
}
