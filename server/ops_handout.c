/*
 * ops_handout.c — handouts: the GM adds one (a title, words, an optional small image), shows it
 * to everyone or to chosen seats, hides it again, deletes it. Rows of OPS_HANDOUT; see ops.h for
 * the handler contract and protocol/PROTOCOL.md ("Handouts") for the wire shapes.
 *
 * Where a handout lives decides who reads it (visibility is by path alone, DESIGN.md):
 *   /gm/handouts/<id>                 the GM's copy, always: {id, title, text, image?, to?, key?}
 *                                     (to: "all" or [seat...], key: its readers' id, while shown)
 *   /handouts/<key>                   shown to everyone: {id: <key>, title, text, image?}
 *   /private/<seat>/handouts/<key>    shown to that seat (the same shape)
 * The GM's id ("h<event seq>") counts the GM's secret events, so it never leaves /gm; readers get
 * a key of their own, "s<player seq>" of the show (server/playerseq.h): a count players see
 * anyway, so nothing the GM keeps (how many handouts wait unshown) shows in it.
 * A change touches only the places the handout leaves or enters, so a seat it is not shown to
 * receives no frame at all. The image travels inside the state as a data URL (PNG, JPEG, WebP or
 * GIF, base64, at most HANDOUT_MAX_IMAGE characters: a command fits one 64 KB message); no other
 * kind (no SVG: it could carry a script).
 */
#include <stdio.h>
#include <string.h>

#include "ops.h"

#define HANDOUT_MAX 50          /* handouts a campaign keeps */
#define HANDOUT_MAX_TEXT 4000   /* characters of a handout's words */
#define HANDOUT_MAX_IMAGE 60000 /* characters of the image's data URL (about 44 KB of image) */

/* /gm (a fresh shallow copy put back in place) and its handouts (the same). */
static json_t *gm_handouts(json_t *state)
{
    json_t *old = json_object_get(state, "gm");
    json_t *gm = json_is_object(old) ? json_copy(old) : json_object();
    json_object_set_new(state, "gm", gm);
    json_t *h = json_object_get(gm, "handouts");
    json_t *mine = json_is_object(h) ? json_copy(h) : json_object();
    json_object_set_new(gm, "handouts", mine);
    return mine;
}

/* The GM's copy of handout id (borrowed, read only), or NULL. */
static json_t *handout_get(json_t *state, const char *id)
{
    return json_object_get(json_object_get(json_object_get(state, "gm"), "handouts"), id);
}

/* Takes handout id out of /handouts and every /private/<seat>/handouts that holds it. */
static void handout_withdraw(json_t *state, const char *id)
{
    json_t *pub = json_object_get(state, "handouts");
    if (json_object_get(pub, id)) {
        json_t *copy = json_copy(pub);
        json_object_del(copy, id);
        json_object_set_new(state, "handouts", copy);
    }
    json_t *priv = json_object_get(state, "private");
    const char *seat;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(priv, tmp, seat, v)
    {
        json_t *h = json_object_get(v, "handouts");
        if (!json_object_get(h, id))
            continue;
        json_t *mine = json_copy(v);
        json_t *hs = json_copy(h);
        json_object_del(hs, id);
        json_object_set_new(mine, "handouts", hs);
        json_object_set_new(priv, seat, mine);
    }
}

/* What a reader gets of the GM's copy g: {id: key, title, text, image?}. */
static json_t *handout_public(json_t *g, const char *key)
{
    json_t *out = json_copy(g);
    json_object_del(out, "to");
    json_object_del(out, "key");
    json_object_set_new(out, "id", json_string(key));
    return out;
}

/* Puts handout g under key where `to` says ("all" or an array of seats). */
static void handout_place(json_t *state, json_t *g, const char *id, json_t *to)
{
    if (json_is_string(to)) {
        json_t *pub = json_object_get(state, "handouts");
        json_t *copy = json_is_object(pub) ? json_copy(pub) : json_object();
        json_object_set_new(copy, id, handout_public(g, id));
        json_object_set_new(state, "handouts", copy);
        return;
    }
    json_t *priv = ops_child(state, "private");
    size_t i;
    json_t *s;
    json_array_foreach(to, i, s)
    {
        const char *seat = json_string_value(s);
        json_t *old = json_object_get(priv, seat);
        json_t *mine = json_is_object(old) ? json_copy(old) : json_object();
        json_t *h = json_object_get(mine, "handouts");
        json_t *hs = json_is_object(h) ? json_copy(h) : json_object();
        json_object_set_new(hs, id, handout_public(g, id));
        json_object_set_new(mine, "handouts", hs);
        json_object_set_new(priv, seat, mine);
    }
}

int ops_check_image(const char *url, tb_err *err)
{
    static const char *const KINDS[] = {"data:image/png;base64,", "data:image/jpeg;base64,",
                                        "data:image/webp;base64,", "data:image/gif;base64,", NULL};
    const char *p = NULL;
    for (int k = 0; KINDS[k] && !p; k++)
        if (strncmp(url, KINDS[k], strlen(KINDS[k])) == 0)
            p = url + strlen(KINDS[k]);
    if (!p)
        return tb_fail(err, TB_BAD_REQUEST,
                       "image: a PNG, JPEG, WebP or GIF picture (a data: URL in base64)");
    size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    size_t pad = strspn(p + n, "=");
    if (n == 0 || p[n + pad] != '\0' || pad > 2 || (n + pad) % 4 != 0)
        return tb_fail(err, TB_BAD_REQUEST, "image: the picture's data is damaged");
    return TB_OK;
}

