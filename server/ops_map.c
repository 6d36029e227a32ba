/*
 * ops_map.c — the scene picture (issue 30, first phase): a map image or a plain grid for a
 * running scene, and tokens on it. Rows of OPS_MAP; see ops.h for the handler contract and
 * protocol/PROTOCOL.md ("The scene map") for the wire shapes.
 *
 * Where a map lives decides who reads it (visibility is by path alone, DESIGN.md):
 *   /gm/maps/<sid>  the GM's copy, always: {image?, key?, w, h, grid: {size, x, y, cols, rows},
 *                   shown, tokens: {<id>: token} (the hidden ones: an unseen guard, a trap),
 *                   next (the hidden markers' counter), kept? (the shown tokens while the map
 *                   itself is hidden: {tokens, next})}
 *   /maps/<sid>     while the map is shown: {key?, w, h, grid, tokens: {<id>: token}, next}
 * A token is {id, x, y, cid?, label?, by?}: x, y a square of the grid (0-based column and row),
 * cid the combatant it stands for (its id is then the combatant's), label a free marker's words,
 * by (shown tokens only) the player seat that may move it now (the GM moves any): map_mover, the
 * one rule map.move checks, made from public state alone and kept current by every op that
 * changes what it reads (map.token, map.show, ops_map_follow after an encounter op and on load).
 * Ids are the map's own: a combatant's id, "m<n>" for a shown marker (n counts only shown
 * markers, /maps/<sid>/next) and "g<n>" for a hidden one (/gm/maps/<sid>/next): no count a
 * secret moves ever reaches a player.
 *
 * The picture never travels in the state a player receives: the public copy holds only its key
 * (a hash of the picture), and a seat of the scene (a seat one of its combatants belongs to)
 * fetches it once with the read-only map.image and keeps it by key; another seat is refused.
 * The picture is a data URL checked like a handout's (ops_check_image) and shrunk by the page as
 * a handout's is, so map.set fits one 64 KB message.
 *
 * Zones (map.zone, map.unzone): named rectangles of squares the GM draws on the map. All of them
 * live in the GM's copy, /gm/maps/<sid>/zones: {<id>: {id, name, x, y, w, h, hidden, heist?}}
 * (ids "z<n>" from /gm/maps/<sid>/znext), heist the id of a zone of the scene's cot heist Spot it
 * is bound to. The table's copy holds /maps/<sid>/zones: [{name, x, y, w, h}], made from the GM's
 * by map_redraw and nothing else: the zones not hidden whose heist zone, when bound, the crew
 * knows (it is under the scene's public /spot/zones), sorted by where they are. No id, no count
 * and no order a hidden zone moves ever reaches a player. An encounter op that may reveal a heist
 * zone redraws them (ops_map_follow).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ops.h"

#define MAP_MAX_TOKENS 200 /* tokens on one map, shown and hidden */
#define MAP_MAX_ZONES 60   /* zones on one map, shown and hidden */
#define MAP_MAX_IMAGE 60000

/* The public half of running scene sid, or NULL. */
static json_t *map_scene(json_t *state, const char *sid)
{
    if (strcmp(sid, "enc") == 0)
        return json_object_get(state, "enc");
    return json_object_get(json_object_get(state, "scenes"), sid);
}

/* The scene args name ("enc" when none); TB_NOT_FOUND when it is not running. */
static int map_pick(json_t *state, const json_t *args, const char **sid, tb_err *err)
{
    const char *want = json_string_value(json_object_get(args, "scene"));
    *sid = want ? want : "enc";
    if (!json_is_object(map_scene(state, *sid)))
        return tb_fail(err, TB_NOT_FOUND, "no scene '%.16s' is running", *sid);
    return TB_OK;
}

/* The GM's copy of scene sid's map (borrowed), or NULL. */
static json_t *map_gm(json_t *state, const char *sid)
{
    return json_object_get(json_object_get(json_object_get(state, "gm"), "maps"), sid);
}

/* The public copy (borrowed), or NULL while the map is not shown. */
static json_t *map_pub(json_t *state, const char *sid)
{
    return json_object_get(json_object_get(state, "maps"), sid);
}

/* Where the shown tokens live: the public copy while the map is shown, else the GM's kept
 * (borrowed; NULL when the scene has no map). */
static json_t *map_visible(json_t *state, const char *sid)
{
    json_t *pub = map_pub(state, sid);
    json_t *g = map_gm(state, sid);
    return pub ? pub : g ? ops_child(g, "kept") : NULL;
}

/* FNV-1a of the picture, 16 hex digits: its key, for the pages' caches. */
static void map_key(const char *image, char out[17])
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)image; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* The public face of the GM's copy g: {key?, w, h, grid}. */
static void map_face(json_t *dst, json_t *g)
{
    json_object_del(dst, "key");
    json_t *key = json_object_get(g, "key");
    if (key)
        json_object_set(dst, "key", key);
    json_object_set(dst, "w", json_object_get(g, "w"));
    json_object_set(dst, "h", json_object_get(g, "h"));
    json_object_set_new(dst, "grid", json_deep_copy(json_object_get(g, "grid")));
}

