/*
 * invites.h — creation codes (issue 28 item 5): the operator (the host token) hands out a code
 * that lets a person create a campaign and become its GM, up to a number of campaigns; the host
 * token never leaves the operator. A code is a token row of the host file (campaign STORE_HOST,
 * seat "invite:<id>", only its SHA-256 kept) and the invite itself a row of `invites` in the host
 * file: how many campaigns it may still make, how many it made, a note for the operator.
 */
#ifndef TABLED_INVITES_H
#define TABLED_INVITES_H

#include <jansson.h>
#include <stdint.h>

#include "store.h"

#define STORE_INVITE_SEAT "invite:" /* the seat of a creation code's token row: + the invite id */

/* Records invite id (new) that may make `campaigns` campaigns, in the batch's host transaction. */
int store_invite_put(store *st, const char *id, int campaigns, const char *note, int64_t at_ms,
                     tb_err *err);

/* Takes one campaign of invite id: TB_OK and *left (what it may still make after this one);
 * TB_FORBIDDEN when it has none left (used up or revoked) or does not exist. */
int store_invite_take(store *st, const char *id, int *left, tb_err *err);

/* Revokes invite id (it makes no more campaigns; its code still says hello). TB_NOT_FOUND when
 * there is no such invite. */
int store_invite_revoke(store *st, const char *id, tb_err *err);

/* Every invite, oldest first: [{invite, left, made, note?, at_ms}] (a new reference). */
int store_invites_json(store *st, json_t **out, tb_err *err);

#endif
