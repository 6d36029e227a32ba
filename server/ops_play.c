/*
 * ops_play.c — the ops a table plays with besides dice: what a system offers (system.describe),
 * characters and NPCs (char.*), the campaign's name, and the GM's hidden notes and reveals
 * (gm.*). Rows of OPS_PLAY; see ops.h for the handler contract and protocol/PROTOCOL.md for the
 * wire shapes.
 *
 * Where things live: a player character at /chars/<id> = {id, name, seat, sheet, derived} (public:
 * the party sees each other's sheets), less the fields its system keeps private
 * (rules_system.sheet_private: cot's Loyalties), which are at /private/<seat>/sheets/<id> (the
 * player and the GM); an NPC at /gm/npcs/<id> (GM only, same shape without
 * seat); GM notes at /gm/notes/<key>; revealed values at /revealed/<path below /gm>.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"
#include "ops.h"
#include "protocol.h"
#include "system.h"
#include "workcopy.h"

#define MAX_CHARS 200 /* characters and NPCs of one campaign */
#define MAX_NOTES 200 /* GM notes of one campaign */

/* ---- system.describe ---- */

/* The keys of a describe object whose text a person reads: a check's summary, the label of a
 * param, an action, a sheet field or an editable number. */
static const char *const DESCRIBE__TEXT_KEYS[] = {"summary", "label", NULL};

/*
 * Takes rulebook line references out of every text a person reads in a describe tree (node,
 * borrowed, rewritten in place) into the `cite` of the object that held them, as refusals and log
 * lines do (tb_cite_strip): "Difficulty (000:13)" becomes label "Difficulty", cite "000:13". An
 * object that already has a cite keeps it first and gains the new references after it (a
 * reference it already names is not repeated).
 */
static void describe__strip_cites(json_t *node)
{
    if (json_is_array(node)) {
        size_t i;
        json_t *v;
        json_array_foreach(node, i, v)
            describe__strip_cites(v);
        return;
    }
    if (!json_is_object(node))
        return;
    char found[256] = "";
    for (const char *const *k = DESCRIBE__TEXT_KEYS; *k; k++) {
        const char *s = json_string_value(json_object_get(node, *k));
        if (!s)
            continue;
        char *text = xstrdup(s), cite[128];
        if (tb_cite_strip(text, cite, sizeof cite)) {
            json_object_set_new(node, *k, json_string(text));
            size_t have = strlen(found);
            snprintf(found + have, sizeof found - have, "%s%s", have ? ", " : "", cite);
        }
        free(text);
    }
    if (found[0]) {
        const char *old = json_string_value(json_object_get(node, "cite"));
        if (!old) {
            json_object_set_new(node, "cite", json_string(found));
        } else if (!strstr(old, found)) {
            char both[512];
            snprintf(both, sizeof both, "%s, %s", old, found);
            json_object_set_new(node, "cite", json_string(both));
        }
    }
    const char *key;
    json_t *v;
    json_object_foreach(node, key, v)
        describe__strip_cites(v);
}

json_t *ops_system_describe(const char *system)
{
    const rules_system *rs = rules_system_find(system);
    if (!rs || strcmp(system, "dice") == 0)
        return NULL;
    json_t *checks = json_array();
    for (const rules_check *c = rs->checks; c && c->name; c++)
        json_array_append_new(checks, json_pack("{s:s, s:s, s:o}", "name", c->name, "summary",
                                                c->summary ? c->summary : "", "params",
                                                rules_params_json(c->params)));
    json_t *mods = json_array();
    const rules_module *m;
    for (size_t i = 0; (m = rules_module_at(i)); i++)
        if (strcmp(m->system, system) == 0)
            json_array_append_new(mods, rules_module_describe(m));
    json_t *schema = rules_sheet_schema(system);
    json_t *d = json_pack("{s:s, s:s, s:O, s:o, s:o}", "system", rs->id, "name", rs->name, "sheet",
                          json_object_get(schema, "fields"), "checks", checks, "modules", mods);
    json_decref(schema);
    describe__strip_cites(d);
    return d;
}

static int op_system_describe(const op_ctx *ctx, json_t *state, const json_t *args,
                              json_t **result, tb_err *err)
{
    const char *sys = json_string_value(json_object_get(args, "system"));
    if (!sys)
        sys = ops_campaign_system(state);
    if (strcmp(sys, "generic") == 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "system.describe: a generic campaign has no rule system; name one");
    json_t *d = ops_system_describe(sys);
    if (!d)
        return tb_fail(err, TB_NOT_FOUND, "system.describe: no rule system '%.32s'", sys);
    *result = d;
    return TB_OK;
}