static void map_redraw(json_t *state, const char *sid);

/* Whether everything on scene sid's map (its shown, kept and hidden tokens, its zones) lies on a
 * grid of cols by rows squares; else the refusal naming the first that does not (map.set is the
 * GM's: a hidden one may be named). */
static int map_fits(json_t *state, const char *sid, json_int_t cols, json_int_t rows, tb_err *err)
{
    json_t *g = map_gm(state, sid), *pub = map_pub(state, sid);
    json_t *lists[2] = {json_object_get(pub ? pub : json_object_get(g, "kept"), "tokens"),
                        json_object_get(g, "tokens")};
    json_t *fighters = json_object_get(map_scene(state, sid), "combatants"), *t;
    const char *id;
    for (int i = 0; i < 2; i++)
        json_object_foreach(lists[i], id, t)
        {
            json_int_t x = json_integer_value(json_object_get(t, "x"));
            json_int_t y = json_integer_value(json_object_get(t, "y"));
            if (x < cols && y < rows)
                continue;
            const char *cid = json_string_value(json_object_get(t, "cid"));
            const char *who =
                cid ? json_string_value(json_object_get(json_object_get(fighters, cid), "name"))
                    : NULL;
            const char *label = json_string_value(json_object_get(t, "label"));
            if (who)
                return tb_fail(err, TB_BAD_REQUEST,
                               "%.40s's token stands outside the new grid: move it first", who);
            if (label)
                return tb_fail(err, TB_BAD_REQUEST,
                               "the marker %.40s stands outside the new grid: move it first",
                               label);
            /* a fighter who has left the fight: its square names it */
            return tb_fail(err, TB_BAD_REQUEST,
                           "the token on %d,%d stands outside the new grid: move it first", (int)x,
                           (int)y);
        }
    json_object_foreach(json_object_get(g, "zones"), id, t)
    {
        if (json_integer_value(json_object_get(t, "x")) +
                    json_integer_value(json_object_get(t, "w")) <=
                cols &&
            json_integer_value(json_object_get(t, "y")) +
                    json_integer_value(json_object_get(t, "h")) <=
                rows)
            continue;
        const char *name = json_string_value(json_object_get(t, "name")); /* map.zone needs one */
        return tb_fail(err, TB_BAD_REQUEST,
                       "the zone %.40s reaches outside the new grid: move or remove it first",
                       name ? name : "");
    }
    return TB_OK;
}

static int op_map_set(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    (void)ctx;
    const char *sid;
    if (map_pick(state, args, &sid, err))
        return err->code;
    const char *image = json_string_value(json_object_get(args, "image"));
    if (image && *image && ops_check_image(image, err))
        return err->code;
    json_int_t size = json_integer_value(json_object_get(args, "size"));
    json_int_t ox = json_integer_value(json_object_get(args, "x"));
    json_int_t oy = json_integer_value(json_object_get(args, "y"));
    if (ox >= size || oy >= size)
        return tb_fail(err, TB_BAD_REQUEST, "the offset must be smaller than a square");
    json_int_t cols = json_integer_value(json_object_get(args, "cols"));
    json_int_t rows = json_integer_value(json_object_get(args, "rows"));
    if (map_fits(state, sid, cols, rows, err))
        return err->code;
    json_t *g = ops_child(ops_child(ops_child(state, "gm"), "maps"), sid);
    if (image && *image) {
        char key[17];
        map_key(image, key);
        json_object_set_new(g, "image", json_string(image));
        json_object_set_new(g, "key", json_string(key));
    } else if (image) {
        json_object_del(g, "image");
        json_object_del(g, "key");
    }
    json_t *w = json_object_get(args, "w"), *h = json_object_get(args, "h");
    int pictured = json_object_get(g, "image") != NULL;
    if (pictured && (!w || !h))
        return tb_fail(err, TB_BAD_REQUEST, "a picture needs its width and height");
    json_object_set_new(g, "w", json_integer(pictured ? json_integer_value(w) : ox + cols * size));
    json_object_set_new(g, "h", json_integer(pictured ? json_integer_value(h) : oy + rows * size));
    json_object_set_new(g, "grid",
                        json_pack("{s:I, s:I, s:I, s:I, s:I}", "size", size, "x", ox, "y", oy,
                                  "cols", cols, "rows", rows));
    if (!json_object_get(g, "tokens"))
        json_object_set_new(g, "tokens", json_object());
    if (!json_object_get(g, "next"))
        json_object_set_new(g, "next", json_integer(1));
    if (!json_object_get(g, "shown")) {
        json_object_set_new(g, "shown", json_false());
        json_object_set_new(g, "kept", json_pack("{s:{}, s:i}", "tokens", "next", 1));
    }
    json_t *pub = map_pub(state, sid);
    if (pub)
        map_face(pub, g);
    *result = json_pack("{s:s, s:O}", "scene", sid, "grid", json_object_get(g, "grid"));
    return TB_OK;
}