static int op_handout_add(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *image = json_string_value(json_object_get(args, "image"));
    if (image && ops_check_image(image, err))
        return err->code;
    if (json_object_size(json_object_get(json_object_get(state, "gm"), "handouts")) >= HANDOUT_MAX)
        return tb_fail(err, TB_CONFLICT, "at most %d handouts: delete one first", HANDOUT_MAX);
    char id[32];
    snprintf(id, sizeof id, "h%lld", (long long)ctx->event_seq);
    const char *text = json_string_value(json_object_get(args, "text"));
    json_t *g = json_pack("{s:s, s:O, s:s}", "id", id, "title", json_object_get(args, "title"),
                          "text", text ? text : "");
    if (image)
        json_object_set_new(g, "image", json_string(image));
    json_object_set_new(gm_handouts(state), id, g);
    *result = json_pack("{s:s}", "id", id);
    return TB_OK;
}

/* The audience of handout.show: "all" (default) or an array of distinct player seats, checked
 * against /seats; a new reference. */
static int handout_audience(json_t *state, json_t *to, json_t **out, tb_err *err)
{
    if (!to || (json_is_string(to) && strcmp(json_string_value(to), "all") == 0)) {
        *out = json_string("all");
        return TB_OK;
    }
    if (!json_is_array(to) || json_array_size(to) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "to: \"all\" or a list of seats");
    json_t *seats = json_object_get(state, "seats");
    json_t *list = json_array();
    size_t i;
    json_t *s;
    json_array_foreach(to, i, s)
    {
        const char *seat = json_string_value(s);
        json_t *row = seat ? json_object_get(seats, seat) : NULL;
        if (!row || strcmp(seat, "gm") == 0) {
            json_decref(list);
            return tb_fail(err, TB_NOT_FOUND, "to: nobody sits at seat '%.32s'", seat ? seat : "?");
        }
        int dup = 0;
        for (size_t k = 0; k < json_array_size(list); k++)
            dup |= strcmp(json_string_value(json_array_get(list, k)), seat) == 0;
        if (!dup)
            json_array_append(list, s);
    }
    *out = list;
    return TB_OK;
}

/* Takes the handout whose GM copy is old out of every reader's hands. */
static void handout_withdraw_of(json_t *state, json_t *old)
{
    const char *key = json_string_value(json_object_get(old, "key"));
    if (key)
        handout_withdraw(state, key);
}

static int op_handout_show(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                           tb_err *err)
{
    const char *id = json_string_value(json_object_get(args, "id"));
    json_t *old = handout_get(state, id);
    if (!old)
        return tb_fail(err, TB_NOT_FOUND, "no handout '%.32s'", id);
    json_t *to = NULL;
    if (handout_audience(state, json_object_get(args, "to"), &to, err))
        return err->code;
    handout_withdraw_of(state, old);
    char key[32];
    snprintf(key, sizeof key, "s%lld", (long long)ctx->seq);
    json_t *hs = gm_handouts(state);
    json_t *g = json_copy(old);
    json_object_set(g, "to", to);
    json_object_set_new(g, "key", json_string(key));
    json_object_set_new(hs, id, g);
    handout_place(state, g, key, to);
    *result = json_pack("{s:s, s:o, s:s}", "id", id, "to", to, "key", key);
    return TB_OK;
}

static int op_handout_hide(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                           tb_err *err)
{
    (void)ctx;
    const char *id = json_string_value(json_object_get(args, "id"));
    json_t *old = handout_get(state, id);
    if (!old)
        return tb_fail(err, TB_NOT_FOUND, "no handout '%.32s'", id);
    handout_withdraw_of(state, old);
    if (json_object_get(old, "to")) {
        json_t *hs = gm_handouts(state);
        json_t *g = json_copy(old);
        json_object_del(g, "to");
        json_object_del(g, "key");
        json_object_set_new(hs, id, g);
    }
    *result = json_pack("{s:s}", "id", id);
    return TB_OK;
}

static int op_handout_delete(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                             tb_err *err)
{
    (void)ctx;
    const char *id = json_string_value(json_object_get(args, "id"));
    json_t *old = handout_get(state, id);
    if (!old)
        return tb_fail(err, TB_NOT_FOUND, "no handout '%.32s'", id);
    handout_withdraw_of(state, old);
    json_object_del(gm_handouts(state), id);
    *result = json_pack("{s:s}", "deleted", id);
    return TB_OK;
}

static const op_arg ARGS_ADD[] = {
    {"title", ARG_NAME, 1, 1, 80},
    {"text", ARG_STRING, 0, 0, HANDOUT_MAX_TEXT},
    {"image", ARG_STRING, 0, 1, HANDOUT_MAX_IMAGE},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_SHOW[] = {
    {"id", ARG_STRING, 1, 1, 32},
    {"to", ARG_ANY, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ID[] = {
    {"id", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};

static const op_write W_HANDOUT[] = {{"/handouts", 1}, {"/private", 1}, {"/gm", 1}, {NULL, 0}};

const op_def OPS_HANDOUT[] = {
    {"handout.add", op_handout_add, WHO_GM, 0, ARGS_ADD, W_HANDOUT},
    {"handout.show", op_handout_show, WHO_GM, 0, ARGS_SHOW, W_HANDOUT},
    {"handout.hide", op_handout_hide, WHO_GM, 0, ARGS_ID, W_HANDOUT},
    {"handout.delete", op_handout_delete, WHO_GM, 0, ARGS_ID, W_HANDOUT},
    {NULL, NULL, 0, 0, NULL, NULL},
};