/* ---- characters ---- */

/* The character id in /chars (PC) or /gm/npcs (NPC); *npc tells which. NULL when absent. */
static json_t *char_find(json_t *state, const char *id, int *npc)
{
    json_t *c = json_object_get(json_object_get(state, "chars"), id);
    *npc = 0;
    if (c)
        return c;
    c = json_object_get(json_object_get(json_object_get(state, "gm"), "npcs"), id);
    *npc = c != NULL;
    return c;
}

/* ---- the private part of a PC's sheet ---- */

/* /private/<seat>/sheets (borrowed), created when create is set; NULL when absent. */
static json_t *private_sheets(json_t *state, const char *seat, int create)
{
    json_t *p = json_object_get(json_object_get(json_object_get(state, "private"), seat), "sheets");
    if (p || !create)
        return p;
    return ops_child(ops_child(ops_child(state, "private"), seat), "sheets");
}

/*
 * Stores `sheet` (borrowed, validated) as the sheet of PC c (id, of seat): the fields the system
 * keeps private go to /private/<seat>/sheets/<id>, the rest to c.sheet. A player edits the whole
 * sheet; the server splits it each time.
 */
static void sheet_put(json_t *state, json_t *c, const char *id, const char *seat,
                      const json_t *sheet)
{
    const rules_system *rs = rules_system_find(ops_campaign_system(state));
    json_t *pub = json_deep_copy(sheet), *priv = json_object();
    for (const char *const *f = rs ? rs->sheet_private : NULL; f && *f; f++) {
        json_t *v = json_object_get(pub, *f);
        if (v) {
            json_object_set(priv, *f, v);
            json_object_del(pub, *f);
        }
    }
    json_object_set_new(c, "sheet", pub);
    if (json_object_size(priv)) {
        json_object_set_new(private_sheets(state, seat, 1), id, priv);
        return;
    }
    json_decref(priv);
    json_object_del(private_sheets(state, seat, 0), id);
}

int ops_state_upgrade(json_t *state)
{
    const rules_system *rs = rules_system_find(ops_campaign_system(state));
    int changed = 0;
    const char *id;
    json_t *c;
    json_object_foreach(json_object_get(state, "chars"), id, c)
    {
        json_t *sheet = json_object_get(c, "sheet");
        const char *seat = json_string_value(json_object_get(c, "seat"));
        int has = 0;
        for (const char *const *f = rs ? rs->sheet_private : NULL; f && *f; f++)
            has |= json_object_get(sheet, *f) != NULL;
        if (!has || !seat)
            continue;
        /* the private fields join what is already private (none, before issue 11) */
        json_t *full = json_deep_copy(sheet);
        json_object_update_missing(full, json_object_get(private_sheets(state, seat, 0), id));
        sheet_put(state, c, id, seat, full);
        json_decref(full);
        changed = 1;
    }
    return ops_map_follow(state) | changed; /* who may move each token, saved without it */
}

/* Validates sheet for the campaign's system and returns its derived values (new reference). */
static json_t *sheet_check(json_t *state, const json_t *sheet, tb_err *err)
{
    const char *sys = ops_campaign_system(state);
    if (strcmp(sys, "generic") == 0) {
        tb_fail(err, TB_RULE, "a generic campaign has no character sheets; create the campaign "
                              "with a rule system");
        return NULL;
    }
    if (rules_sheet_validate(sys, sheet, err))
        return NULL;
    json_t *derived = rules_sheet_derive(sys, sheet);
    if (!derived)
        tb_fail(err, TB_INTERNAL, "the sheet validated but its derived values could not be "
                                  "computed");
    return derived;
}