/* The scene args name and its map (the GM's copy, borrowed): TB_NOT_FOUND when the scene is
 * not running or has no map yet. */
static int map_open(json_t *state, const json_t *args, const char **sid, json_t **g, tb_err *err)
{
    if (map_pick(state, args, sid, err))
        return err->code;
    *g = map_gm(state, *sid);
    if (!*g)
        return tb_fail(err, TB_NOT_FOUND, "this scene has no map yet");
    return TB_OK;
}

/* map.show (on) and map.hide: the table's copy made from the GM's, its shown tokens back from
 * `kept`; or taken away, its shown tokens kept. Nothing changes when it already is so. */
static int map_shown(json_t *state, const json_t *args, int on, json_t **result, tb_err *err)
{
    const char *sid;
    json_t *g;
    if (map_open(state, args, &sid, &g, err))
        return err->code;
    json_t *pub = map_pub(state, sid);
    if (on && !pub) {
        json_t *kept = json_object_get(g, "kept");
        pub = json_object();
        json_object_set(pub, "tokens", json_object_get(kept, "tokens"));
        json_object_set(pub, "next", json_object_get(kept, "next"));
        map_face(pub, g);
        json_object_set_new(ops_child(state, "maps"), sid, pub);
        json_object_del(g, "kept");
        map_redraw(state, sid);
    } else if (!on && pub) {
        json_object_set_new(g, "kept",
                            json_pack("{s:O, s:O}", "tokens", json_object_get(pub, "tokens"),
                                      "next", json_object_get(pub, "next")));
        json_object_del(json_object_get(state, "maps"), sid);
    }
    json_object_set_new(g, "shown", json_boolean(on));
    *result = json_pack("{s:s}", "scene", sid);
    return TB_OK;
}

static int op_map_show(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                       tb_err *err)
{
    (void)ctx;
    return map_shown(state, args, 1, result, err);
}

static int op_map_hide(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                       tb_err *err)
{
    (void)ctx;
    return map_shown(state, args, 0, result, err);
}

static int op_map_clear(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    (void)ctx;
    const char *sid = json_string_value(json_object_get(args, "scene"));
    if (!sid)
        sid = "enc";
    if (!map_gm(state, sid))
        return tb_fail(err, TB_NOT_FOUND, "scene '%.16s' has no map", sid);
    json_object_del(json_object_get(json_object_get(state, "gm"), "maps"), sid);
    json_object_del(json_object_get(state, "maps"), sid);
    *result = json_pack("{s:s}", "scene", sid);
    return TB_OK;
}

/* The player seat that may move token t of scene sid now (the one rule: map.move checks it and
 * each shown token carries it as `by`; the GM moves any token at any time): the seat its fighter
 * belongs to, while no turn of the scene's fight runs or on that fighter's turn (a slot of cot's
 * order is nobody's turn). NULL when no player may now (an NPC's token is the GM's); *owner (when
 * asked) is the fighter's seat, or NULL. Reads only the scene's public half and the seats' roles,
 * so `by` tells a player nothing GM-only. */
static const char *map_mover(json_t *state, const char *sid, json_t *t, const char **owner)
{
    json_t *scene = map_scene(state, sid);
    const char *cid = json_string_value(json_object_get(t, "cid"));
    json_t *c = cid ? json_object_get(json_object_get(scene, "combatants"), cid) : NULL;
    const char *seat = json_string_value(json_object_get(c, "seat"));
    json_t *turn = json_object_get(scene, "turn");
    const char *now = json_is_integer(turn)
                          ? json_string_value(json_array_get(json_object_get(scene, "order"),
                                                             (size_t)json_integer_value(turn)))
                          : NULL;
    json_t *seats = json_object_get(state, "seats");
    const char *role =
        seat ? json_string_value(json_object_get(json_object_get(seats, seat), "role")) : NULL;
    int player = seat && !(role && strcmp(role, "gm") == 0);
    if (owner)
        *owner = seat;
    return player && (!now || strcmp(now, cid) == 0) ? seat : NULL;
}

/* Sets token t's `by` to seat (NULL: no `by`). t is the caller's own, not yet in the state. */
static void map_set_by(json_t *t, const char *seat)
{
    if (seat)
        json_object_set_new(t, "by", json_string(seat));
    else
        json_object_del(t, "by");
}

/* The token id of scene sid's map, where it is (*hidden), or NULL (borrowed). */
static json_t *map_token(json_t *state, const char *sid, const char *id, int *hidden)
{
    json_t *t = json_object_get(json_object_get(map_visible(state, sid), "tokens"), id);
    *hidden = 0;
    if (!t) {
        t = json_object_get(json_object_get(map_gm(state, sid), "tokens"), id);
        *hidden = t != NULL;
    }
    return t;
}

/* Checks x, y against the grid of map g. */
static int map_in_grid(json_t *g, const json_t *args, tb_err *err)
{
    json_t *grid = json_object_get(g, "grid");
    json_int_t x = json_integer_value(json_object_get(args, "x"));
    json_int_t y = json_integer_value(json_object_get(args, "y"));
    if (x >= json_integer_value(json_object_get(grid, "cols")) ||
        y >= json_integer_value(json_object_get(grid, "rows")))
        return tb_fail(err, TB_BAD_REQUEST, "that square is off the map");
    return TB_OK;
}

static int map_count(json_t *state, const char *sid)
{
    return (int)(json_object_size(json_object_get(map_visible(state, sid), "tokens")) +
                 json_object_size(json_object_get(map_gm(state, sid), "tokens")));
}

/* A new id for a marker: "m<n>" from the shown count or "g<n>" from the GM's. */
static void map_marker_id(json_t *holder, char prefix, char id[24])
{
    json_int_t n = json_integer_value(json_object_get(holder, "next"));
    if (n < 1)
        n = 1;
    snprintf(id, 24, "%c%lld", prefix, (long long)n);
    json_object_set_new(holder, "next", json_integer(n + 1));
}

static int op_map_token(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    (void)ctx;
    const char *sid;
    json_t *g;
    if (map_open(state, args, &sid, &g, err))
        return err->code;
    if (map_in_grid(g, args, err))
        return err->code;
    const char *id = json_string_value(json_object_get(args, "id"));
    const char *cid = json_string_value(json_object_get(args, "cid"));
    json_t *label = json_object_get(args, "label");
    int was_hidden = 0;
    json_t *old = NULL;
    if (id && !(old = map_token(state, sid, id, &was_hidden)))
        return tb_fail(err, TB_NOT_FOUND, "no token '%.24s' on this map", id);
    if (!id && cid) {
        if (!json_object_get(json_object_get(map_scene(state, sid), "combatants"), cid))
            return tb_fail(err, TB_NOT_FOUND, "no combatant '%.16s' in this scene", cid);
        id = cid;
        old = map_token(state, sid, id, &was_hidden);
    }
    if (!old && !cid && !label)
        return tb_fail(err, TB_BAD_REQUEST, "a marker needs a name");
    if (!old && map_count(state, sid) >= MAP_MAX_TOKENS)
        return tb_fail(err, TB_CONFLICT, "at most %d tokens on a map", MAP_MAX_TOKENS);
    json_t *hid = json_object_get(args, "hidden");
    int hidden = hid ? json_is_true(hid) : (old ? was_hidden : 0);
    json_t *t = old ? json_copy(old) : json_object();
    if (old) {
        json_t *from = ops_child(was_hidden ? g : map_visible(state, sid), "tokens");
        json_object_del(from, id);
    }
    if (label)
        json_object_set(t, "label", label);
    json_object_set(t, "x", json_object_get(args, "x"));
    json_object_set(t, "y", json_object_get(args, "y"));
    char nid[24];
    json_t *to = hidden ? g : map_visible(state, sid);
    const char *tcid = json_string_value(json_object_get(t, "cid"));
    if (!old && cid) {
        json_object_set_new(t, "cid", json_string(cid));
        snprintf(nid, sizeof nid, "%s", cid);
    } else if (tcid)
        snprintf(nid, sizeof nid, "%s", tcid);
    else if (old && hidden == was_hidden)
        snprintf(nid, sizeof nid, "%s", id);
    else
        map_marker_id(to, hidden ? 'g' : 'm', nid);
    json_object_set_new(t, "id", json_string(nid));
    map_set_by(t, !hidden && map_pub(state, sid) ? map_mover(state, sid, t, NULL) : NULL);
    json_object_set_new(ops_child(to, "tokens"), nid, t);
    *result = json_pack("{s:s, s:s, s:b}", "scene", sid, "id", nid, "hidden", hidden);
    return TB_OK;
}