static int op_char_create(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *name = json_string_value(json_object_get(args, "name"));
    const char *seat = json_string_value(json_object_get(args, "seat"));
    int npc = json_is_true(json_object_get(args, "npc"));
    const json_t *sheet = json_object_get(args, "sheet");
    if (!ctx->is_gm && npc)
        return tb_fail(err, TB_FORBIDDEN, "only the GM may create NPCs");
    if (!ctx->is_gm && seat && strcmp(seat, ctx->seat) != 0)
        return tb_fail(err, TB_FORBIDDEN, "a player may only create characters for their own "
                                          "seat");
    if (npc && seat)
        return tb_fail(err, TB_BAD_REQUEST, "char.create: an NPC has no seat");
    if (!seat)
        seat = ctx->seat;
    if (!npc && !json_object_get(json_object_get(state, "seats"), seat))
        return tb_fail(err, TB_NOT_FOUND, "no seat '%.32s' in this campaign", seat);
    json_t *chars = ops_child(state, "chars");
    json_t *npcs = ops_child(ops_child(state, "gm"), "npcs");
    if (json_object_size(chars) + json_object_size(npcs) >= MAX_CHARS)
        return tb_fail(err, TB_RULE, "a campaign holds at most %d characters and NPCs",
                       MAX_CHARS);
    json_t *derived = sheet_check(state, sheet, err);
    if (!derived)
        return err->code;
    json_int_t n = json_integer_value(json_object_get(state, "next_char"));
    if (n < 1)
        n = 1;
    char id[32];
    snprintf(id, sizeof id, "c%lld", (long long)n);
    json_object_set_new(state, "next_char", json_integer(n + 1));
    json_t *c = json_pack("{s:s, s:s, s:o, s:o}", "id", id, "name", name, "sheet",
                          json_deep_copy(sheet), "derived", derived);
    if (!npc) {
        json_object_set_new(c, "seat", json_string(seat));
        sheet_put(state, c, id, seat, sheet);
    }
    json_object_set_new(npc ? npcs : chars, id, c);
    *result = json_pack("{s:s, s:b}", "id", id, "npc", npc);
    return TB_OK;
}

/* The character args.id the caller may change: its owner or the GM. A player asking for an NPC
 * gets not_found, exactly as for an id that does not exist (NPC ids are not theirs to learn). */
static json_t *char_for_change(const op_ctx *ctx, json_t *state, const char *id, int *npc,
                               tb_err *err)
{
    json_t *c = char_find(state, id, npc);
    if (!c || (*npc && !ctx->is_gm)) {
        tb_fail(err, TB_NOT_FOUND, "no character '%.32s' in this campaign", id);
        return NULL;
    }
    const char *owner = json_string_value(json_object_get(c, "seat"));
    if (!ctx->is_gm && (!owner || strcmp(owner, ctx->seat) != 0)) {
        tb_fail(err, TB_FORBIDDEN, "%s belongs to another seat; only its player or the GM may "
                                   "change it",
                json_string_value(json_object_get(c, "name")));
        return NULL;
    }
    return c;
}

static int op_char_update(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *id = json_string_value(json_object_get(args, "id"));
    int npc;
    json_t *c = char_for_change(ctx, state, id, &npc, err);
    if (!c)
        return err->code;
    const json_t *sheet = json_object_get(args, "sheet");
    const json_t *name = json_object_get(args, "name");
    if (!sheet && !name)
        return tb_fail(err, TB_BAD_REQUEST, "char.update: give 'name', 'sheet' or both");
    json_t *derived = NULL;
    if (sheet && !(derived = sheet_check(state, sheet, err)))
        return err->code;
    /* the one character this changes, copied now (W_CHARS: the others stay shared) */
    const char *const at_pc[] = {"chars", id, NULL}, *const at_npc[] = {"gm", "npcs", id, NULL};
    c = workcopy_own_path(state, npc ? at_npc : at_pc);
    if (sheet) {
        const char *seat = json_string_value(json_object_get(c, "seat"));
        if (npc || !seat)
            json_object_set_new(c, "sheet", json_deep_copy(sheet));
        else
            sheet_put(state, c, id, seat, sheet);
        json_object_set_new(c, "derived", derived);
    }
    if (name)
        json_object_set(c, "name", (json_t *)name);
    *result = json_pack("{s:s}", "id", id);
    return TB_OK;
}

/* The combatant of the running encounter made from character id, or NULL. */
static const char *char_in_encounter(json_t *state, const char *id)
{
    json_t *all = json_object_get(json_object_get(state, "enc"), "combatants");
    const char *cid;
    json_t *c;
    json_object_foreach(all, cid, c)
    {
        const char *ch = json_string_value(json_object_get(c, "char"));
        if (ch && strcmp(ch, id) == 0)
            return cid;
    }
    return NULL;
}

static int op_char_delete(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *id = json_string_value(json_object_get(args, "id"));
    int npc;
    json_t *c = char_for_change(ctx, state, id, &npc, err);
    if (!c)
        return err->code;
    if (char_in_encounter(state, id))
        return tb_fail(err, TB_RULE, "%s is in the running encounter; remove them from it first",
                       json_string_value(json_object_get(c, "name")));
    const char *seat = json_string_value(json_object_get(c, "seat"));
    if (!npc && seat)
        json_object_del(private_sheets(state, seat, 0), id);
    json_object_del(npc ? json_object_get(json_object_get(state, "gm"), "npcs")
                        : json_object_get(state, "chars"),
                    id);
    *result = json_pack("{s:s}", "id", id);
    return TB_OK;
}