static int op_map_move(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                       tb_err *err)
{
    const char *sid;
    if (map_pick(state, args, &sid, err))
        return err->code;
    const char *id = json_string_value(json_object_get(args, "id"));
    json_t *g = map_gm(state, sid);
    json_t *pub = map_pub(state, sid);
    if (!ctx->is_gm && !pub)
        return tb_fail(err, TB_NOT_FOUND, "this scene's map is not shown");
    int hidden = 0;
    json_t *old = ctx->is_gm ? map_token(state, sid, id, &hidden)
                             : json_object_get(json_object_get(pub, "tokens"), id);
    if (!old)
        return tb_fail(err, TB_NOT_FOUND, "no token '%.24s' on this map", id);
    const char *owner, *by = map_mover(state, sid, old, &owner);
    if (!ctx->is_gm && !(owner && strcmp(owner, ctx->seat) == 0))
        return tb_fail(err, TB_FORBIDDEN, "you may move only your own token");
    if (!ctx->is_gm && !by)
        return tb_fail(err, TB_RULE, "it is not your turn: you move your token on your turn");
    if (map_in_grid(ctx->is_gm ? g : pub, args, err))
        return err->code;
    json_t *t = json_copy(old);
    json_object_set(t, "x", json_object_get(args, "x"));
    json_object_set(t, "y", json_object_get(args, "y"));
    if (!hidden && pub)
        map_set_by(t, by); /* as it was: a move changes nothing the rule reads */
    json_object_set_new(ops_child(hidden ? g : map_visible(state, sid), "tokens"), id, t);
    *result = json_pack("{s:s, s:s, s:O, s:O}", "scene", sid, "id", id, "x",
                        json_object_get(args, "x"), "y", json_object_get(args, "y"));
    return TB_OK;
}

static int op_map_remove(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                         tb_err *err)
{
    (void)ctx;
    const char *sid;
    if (map_pick(state, args, &sid, err))
        return err->code;
    const char *id = json_string_value(json_object_get(args, "id"));
    int hidden = 0;
    if (!map_token(state, sid, id, &hidden))
        return tb_fail(err, TB_NOT_FOUND, "no token '%.24s' on this map", id);
    json_object_del(
        json_object_get(hidden ? map_gm(state, sid) : map_visible(state, sid), "tokens"), id);
    *result = json_pack("{s:s, s:s}", "scene", sid, "removed", id);
    return TB_OK;
}

/* Whether seat is a seat of scene sid (one of its combatants belongs to it). */
static int map_seated(json_t *state, const char *sid, const char *seat)
{
    const char *cid;
    json_t *c;
    json_object_foreach(json_object_get(map_scene(state, sid), "combatants"), cid, c)
    {
        const char *s = json_string_value(json_object_get(c, "seat"));
        if (s && strcmp(s, seat) == 0)
            return 1;
    }
    return 0;
}

static int op_map_image(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    const char *sid;
    if (map_pick(state, args, &sid, err))
        return err->code;
    json_t *pub = map_pub(state, sid);
    if (!ctx->is_gm && !pub)
        return tb_fail(err, TB_NOT_FOUND, "this scene's map is not shown");
    if (!ctx->is_gm && !map_seated(state, sid, ctx->seat))
        return tb_fail(err, TB_FORBIDDEN, "the map is shown only to the people in that scene");
    json_t *g = map_gm(state, sid);
    json_t *key = json_object_get(ctx->is_gm ? g : pub, "key");
    if (!key)
        return tb_fail(err, TB_NOT_FOUND, "this map has no picture");
    *result = json_pack("{s:s, s:O, s:O}", "scene", sid, "key", key, "image",
                        json_object_get(g, "image"));
    return TB_OK;
}

/* ---- zones ---- */

/* The GM-only half of running scene sid (borrowed), or NULL. */
static json_t *map_scene_gm(json_t *state, const char *sid)
{
    json_t *gm = json_object_get(state, "gm");
    if (strcmp(sid, "enc") == 0)
        return json_object_get(gm, "enc");
    return json_object_get(json_object_get(gm, "scenes"), sid);
}

/* Zone zid of the heist Spot of scene sid: the GM's plan (gm = 1) or what the crew knows. */
static json_t *map_heist_zone(json_t *state, const char *sid, const char *zid, int gm)
{
    json_t *half = gm ? map_scene_gm(state, sid) : map_scene(state, sid);
    return json_object_get(json_object_get(json_object_get(half, "spot"), "zones"), zid);
}

/* Whether the table sees zone z of scene sid's map: not hidden, and its heist zone (if bound)
 * known to the crew. */
static int map_zone_seen(json_t *state, const char *sid, json_t *z)
{
    const char *heist = json_string_value(json_object_get(z, "heist"));
    return !json_is_true(json_object_get(z, "hidden")) &&
           (!heist || map_heist_zone(state, sid, heist, 0));
}

static int map_zone_cmp(const void *pa, const void *pb)
{
    json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
    static const char *const KEYS[] = {"y", "x", "h", "w"};
    for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++) {
        json_int_t d = json_integer_value(json_object_get(a, KEYS[i])) -
                       json_integer_value(json_object_get(b, KEYS[i]));
        if (d)
            return d < 0 ? -1 : 1;
    }
    return strcmp(json_string_value(json_object_get(a, "name")),
                  json_string_value(json_object_get(b, "name")));
}

/* The table's zones of scene sid's map: a new array of {name, x, y, w, h}, top to bottom. */
static json_t *map_zones_seen(json_t *state, const char *sid)
{
    json_t *all = json_object_get(map_gm(state, sid), "zones");
    json_t *seen[MAP_MAX_ZONES];
    size_t n = 0;
    const char *id;
    json_t *z;
    json_object_foreach(all, id, z)
    {
        if (n < MAP_MAX_ZONES && map_zone_seen(state, sid, z))
            seen[n++] = z;
    }
    qsort(seen, n, sizeof *seen, map_zone_cmp);
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(
            out, json_pack("{s:O, s:O, s:O, s:O, s:O}", "name", json_object_get(seen[i], "name"),
                           "x", json_object_get(seen[i], "x"), "y", json_object_get(seen[i], "y"),
                           "w", json_object_get(seen[i], "w"), "h", json_object_get(seen[i], "h")));
    return out;
}

/* The table's tokens of shown map pub of scene sid with each `by` as map_mover says now: a new
 * object (a shallow copy whose changed tokens are fresh copies), or NULL when none changed. */
static json_t *map_movers(json_t *state, const char *sid, json_t *pub)
{
    json_t *tokens = json_object_get(pub, "tokens"), *out = NULL, *t;
    const char *id;
    json_object_foreach(tokens, id, t)
    {
        const char *want = map_mover(state, sid, t, NULL);
        const char *have = json_string_value(json_object_get(t, "by"));
        if (want ? have && strcmp(want, have) == 0 : !json_object_get(t, "by"))
            continue;
        if (!out)
            out = json_copy(tokens);
        json_t *nt = json_copy(t);
        map_set_by(nt, want);
        json_object_set_new(out, id, nt);
    }
    return out;
}

/* Brings the table's copy of scene sid's map up to date with what it is made from, when the map
 * is shown and something changed: its zones (map_zones_seen; none seen, no `zones` key) and each
 * token's `by` (map_movers). /maps/<sid> is replaced, never changed in place: an encounter op
 * declares /maps shallow (ops_map_follow). */
static void map_redraw(json_t *state, const char *sid)
{
    json_t *pub = map_pub(state, sid);
    if (!pub)
        return;
    json_t *want = map_zones_seen(state, sid);
    json_t *have = json_object_get(pub, "zones");
    int same = have ? json_equal(have, want) : json_array_size(want) == 0;
    json_t *tokens = map_movers(state, sid, pub);
    if (same && !tokens) {
        json_decref(want);
        return;
    }
    json_t *fresh = json_copy(pub);
    if (json_array_size(want))
        json_object_set_new(fresh, "zones", want);
    else {
        json_object_del(fresh, "zones");
        json_decref(want);
    }
    if (tokens)
        json_object_set_new(fresh, "tokens", tokens);
    json_object_set_new(json_object_get(state, "maps"), sid, fresh);
}

int ops_map_follow(json_t *state)
{
    int changed = 0;
    const char *sid;
    json_t *pub;
    json_object_foreach(json_object_get(state, "maps"), sid, pub)
    {
        json_incref(pub);
        map_redraw(state, sid);
        changed |= map_pub(state, sid) != pub;
        json_decref(pub);
    }
    return changed;
}

/* The zone of the heist Spot named name (any case), for a new zone drawn without `heist`; NULL
 * when the scene has no heist or no such zone. */
static const char *map_heist_named(json_t *state, const char *sid, const char *name)
{
    const char *zid;
    json_t *z;
    json_object_foreach(json_object_get(json_object_get(map_scene_gm(state, sid), "spot"), "zones"),
                        zid, z)
    {
        const char *zn = json_string_value(json_object_get(z, "name"));
        if (zn && strcasecmp(zn, name) == 0)
            return zid;
    }
    return NULL;
}

/* The scene args name, its map (the GM's copy) and the zone args.id names (NULL when args name
 * none): TB_NOT_FOUND when the scene has no map or the map no such zone. All borrowed. */
static int map_zone_open(json_t *state, const json_t *args, const char **sid, json_t **g,
                         json_t **zone, tb_err *err)
{
    if (map_open(state, args, sid, g, err))
        return err->code;
    const char *id = json_string_value(json_object_get(args, "id"));
    *zone = id ? json_object_get(json_object_get(*g, "zones"), id) : NULL;
    if (id && !*zone)
        return tb_fail(err, TB_NOT_FOUND, "no zone '%.24s' on this map", id);
    return TB_OK;
}

/* Whether zone z lies on the grid of map g (x + w columns, y + h rows). */
static int map_zone_fits(json_t *g, json_t *z)
{
    json_t *grid = json_object_get(g, "grid");
#define MAP_NUM(o, k) json_integer_value(json_object_get(o, k))
    int fits = MAP_NUM(z, "x") + MAP_NUM(z, "w") <= MAP_NUM(grid, "cols") &&
               MAP_NUM(z, "y") + MAP_NUM(z, "h") <= MAP_NUM(grid, "rows");
#undef MAP_NUM
    return fits;
}