/* ---- the campaign ---- */

static int op_campaign_rename(const op_ctx *ctx, json_t *state, const json_t *args,
                              json_t **result, tb_err *err)
{
    json_t *name = json_object_get(args, "name");
    json_object_set(ops_child(state, "campaign"), "name", name);
    *result = json_pack("{s:O}", "name", name);
    return TB_OK;
}

/* ---- GM notes and reveals ---- */

static int key_ok(const char *key)
{
    for (const char *p = key; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return 0;
    return *key != '\0';
}

static int op_gm_set(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                     tb_err *err)
{
    const char *key = json_string_value(json_object_get(args, "key"));
    if (!key_ok(key))
        return tb_fail(err, TB_BAD_REQUEST,
                       "gm.set: 'key' may hold only letters, digits, '_', '-' and '.'");
    json_t *notes = ops_child(ops_child(state, "gm"), "notes");
    if (!json_object_get(notes, key) && json_object_size(notes) >= MAX_NOTES)
        return tb_fail(err, TB_RULE, "a campaign holds at most %d GM notes", MAX_NOTES);
    json_object_set_new(notes, key, json_deep_copy(json_object_get(args, "value")));
    *result = json_pack("{s:s}", "key", key);
    return TB_OK;
}

static int op_gm_unset(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                       tb_err *err)
{
    const char *key = json_string_value(json_object_get(args, "key"));
    json_t *notes = json_object_get(json_object_get(state, "gm"), "notes");
    if (json_object_del(notes, key) != 0)
        return tb_fail(err, TB_NOT_FOUND, "no GM note '%.40s'", key);
    *result = json_pack("{s:s}", "key", key);
    return TB_OK;
}

int ops_pointer_set(json_t *doc, const char *path, json_t *value, tb_err *err)
{
    proto_pointer p;
    if (proto_pointer_parse(path, &p, err)) {
        json_decref(value);
        return err->code;
    }
    json_t *at = doc;
    int rc = TB_OK;
    for (size_t i = 0; i + 1 < p.n && rc == TB_OK; i++) {
        if (json_is_object(at)) {
            at = ops_child(at, p.tokens[i]);
        } else if (json_is_array(at)) {
            size_t idx;
            if (proto_pointer_index(p.tokens[i], &idx) || idx >= json_array_size(at))
                rc = tb_fail(err, TB_BAD_REQUEST, "no element '%.40s' at '%.80s'", p.tokens[i],
                             path);
            else
                at = json_array_get(at, idx);
        } else {
            rc = tb_fail(err, TB_BAD_REQUEST, "'%.80s' runs through a value that is not an "
                                              "object or array",
                         path);
        }
    }
    if (rc == TB_OK && p.n > 0) {
        const char *last = p.tokens[p.n - 1];
        if (json_is_object(at)) {
            json_object_set(at, last, value);
        } else if (json_is_array(at)) {
            size_t idx;
            if (proto_pointer_index(last, &idx) || idx >= json_array_size(at))
                rc = tb_fail(err, TB_BAD_REQUEST, "no element '%.40s' at '%.80s'", last, path);
            else
                json_array_set(at, idx, value);
        } else {
            rc = tb_fail(err, TB_BAD_REQUEST, "'%.80s' is not inside an object or array", path);
        }
    } else if (rc == TB_OK) {
        rc = tb_fail(err, TB_BAD_REQUEST, "the path must name a value below the root");
    }
    json_decref(value);
    proto_pointer_free(&p);
    return rc;
}

/* "/gm/x/y" → "/revealed/x/y" into out; 0 when path is not below /gm or names /gm/join. */
static int reveal_path(const char *path, char *out, size_t n)
{
    if (strncmp(path, "/gm/", 4) != 0 || path[4] == '\0')
        return 0;
    if (strcmp(path, "/gm/join") == 0 || strncmp(path, "/gm/join/", 9) == 0)
        return 0; /* the join code is a credential, not table information */
    snprintf(out, n, "/revealed/%s", path + 4);
    return 1;
}

static int op_gm_reveal(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    const char *path = json_string_value(json_object_get(args, "path"));
    char to[256];
    if (!reveal_path(path, to, sizeof to))
        return tb_fail(err, TB_BAD_REQUEST,
                       "gm.reveal: 'path' must name a value below /gm (not the join code)");
    json_t *v = proto_pointer_get(state, path);
    if (!v)
        return tb_fail(err, TB_NOT_FOUND, "nothing at '%.80s' to reveal", path);
    if (ops_pointer_set(state, to, json_deep_copy(v), err))
        return err->code;
    *result = json_pack("{s:s}", "path", to);
    return TB_OK;
}

static int op_gm_hide(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    const char *path = json_string_value(json_object_get(args, "path"));
    char to[256];
    if (!reveal_path(path, to, sizeof to))
        return tb_fail(err, TB_BAD_REQUEST, "gm.hide: 'path' must name a value below /gm");
    proto_pointer p;
    if (proto_pointer_parse(to, &p, err))
        return err->code;
    json_t *parent = state;
    for (size_t i = 0; i + 1 < p.n && parent; i++)
        parent = json_object_get(parent, p.tokens[i]);
    int gone = json_is_object(parent) && json_object_del(parent, p.tokens[p.n - 1]) == 0;
    proto_pointer_free(&p);
    if (!gone)
        return tb_fail(err, TB_NOT_FOUND, "'%.80s' is not revealed", path);
    *result = json_pack("{s:s}", "path", to);
    return TB_OK;
}

/* ---- the table ---- */

/* system.list: the systems a campaign may run, as the pickers and the pages name them
 * (ops_systems_json). Read-only. */
static int op_system_list(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    *result = json_pack("{s:o}", "systems", ops_systems_json());
    return TB_OK;
}

static const op_arg ARGS_NONE_PLAY[] = {
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_DESCRIBE[] = {
    {"system", ARG_STRING, 0, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_CHAR_CREATE[] = {
    {"name", ARG_NAME, 1, 1, 40},
    {"sheet", ARG_OBJECT, 1, 0, 0},
    {"seat", ARG_STRING, 0, 1, 32},
    {"npc", ARG_BOOL, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_CHAR_UPDATE[] = {
    {"id", ARG_STRING, 1, 1, 32},
    {"name", ARG_NAME, 0, 1, 40},
    {"sheet", ARG_OBJECT, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ID[] = {
    {"id", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_RENAME[] = {
    {"name", ARG_NAME, 1, 1, 80},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_GM_SET[] = {
    {"key", ARG_STRING, 1, 1, 40},
    {"value", ARG_ANY, 1, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_GM_KEY[] = {
    {"key", ARG_STRING, 1, 1, 40},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_GM_PATH[] = {
    {"path", ARG_STRING, 1, 5, 200},
    {NULL, 0, 0, 0, 0},
};

/* char.create and char.delete add or remove whole characters; char.update changes one in place,
 * which it takes with workcopy_own_path (the others stay shared: issue 26). All three write the
 * private part of a PC's sheet (/private/<seat>/sheets/<id>). */
static const op_write W_CHAR_SET[] = {
    {"/chars", 1}, {"/gm/npcs", 1}, {"/next_char", 0}, {"/private", 0}, {NULL, 0}};
static const op_write W_CHARS[] = {
    {"/chars", OP_WRITE_COMBATANTS}, {"/gm/npcs", OP_WRITE_COMBATANTS}, {"/private", 0}, {NULL, 0}};
static const op_write W_CAMPAIGN[] = {{"/campaign", 0}, {NULL, 0}};
static const op_write W_NOTES[] = {{"/gm/notes", 1}, {NULL, 0}};
static const op_write W_REVEALED[] = {{"/revealed", 0}, {NULL, 0}};
static const op_write W_NOTHING[] = {{NULL, 0}};

const op_def OPS_PLAY[] = {
    {"system.describe", op_system_describe, WHO_ANY, 1, ARGS_DESCRIBE, W_NOTHING},
    {"system.list", op_system_list, WHO_ANY, 1, ARGS_NONE_PLAY, W_NOTHING},
    {"char.create", op_char_create, WHO_ANY, 0, ARGS_CHAR_CREATE, W_CHAR_SET},
    {"char.update", op_char_update, WHO_ANY, 0, ARGS_CHAR_UPDATE, W_CHARS},
    {"char.delete", op_char_delete, WHO_ANY, 0, ARGS_ID, W_CHAR_SET},
    {"campaign.rename", op_campaign_rename, WHO_GM, 0, ARGS_RENAME, W_CAMPAIGN},
    {"gm.set", op_gm_set, WHO_GM, 0, ARGS_GM_SET, W_NOTES},
    {"gm.unset", op_gm_unset, WHO_GM, 0, ARGS_GM_KEY, W_NOTES},
    {"gm.reveal", op_gm_reveal, WHO_GM, 0, ARGS_GM_PATH, W_REVEALED},
    {"gm.hide", op_gm_hide, WHO_GM, 0, ARGS_GM_PATH, W_REVEALED},
    {NULL, NULL, 0, 0, NULL, NULL},
};