/* map.zone: draws a new zone (name, x, y, w, h) or changes zone `id` (any of them, and hidden);
 * `heist` binds it to a zone of the scene's heist Spot ("" unbinds). */
static int op_map_zone(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                       tb_err *err)
{
    (void)ctx;
    const char *sid;
    json_t *g, *old;
    if (map_zone_open(state, args, &sid, &g, &old, err))
        return err->code;
    static const char *const FIELDS[] = {"name", "x", "y", "w", "h", "hidden"};
    json_t *z = old ? json_copy(old) : json_pack("{s:b}", "hidden", 0);
    int whole = 1;
    for (size_t i = 0; i < sizeof FIELDS / sizeof *FIELDS; i++) {
        if (json_object_get(args, FIELDS[i]))
            json_object_set(z, FIELDS[i], json_object_get(args, FIELDS[i]));
        whole = whole && json_object_get(z, FIELDS[i]);
    }
    int rc = TB_OK;
    if (!whole)
        rc = tb_fail(
            err, TB_BAD_REQUEST,
            "a new zone needs a name and its place on the grid (column, row, width, height)");
    else if (!map_zone_fits(g, z))
        rc = tb_fail(err, TB_BAD_REQUEST, "that zone runs off the map");
    else if (!old && json_object_size(json_object_get(g, "zones")) >= MAP_MAX_ZONES)
        rc = tb_fail(err, TB_CONFLICT, "at most %d zones on a map", MAP_MAX_ZONES);
    const char *heist = json_string_value(json_object_get(args, "heist"));
    if (rc == TB_OK && heist && *heist && !map_heist_zone(state, sid, heist, 1))
        rc = tb_fail(err, TB_NOT_FOUND, "no heist zone '%.24s' in this scene", heist);
    if (rc) {
        json_decref(z);
        return rc;
    }
    if (!heist && !old)
        heist = map_heist_named(state, sid, json_string_value(json_object_get(z, "name")));
    if (heist && *heist)
        json_object_set_new(z, "heist", json_string(heist));
    else if (heist)
        json_object_del(z, "heist");
    char nid[24];
    if (old)
        snprintf(nid, sizeof nid, "%s", json_string_value(json_object_get(old, "id")));
    else {
        json_int_t n = json_integer_value(json_object_get(g, "znext"));
        snprintf(nid, sizeof nid, "z%lld", (long long)(n < 1 ? 1 : n));
        json_object_set_new(g, "znext", json_integer((n < 1 ? 1 : n) + 1));
    }
    json_object_set_new(z, "id", json_string(nid));
    json_object_set_new(ops_child(g, "zones"), nid, z);
    map_redraw(state, sid);
    *result = json_pack("{s:s, s:s, s:b, s:b}", "scene", sid, "id", nid, "hidden",
                        json_is_true(json_object_get(z, "hidden")), "seen",
                        map_pub(state, sid) && map_zone_seen(state, sid, z));
    if (json_object_get(z, "heist"))
        json_object_set(*result, "heist", json_object_get(z, "heist"));
    return TB_OK;
}

static int op_map_unzone(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                         tb_err *err)
{
    (void)ctx;
    const char *sid;
    json_t *g, *z;
    if (map_zone_open(state, args, &sid, &g, &z, err))
        return err->code;
    const char *id = json_string_value(json_object_get(args, "id"));
    json_object_del(json_object_get(g, "zones"), id);
    map_redraw(state, sid);
    *result = json_pack("{s:s, s:s}", "scene", sid, "removed", id);
    return TB_OK;
}

static const op_arg ARGS_SET[] = {
    {"scene", ARG_STRING, 0, 1, 16}, {"image", ARG_STRING, 0, 0, MAP_MAX_IMAGE},
    {"w", ARG_INT, 0, 1, 8000},      {"h", ARG_INT, 0, 1, 8000},
    {"size", ARG_INT, 1, 8, 400},    {"x", ARG_INT, 0, 0, 399},
    {"y", ARG_INT, 0, 0, 399},       {"cols", ARG_INT, 1, 1, 100},
    {"rows", ARG_INT, 1, 1, 100},    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_SCENE[] = {
    {"scene", ARG_STRING, 0, 1, 16},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_TOKEN[] = {
    {"scene", ARG_STRING, 0, 1, 16}, {"id", ARG_STRING, 0, 1, 24}, {"cid", ARG_STRING, 0, 1, 16},
    {"label", ARG_NAME, 0, 1, 40},   {"x", ARG_INT, 1, 0, 99},     {"y", ARG_INT, 1, 0, 99},
    {"hidden", ARG_BOOL, 0, 0, 0},   {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_MOVE[] = {
    {"scene", ARG_STRING, 0, 1, 16}, {"id", ARG_STRING, 1, 1, 24}, {"x", ARG_INT, 1, 0, 99},
    {"y", ARG_INT, 1, 0, 99},        {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_REMOVE[] = {
    {"scene", ARG_STRING, 0, 1, 16},
    {"id", ARG_STRING, 1, 1, 24},
    {NULL, 0, 0, 0, 0},
};

static const op_arg ARGS_ZONE[] = {
    {"scene", ARG_STRING, 0, 1, 16}, {"id", ARG_STRING, 0, 1, 24},
    {"name", ARG_NAME, 0, 1, 60},    {"x", ARG_INT, 0, 0, 99},
    {"y", ARG_INT, 0, 0, 99},        {"w", ARG_INT, 0, 1, 100},
    {"h", ARG_INT, 0, 1, 100},       {"hidden", ARG_BOOL, 0, 0, 0},
    {"heist", ARG_STRING, 0, 0, 24}, {NULL, 0, 0, 0, 0},
};

static const op_write W_MAP[] = {{"/maps", 0}, {"/gm/maps", 0}, {NULL, 0}};
static const op_write W_NONE[] = {{NULL, 0}};

/* The declared writes of one call of map.token and map.move (op_def.writes_of): the scene the
 * args name, not every scene's maps (issue 26 item 2: a move copied and diffed all of /maps and
 * /gm/maps). The paths are made per call in this thread's buffers, read before the next call. */
static _Thread_local char map_paths[3][96];
static _Thread_local op_write map_writes[4];

/* sid as a JSON pointer token ('~' as "~0", '/' as "~1") in out; -1 when it does not fit. */
static int map_pointer_token(const char *sid, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = sid; *c; c++) {
        if (n + 3 > size)
            return -1;
        if (*c == '~' || *c == '/') {
            out[n++] = '~';
            out[n++] = *c == '~' ? '0' : '1';
        } else
            out[n++] = *c;
    }
    out[n] = '\0';
    return 0;
}

/* map.token: the scene's two copies, whole (a token moves between them, a counter moves). */
static const op_write *map_token_writes(const json_t *args)
{
    const char *sid = json_string_value(json_object_get(args, "scene"));
    char tok[40];
    if (map_pointer_token(sid ? sid : "enc", tok, sizeof tok))
        return W_MAP;
    snprintf(map_paths[0], sizeof map_paths[0], "/maps/%s", tok);
    snprintf(map_paths[1], sizeof map_paths[1], "/gm/maps/%s", tok);
    map_writes[0] = (op_write){map_paths[0], 0};
    map_writes[1] = (op_write){map_paths[1], 0};
    map_writes[2] = (op_write){NULL, 0};
    return map_writes;
}

/* map.move replaces one token (a copy, never the token in place: op_map_move) in the one object
 * of tokens it is in: the table's copy while the map is shown, the GM's (a hidden token), the
 * GM's `kept` while the map is hidden. Those three are copied shallow; the objects on the way
 * (the scene's two copies, where map_visible may add `kept`) are fresh copies as the way to a
 * declared path always is (workcopy.h). */
static const op_write *map_move_writes(const json_t *args)
{
    const char *sid = json_string_value(json_object_get(args, "scene"));
    char tok[40];
    if (map_pointer_token(sid ? sid : "enc", tok, sizeof tok))
        return W_MAP;
    snprintf(map_paths[0], sizeof map_paths[0], "/maps/%s/tokens", tok);
    snprintf(map_paths[1], sizeof map_paths[1], "/gm/maps/%s/tokens", tok);
    snprintf(map_paths[2], sizeof map_paths[2], "/gm/maps/%s/kept/tokens", tok);
    for (int i = 0; i < 3; i++)
        map_writes[i] = (op_write){map_paths[i], 1};
    map_writes[3] = (op_write){NULL, 0};
    return map_writes;
}

const op_def OPS_MAP[] = {
    {"map.set", op_map_set, WHO_GM, 0, ARGS_SET, W_MAP},
    {"map.show", op_map_show, WHO_GM, 0, ARGS_SCENE, W_MAP},
    {"map.hide", op_map_hide, WHO_GM, 0, ARGS_SCENE, W_MAP},
    {"map.clear", op_map_clear, WHO_GM, 0, ARGS_SCENE, W_MAP},
    {"map.token", op_map_token, WHO_GM, 0, ARGS_TOKEN, W_MAP, map_token_writes},
    {"map.move", op_map_move, WHO_ANY, 0, ARGS_MOVE, W_MAP, map_move_writes},
    {"map.remove", op_map_remove, WHO_GM, 0, ARGS_REMOVE, W_MAP},
    {"map.image", op_map_image, WHO_ANY, 1, ARGS_SCENE, W_NONE},
    {"map.zone", op_map_zone, WHO_GM, 0, ARGS_ZONE, W_MAP},
    {"map.unzone", op_map_unzone, WHO_GM, 0, ARGS_REMOVE, W_MAP},
    {NULL, NULL, 0, 0, NULL, NULL},
};
