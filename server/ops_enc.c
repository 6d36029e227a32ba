/*
 * ops_enc.c — encounters at the table: the ops that run every encounter module of
 * rules/encounter.h (enc.start, enc.add, enc.remove, enc.act, enc.set, enc.end). The module does
 * the rules; this file does what is the same for every module: where each scene lives in the
 * campaign state, who may call which action (checked before the module runs), combatants made
 * from characters, sheet write-back, stamping the module's log entries into /log and /gm/log, and
 * the campaign clock of the scenes that run at once (rules/clock.h, issue 13).
 *
 *   /enc      the first scene (scene id "enc"): public encounter state (encounter.h); /gm/enc
 *             its GM-only half. Every campaign and client made before scenes existed uses only
 *             this one, unchanged.
 *   /scenes/<sid>, /gm/scenes/<sid>
 *             further scenes ("s2", "s3", ...: /clock/next_scene), exactly the shape of /enc and
 *             /gm/enc. A module sees only rules_enc, never these paths.
 *   /clock    {elapsed_s, settled_s, next, next_scene, scenes: {<sid>: {stage, label, unit_s,
 *             start_s, round, elapsed_s, spent_s?, counted_s?}}}: public, recomputed after
 *             every encounter op. spent_s: the time a scene's actions took beyond its rounds
 *             (a rest: rules_enc_take_time); counted_s: how far its module counted the clock
 *             (days, site turns: catch_up).
 *   /between/<module>, /gm/between/<module>
 *             what a module keeps when its scene ends (rules_module carry*), public and GM-only
 *             halves, for the next scene of that module (carry_save, carry_restore).
 *   Combatant ids are "e1", "e2", ... (per scene: next_id); a PC combatant names its character in
 *   `char`; an NPC made from /gm/npcs names it only under the GM half (players never learn NPC
 *   ids). A character is in one scene at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "encounter.h"
#include "ops.h"
#include "system.h"
#include "workcopy.h"

/* The public and GM-only halves of scene sid ("enc" or an id under /scenes), or NULL when the
 * scene is not running. The GM half is created when missing (the caller writes through it). */
static json_t *scene_pub(json_t *state, const char *sid)
{
    if (strcmp(sid, "enc") == 0)
        return json_object_get(state, "enc");
    return json_object_get(json_object_get(state, "scenes"), sid);
}

static json_t *scene_hid(json_t *state, const char *sid)
{
    json_t *gm = ops_child(state, "gm");
    if (strcmp(sid, "enc") == 0)
        return ops_child(gm, "enc");
    return ops_child(ops_child(gm, "scenes"), sid);
}

/* Calls fn for every running scene, the first scene first, then /scenes in key order. */
typedef void (*scene_fn)(const char *sid, json_t *pub, void *arg);
static void scene_each(json_t *state, scene_fn fn, void *arg)
{
    json_t *enc = json_object_get(state, "enc");
    if (json_is_object(enc))
        fn("enc", enc, arg);
    const char *sid;
    json_t *pub;
    json_object_foreach(json_object_get(state, "scenes"), sid, pub)
    {
        if (json_is_object(pub))
            fn(sid, pub, arg);
    }
}

typedef struct scene_names {
    char buf[240];
    size_t len;
    int n;
} scene_names;

static void name_one(const char *sid, json_t *pub, void *arg)
{
    scene_names *sn = arg;
    const char *name = json_string_value(json_object_get(pub, "name"));
    if (sn->len < sizeof sn->buf)
        sn->len += (size_t)snprintf(sn->buf + sn->len, sizeof sn->buf - sn->len, "%s%s (%.40s)",
                                    sn->n ? ", " : "", sid, name ? name : "?");
    sn->n++;
}

/*
 * The scene an op acts in: args.scene when given (TB_NOT_FOUND naming the running scenes when it
 * is not one), else the first scene. When the first scene has ended while others run, an op
 * without `scene` is refused (TB_RULE naming them): an old client never acts in a scene it
 * cannot see. Writes the id to sid (>= 16 bytes).
 */
static int scene_pick(json_t *state, const json_t *args, char sid[16], tb_err *err)
{
    const char *want = json_string_value(json_object_get(args, "scene"));
    scene_names sn = {.len = 0};
    scene_each(state, name_one, &sn);
    if (want) {
        if (strlen(want) < 16 && json_is_object(scene_pub(state, want))) {
            snprintf(sid, 16, "%s", want);
            return TB_OK;
        }
        return tb_fail(err, TB_NOT_FOUND, "no scene '%.16s' is running (%s)", want,
                       sn.n ? sn.buf : "none is");
    }
    if (json_is_object(json_object_get(state, "enc"))) {
        snprintf(sid, 16, "enc");
        return TB_OK;
    }
    if (sn.n)
        return tb_fail(err, TB_RULE,
                       "the first scene has ended; name the scene to act in ('scene': %s)",
                       sn.buf);
    return tb_fail(err, TB_RULE, "no encounter is running; the GM starts one with enc.start");
}

static void clock_open(json_t *state, const char *sid, rules_enc *e);

/* Fills e for the running scene sid; TB_RULE when it is not running. log/gm_log are new arrays
 * the caller releases with enc_finish. */
static int enc_open(const op_ctx *ctx, json_t *state, const char *sid, rules_enc *e, tb_err *err)
{
    memset(e, 0, sizeof *e);
    json_t *enc = scene_pub(state, sid);
    if (!json_is_object(enc))
        return tb_fail(err, TB_RULE, "no encounter is running; the GM starts one with enc.start");
    const char *mid = json_string_value(json_object_get(enc, "module"));
    e->mod = mid ? rules_module_find(mid) : NULL;
    if (!e->mod)
        return tb_fail(err, TB_INTERNAL, "the running encounter names an unknown module");
    e->enc = enc;
    e->hidden = scene_hid(state, sid);
    e->priv = ops_child(state, "private");
    e->rng = ctx->dice;
    e->seat = ctx->seat;
    e->is_gm = ctx->is_gm;
    e->log = json_array();
    e->gm_log = json_array();
    e->seat_log = json_array();
    e->squares = json_object_get(json_object_get(json_object_get(state, "maps"), sid), "tokens");
    e->grid = json_object_get(json_object_get(json_object_get(state, "maps"), sid), "grid");
    clock_open(state, sid, e);
    return TB_OK;
}

/* enc_open, then refuses a state the module cannot use (rules_enc_check) before any module code
 * reads it: a state damaged by an older build's enc.set is refused instead of crashing. */
static int enc_open_usable(const op_ctx *ctx, json_t *state, const char *sid, rules_enc *e,
                           tb_err *err)
{
    if (enc_open(ctx, state, sid, e, err))
        return err->code;
    if (rules_enc_check(e, err)) {
        json_decref(e->log);
        json_decref(e->gm_log);
        json_decref(e->seat_log);
        e->log = e->gm_log = e->seat_log = NULL;
        return err->code;
    }
    return TB_OK;
}

/* The GM-only object of cid and its stats, read without creating anything (rules_enc_hidden_of
 * and rules_enc_stats create what is missing: right for modules, not for a read-only pass). */
static json_t *hidden_peek(const rules_enc *e, const char *cid)
{
    return json_object_get(json_object_get(e->hidden, "combatants"), cid);
}

static json_t *stats_peek(const rules_enc *e, const char *cid)
{
    return json_object_get(rules_enc_is_npc(e, cid) ? hidden_peek(e, cid)
                                                    : rules_enc_combatant(e, cid),
                           "stats");
}

/* The character record a combatant was made from ({id, name, sheet, derived}: /chars/<id> for a
 * PC, /gm/npcs/<id> for an NPC), or NULL for a quick NPC. Shared with the committed state until
 * taken with own: then the record and its sheet are private copies (workcopy_own_path: a
 * character is copied when first written, ops.h OP_WRITE_COMBATANTS). */
static json_t *combatant_owner(json_t *state, rules_enc *e, const char *cid, int own)
{
    const char *pc = json_string_value(json_object_get(rules_enc_combatant(e, cid), "char"));
    const char *npc = pc ? NULL : json_string_value(json_object_get(hidden_peek(e, cid), "char"));
    const char *const at_pc[] = {"chars", pc, "sheet", NULL};
    const char *const at_npc[] = {"gm", "npcs", npc, "sheet", NULL};
    if (!pc && !npc)
        return NULL;
    if (own && !workcopy_own_path(state, pc ? at_pc : at_npc))
        return NULL;
    if (pc)
        return json_object_get(json_object_get(state, "chars"), pc);
    return json_object_get(json_object_get(json_object_get(state, "gm"), "npcs"), npc);
}

/* Every combatant's stats before an action in scene sid (a new object {cid: stats}), taken before
 * the module runs. Where the committed state's are equal and not the working copy's own objects
 * (workcopy_base: the working copy's scene is a copy of it), they are shared: nothing changes
 * the committed state, so they stay what they were (issue 26: no copy of every combatant's
 * stats per action); else a copy. */
static json_t *stats_before(const char *sid, rules_enc *e)
{
    json_t *base = (json_t *)workcopy_base(), *gm = json_object_get(base, "gm");
    rules_enc was = {.enc = base ? scene_pub(base, sid) : NULL};
    was.hidden = strcmp(sid, "enc") == 0 ? json_object_get(gm, "enc")
                                         : json_object_get(json_object_get(gm, "scenes"), sid);
    json_t *all = json_object();
    const char *cid;
    json_t *c;
    json_object_foreach(json_object_get(e->enc, "combatants"), cid, c)
    {
        json_t *stats = stats_peek(e, cid);
        json_t *kept = was.enc ? stats_peek(&was, cid) : NULL;
        if (stats && kept && kept != stats && json_equal(kept, stats))
            json_object_set_nocheck(all, cid, kept);
        else if (stats) /* scalars shared: nothing changes one in place (ops.h) */
            json_object_set_new(all, cid, workcopy_containers(stats));
    }
    return all;
}

/* Damage and conditions land on the sheets: the module's sheet_stats that the action changed
 * (compared with `before`, from stats_before) are written to the combatant's sheet when the
 * result still validates (a value the sheet cannot hold stays in the encounter only). A value the
 * action did not touch is left alone, so a GM's edit of the sheet mid-encounter survives. */
static void write_back(json_t *state, rules_enc *e, const json_t *before)
{
    if (!e->mod->sheet_stats)
        return;
    const char *sys = ops_campaign_system(state);
    const char *cid;
    json_t *c;
    json_object_foreach(json_object_get(e->enc, "combatants"), cid, c)
    {
        /* a quick NPC's sheet lives with it under /gm/enc and has no derived values */
        json_t *owner = combatant_owner(state, e, cid, 0);
        json_t *sheet = owner ? json_object_get(owner, "sheet")
                              : json_object_get(hidden_peek(e, cid), "sheet");
        json_t *stats = stats_peek(e, cid);
        if (!json_is_object(sheet) || !stats)
            continue;
        json_t *was = json_object_get(before, cid);
        /* the sheet's copy, made at the first stat the action changed: most actions change no
         * stat of most combatants (issue 26) */
        json_t *next = NULL;
        for (const char *const *k = e->mod->sheet_stats; *k; k++) {
            json_t *v = json_object_get(stats, *k);
            json_t *b = json_object_get(was, *k);
            if (!v || (b && json_equal(v, b)) || json_equal(v, json_object_get(sheet, *k)))
                continue;
            if (!next)
                next = json_deep_copy(sheet);
            json_object_set_new(next, *k, json_deep_copy(v));
        }
        if (!next)
            continue;
        tb_err ignored = {0};
        if (rules_sheet_validate(sys, next, &ignored) == 0) {
            if (owner) { /* the character and its sheet, copied now (workcopy.h) */
                owner = combatant_owner(state, e, cid, 1);
                sheet = json_object_get(owner, "sheet");
            }
            json_object_update(sheet, next);
            if (owner) /* derived values follow the sheet */
                json_object_set_new(owner, "derived", rules_sheet_derive(sys, sheet));
        }
        json_decref(next);
    }
}

/* Stamps the module's log entries (seq, at, seat, and the scene they happened in) into /log,
 * /gm/log and each seat's /private/<seat>/log; returns the entries the caller may read (new
 * reference) for its result: the public ones, the GM's to the GM, a seat's to that seat and the
 * GM. */
static json_t *enc_finish(const op_ctx *ctx, json_t *state, const char *sid, rules_enc *e, int ok)
{
    json_t *out = json_array();
    json_t *all[] = {e->log, e->gm_log, e->seat_log};
    for (int k = 0; k < 3; k++) {
        size_t i;
        json_t *v;
        json_array_foreach(all[k], i, v)
        {
            if (!ok)
                break;
            json_object_set_new(v, "seq", json_integer(ctx->seq));
            json_object_set_new(v, "at", json_integer(ctx->now_ms));
            json_object_set_new(v, "seat", json_string(ctx->seat));
            json_object_set_new(v, "scene", json_string(sid));
            if (k < 2) {
                if (!k || ctx->is_gm)
                    json_array_append(out, v);
                ops_log_append(state, k, json_incref(v), ctx->log_cap);
                continue;
            }
            /* `for` names the seat whose log it is; the entry itself has the shape of the others */
            const char *to = json_string_value(json_object_get(v, "for"));
            char seat[40];
            snprintf(seat, sizeof seat, "%s", to ? to : "");
            json_object_del(v, "for");
            if (!seat[0] || strchr(seat, '/'))
                continue;
            if (ctx->is_gm || strcmp(seat, ctx->seat) == 0)
                json_array_append(out, v);
            ops_log_append_at(state, (const char *const[]){"private", seat, NULL},
                              json_incref(v), ctx->log_cap);
        }
    }
    json_decref(e->log);
    json_decref(e->gm_log);
    json_decref(e->seat_log);
    e->log = e->gm_log = e->seat_log = NULL;
    return out;
}

/* ---- the campaign clock (rules/clock.h) ---- */

/* The most scenes a campaign runs at once (enc.start refuses more); the clock has room for all. */
#define SCENES_MAX 16
#define CLOCK_MAX_SCENES (SCENES_MAX + 1)

typedef struct clock_pass {
    json_t *state, *entries; /* /clock/scenes */
    json_t *old;             /* its entries before this op */
    long start_new;          /* where a scene new to the clock starts */
    const char *sids[CLOCK_MAX_SCENES];
    rules_clock_scene sc[CLOCK_MAX_SCENES];
    int n;
} clock_pass;

static long num_of(const json_t *o, const char *key, long def)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long)json_integer_value(v) : def;
}

/* Collects each running scene's clock entry; a scene without one (just started, or running since
 * before the clock existed: such a campaign's /enc started at 0) gets one at `start_s`. */
static void clock_collect(const char *sid, json_t *pub, void *arg)
{
    clock_pass *cp = arg;
    if (cp->n >= CLOCK_MAX_SCENES)
        return;
    const rules_clock_stage *st = rules_clock_stage_of(
        ops_campaign_system(cp->state), json_string_value(json_object_get(pub, "module")),
        json_string_value(json_object_get(pub, "stage")));
    json_t *ent = json_object_get(cp->old, sid);
    long start = num_of(ent, "start_s", cp->start_new);
    long round = num_of(pub, "round", 0), spent = num_of(ent, "spent_s", 0);
    if (round < 0)
        round = 0;
    if (spent < 0)
        spent = 0;
    json_t *out =
        json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "stage", st->id, "label", st->label, "unit_s",
                  (json_int_t)st->unit_s, "start_s", (json_int_t)start, "round", (json_int_t)round,
                  "elapsed_s", (json_int_t)(round * st->unit_s + spent));
    /* time the scene's actions took (rules_enc_take_time) and how far its module counted days
     * (catch_up): only where there is any, so a fight's entry keeps its shape */
    if (spent > 0)
        json_object_set_new(out, "spent_s", json_integer(spent));
    if (json_is_integer(json_object_get(ent, "counted_s")))
        json_object_set(out, "counted_s", json_object_get(ent, "counted_s"));
    json_object_set_new(cp->entries, sid, out);
    cp->sids[cp->n] = sid;
    cp->sc[cp->n] = (rules_clock_scene){start, st->unit_s, round, spent};
    cp->n++;
}

/*
 * Brings /clock up to date with the running scenes after an encounter op: every scene's stage,
 * round and own elapsed time, the campaign's elapsed time and the scene to play next (000:24).
 * `ending` names a scene the op is ending (still in the state): its time settles as
 * rules_clock_resolve says and its entry goes. A scene new to the clock starts at the campaign
 * time before this op, or, opened from scene `from` (enc.start from), where that scene's own time
 * is: a chase that breaks out of a heist starts when the heist is, not when a longer scene beside
 * it will be.
 */
/* A clock entry's own time: start + round * unit + the time its actions took. */
static long entry_at(const json_t *v)
{
    return num_of(v, "start_s", 0) + num_of(v, "round", 0) * num_of(v, "unit_s", 0) +
           num_of(v, "spent_s", 0);
}

/* Where a scene new to the clock starts: the campaign time before this op (from the entries as
 * they were), or, opened from scene `from`, where that scene's own time is. */
static long clock_start_new(json_t *state, const char *from)
{
    json_t *clock = json_object_get(state, "clock");
    json_t *entries = json_object_get(clock, "scenes");
    json_t *src = from ? json_object_get(entries, from) : NULL;
    if (src)
        return entry_at(src);
    long before = num_of(clock, "settled_s", 0);
    const char *k;
    json_t *v;
    json_object_foreach(entries, k, v)
    {
        if (entry_at(v) > before)
            before = entry_at(v);
    }
    return before;
}

static void clock_update(json_t *state, const char *ending, const char *from)
{
    json_t *clock = ops_child(state, "clock");
    clock_pass cp = {.state = state, .entries = ops_child(clock, "scenes")};
    long settled = num_of(clock, "settled_s", 0);
    cp.start_new = clock_start_new(state, from);
    cp.old = json_deep_copy(cp.entries);
    json_object_clear(cp.entries);
    scene_each(state, clock_collect, &cp);
    json_decref(cp.old);
    int keep = cp.n;
    for (int i = 0; ending && i < cp.n; i++) {
        if (strcmp(cp.sids[i], ending) != 0)
            continue;
        long t = rules_clock_resolve(cp.sc, cp.n, i);
        if (t > settled)
            settled = t;
        json_object_del(cp.entries, ending);
        cp.sc[i] = cp.sc[cp.n - 1];
        cp.sids[i] = cp.sids[cp.n - 1];
        keep = cp.n - 1;
        break;
    }
    int next = rules_clock_next(cp.sc, keep);
    json_object_set_new(clock, "settled_s", json_integer(settled));
    json_object_set_new(clock, "elapsed_s", json_integer(rules_clock_now(settled, cp.sc, keep)));
    json_object_set_new(clock, "next", next >= 0 ? json_string(cp.sids[next]) : json_null());
}

/*
 * Where scene sid stands on the campaign clock for its module (rules_enc now_s, since_s,
 * took_s): the later of the campaign's time and the scene's own, and how far its module counted
 * (catch_up; the scene's start when it never did). A scene not yet on the clock (enc.start) is
 * where a new scene starts.
 */
static void clock_open(json_t *state, const char *sid, rules_enc *e)
{
    json_t *clock = json_object_get(state, "clock");
    json_t *ent = json_object_get(json_object_get(clock, "scenes"), sid);
    long now = num_of(clock, "elapsed_s", 0);
    if (!ent) {
        now = clock_start_new(state, NULL);
        e->now_s = e->since_s = now;
        e->took_s = 0;
        return;
    }
    long at = num_of(ent, "start_s", 0) + num_of(e->enc, "round", 0) * num_of(ent, "unit_s", 0) +
              num_of(ent, "spent_s", 0);
    e->now_s = at > now ? at : now;
    e->since_s = num_of(ent, "counted_s", num_of(ent, "start_s", 0));
    e->took_s = 0;
}

/*
 * After a module ran in scene sid (an action, the scene's start): the module counts what the
 * clock passed (catch_up, which may log: before enc_finish), the scene's own time moves to
 * e->now_s when the action took time (it catches up with the campaign first: a rest taken after
 * a fight beside it starts when the fight is), and the count is remembered. Call clock_update
 * after.
 */
static void clock_after(json_t *state, const char *sid, rules_enc *e)
{
    if (e->mod->catch_up)
        e->mod->catch_up(e);
    json_t *ent = ops_child(ops_child(ops_child(state, "clock"), "scenes"), sid);
    if (e->took_s > 0) {
        long base = num_of(ent, "start_s", e->now_s - e->took_s) +
                    num_of(e->enc, "round", 0) * num_of(ent, "unit_s", 0);
        if (e->now_s - base > num_of(ent, "spent_s", 0))
            json_object_set_new(ent, "spent_s", json_integer(e->now_s - base));
    }
    if (e->mod->catch_up)
        json_object_set_new(ent, "counted_s", json_integer(e->since_s));
}

/* ---- progress that outlives the scene (rules_module carry*) ----
 *
 *   /between/<module id>     {<key>: ..., chars: {<char id>: {<key>: ...}}, clock_s}
 *   /gm/between/<module id>  {<key>: ..., chars: {<char id>: {<key>: ...}}}
 * The public half holds what the module keeps in /enc and on a PC's combatant, the GM half what
 * it keeps in /gm/enc (a build's target numbers): visibility stays by path. clock_s is how far
 * the module had counted the campaign clock (catch_up) when the scene ended.
 */

/* Replaces, in v (changed in place; the new root is returned, v's reference passing to it),
 * every string and object key that names a combatant of e: a PC's by "char:<char id>", anyone
 * else's by "gone:<cid>" (an NPC does not follow into the next scene; its id there would name
 * somebody else). */
static json_t *carry_out_ids(rules_enc *e, json_t *v)
{
    const char *cid;
    if (json_is_string(v)) {
        json_t *c = rules_enc_combatant(e, json_string_value(v));
        if (!c)
            return v;
        const char *ch = json_string_value(json_object_get(c, "char"));
        char buf[80];
        snprintf(buf, sizeof buf, "%s:%.60s", ch ? "char" : "gone", ch ? ch : json_string_value(v));
        json_decref(v);
        return json_string(buf);
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            json_array_set_new(v, i, carry_out_ids(e, json_incref(json_array_get(v, i))));
        return v;
    }
    if (!json_is_object(v))
        return v;
    json_t *out = json_object();
    json_t *x;
    json_object_foreach(v, cid, x)
    {
        json_t *key = carry_out_ids(e, json_string(cid));
        json_object_set_new(out, json_string_value(key), carry_out_ids(e, json_incref(x)));
        json_decref(key);
    }
    json_decref(v);
    return out;
}

/* The reverse for one character joining as cid: "char:<chid>" becomes cid in v (same ownership
 * as carry_out_ids). */
static json_t *carry_in_ids(json_t *v, const char *mark, const char *cid)
{
    if (json_is_string(v)) {
        if (strcmp(json_string_value(v), mark) != 0)
            return v;
        json_decref(v);
        return json_string(cid);
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            json_array_set_new(v, i, carry_in_ids(json_incref(json_array_get(v, i)), mark, cid));
        return v;
    }
    if (!json_is_object(v))
        return v;
    json_t *out = json_object();
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x)
    {
        json_object_set_new(out, strcmp(k, mark) == 0 ? cid : k,
                            carry_in_ids(json_incref(x), mark, cid));
    }
    json_decref(v);
    return out;
}

static int has_carry(const rules_module *m)
{
    return m->carry || m->carry_gm || m->carry_each || m->carry_each_gm || m->catch_up;
}

/* Copies keys (of from) into to, ids translated out of e's scene. */
static void carry_keys(rules_enc *e, const char *const *keys, json_t *from, json_t *to)
{
    for (const char *const *k = keys; k && *k; k++) {
        json_t *v = json_object_get(from, *k);
        if (v)
            json_object_set_new(to, *k, carry_out_ids(e, json_deep_copy(v)));
    }
}

/* enc.end: what the module keeps goes to /between/<module> and /gm/between/<module>. A
 * character who was not in this scene keeps what was kept for them before. */
static void carry_save(json_t *state, const char *sid, rules_enc *e)
{
    const rules_module *m = e->mod;
    if (!has_carry(m))
        return;
    json_t *pub = ops_child(ops_child(state, "between"), m->id);
    json_t *gm = ops_child(ops_child(ops_child(state, "gm"), "between"), m->id);
    carry_keys(e, m->carry, e->enc, pub);
    carry_keys(e, m->carry_gm, e->hidden, gm);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        const char *ch = json_string_value(json_object_get(rules_enc_combatant(e, cid), "char"));
        if (!ch)
            continue;
        if (m->carry_each) {
            json_t *mine = json_object();
            carry_keys(e, m->carry_each, rules_enc_combatant(e, cid), mine);
            json_object_set_new(ops_child(pub, "chars"), ch, mine);
        }
        if (m->carry_each_gm) {
            json_t *mine = json_object();
            carry_keys(e, m->carry_each_gm, hidden_peek(e, cid), mine);
            json_object_set_new(ops_child(gm, "chars"), ch, mine);
        }
    }
    json_t *ent = json_object_get(json_object_get(json_object_get(state, "clock"), "scenes"), sid);
    if (m->catch_up)
        json_object_set_new(pub, "clock_s",
                            json_integer(num_of(ent, "counted_s", num_of(ent, "start_s", 0))));
    if (json_object_size(gm) == 0) {
        json_t *all = json_object_get(json_object_get(state, "gm"), "between");
        json_object_del(all, m->id);
        if (json_object_size(all) == 0)
            json_object_del(json_object_get(state, "gm"), "between");
    }
}

/* enc.start, after the module's start hook: the kept keys come back, except one the GM gave as
 * an option of the same name (`given`: the GM's word for now, e.g. grimwire's `day`), and the
 * module's count of the clock resumes where it was, unless the GM gave such an option (then the
 * count starts now: the days a fight took are already in the GM's word). */
static void carry_restore(json_t *state, rules_enc *e, const json_t *given)
{
    const rules_module *m = e->mod;
    json_t *pub = json_object_get(json_object_get(state, "between"), m->id);
    json_t *gm = json_object_get(json_object_get(json_object_get(state, "gm"), "between"), m->id);
    int overridden = 0;
    for (int half = 0; half < 2; half++) {
        const char *const *keys = half ? m->carry_gm : m->carry;
        json_t *from = half ? gm : pub, *to = half ? e->hidden : e->enc;
        for (const char *const *k = keys; k && *k; k++) {
            json_t *v = json_object_get(from, *k);
            if (v && json_object_get(given, *k))
                overridden = 1;
            else if (v)
                json_object_set_new(to, *k, json_deep_copy(v));
        }
    }
    if (!overridden && json_is_integer(json_object_get(pub, "clock_s")) &&
        json_integer_value(json_object_get(pub, "clock_s")) < e->now_s)
        e->since_s = (long)json_integer_value(json_object_get(pub, "clock_s"));
}

/* enc.add of a PC (char chid, combatant cid), after the module's join hook: what was kept for
 * the character comes back, and the scene's kept values that named them name cid again. */
static void carry_join(json_t *state, rules_enc *e, const char *chid, const char *cid)
{
    const rules_module *m = e->mod;
    if (!has_carry(m))
        return;
    json_t *pub = json_object_get(json_object_get(state, "between"), m->id);
    json_t *gm = json_object_get(json_object_get(json_object_get(state, "gm"), "between"), m->id);
    char mark[80];
    snprintf(mark, sizeof mark, "char:%.60s", chid);
    for (int half = 0; half < 2; half++) {
        const char *const *each = half ? m->carry_each_gm : m->carry_each;
        json_t *mine = json_object_get(json_object_get(half ? gm : pub, "chars"), chid);
        for (const char *const *k = each; k && *k && mine; k++) {
            json_t *v = json_object_get(mine, *k);
            /* the GM-only object is made only when something kept goes into it */
            json_t *to = !v     ? NULL
                         : half ? rules_enc_hidden_of(e, cid)
                                : rules_enc_combatant(e, cid);
            if (v)
                json_object_set_new(to, *k, carry_in_ids(json_deep_copy(v), mark, cid));
        }
        const char *const *keys = half ? m->carry_gm : m->carry;
        json_t *scene = half ? e->hidden : e->enc;
        for (const char *const *k = keys; k && *k; k++) {
            json_t *v = json_object_get(scene, *k);
            if (v)
                json_object_set_new(scene, *k, carry_in_ids(json_incref(v), mark, cid));
        }
    }
}

/* ---- enc.start ---- */

/* The option `target_side` of a chase opened from another scene (`from`) defaults to the side of
 * a combatant there whose Drop choice was to flee (cot 000:117, 000:126): the chase starts with
 * the people of that scene, the one who fled as its Target. Returns a new options object. */
static json_t *start_options(const rules_module *m, const json_t *given, json_t *from)
{
    json_t *o = json_is_object(given) ? json_deep_copy(given) : json_object();
    int has = 0;
    for (const rules_param *p = m->options; p && p->name; p++)
        has |= strcmp(p->name, "target_side") == 0;
    if (!from || !has || json_object_get(o, "target_side"))
        return o;
    const char *cid;
    json_t *c;
    json_object_foreach(json_object_get(from, "combatants"), cid, c)
    {
        const char *side = json_string_value(json_object_get(c, "side"));
        if (side && rules_enc_streq(json_string_value(json_object_get(c, "drop_choice")), "flee")) {
            json_object_set_new(o, "target_side", json_string(side));
            break;
        }
    }
    return o;
}

/* Where a new scene goes: the first scene's place when it is free, else the next /scenes id. */
static void scene_new_id(json_t *state, char sid[16])
{
    if (!json_is_object(json_object_get(state, "enc"))) {
        snprintf(sid, 16, "enc");
        return;
    }
    json_t *clock = ops_child(state, "clock");
    long n = num_of(clock, "next_scene", 2);
    while (json_object_get(json_object_get(state, "scenes"), (snprintf(sid, 16, "s%ld", n), sid)))
        n++;
    json_object_set_new(clock, "next_scene", json_integer(n + 1));
}

static int scene_join(const op_ctx *ctx, json_t *state, const char *sid, rules_enc *e,
                      const char *chid, const json_t *quick, const char *side, char cid[24],
                      tb_err *err);
static void scene_drop(rules_enc *e, const char *cid);

/* Moves every combatant of scene `from` who is not out into e's scene (scene `sid`): same
 * characters, same sides, sheets as the fight left them. Logged in both scenes. */
static int scene_move_all(const op_ctx *ctx, json_t *state, rules_enc *src, const char *sid,
                          rules_enc *dst, tb_err *err)
{
    json_t *who = json_array(); /* [{char?, npc?, side}] gathered before anyone moves */
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(src, i)); i++) {
        if (rules_enc_is_out(src, cid))
            continue;
        json_t *c = rules_enc_combatant(src, cid);
        json_t *h = json_object_get(json_object_get(src->hidden, "combatants"), cid);
        json_t *one = json_pack("{s:s, s:s}", "from", cid, "side", rules_enc_side(src, cid));
        const char *ch = json_string_value(json_object_get(c, "char"));
        if (!ch)
            ch = json_string_value(json_object_get(h, "char"));
        if (ch) {
            json_object_set_new(one, "char", json_string(ch));
        } else {
            json_t *q = json_pack("{s:s}", "name", rules_enc_name(src, cid));
            if (json_is_object(json_object_get(h, "sheet")))
                json_object_set(q, "sheet", json_object_get(h, "sheet"));
            json_object_set_new(one, "npc", q);
        }
        json_array_append_new(who, one);
    }
    int rc = TB_OK;
    if (json_array_size(who) == 0)
        rc = tb_fail(err, TB_RULE, "nobody in the scene '%s' is still in it to take along",
                     json_string_value(json_object_get(src->enc, "name")));
    size_t i;
    json_t *one;
    /* what scene_join would refuse of someone, refused before anyone joins (a join rolls) */
    json_array_foreach(who, i, one)
    {
        const json_t *sheet = json_object_get(json_object_get(one, "npc"), "sheet");
        if (rc == TB_OK && sheet && rules_sheet_validate(ops_campaign_system(state), sheet, err))
            rc = err->code;
    }
    if (rc) {
        json_decref(who);
        return rc;
    }
    json_array_foreach(who, i, one)
    {
        const char *from = json_string_value(json_object_get(one, "from"));
        rules_log *x = rules_log_begin(src, "leave", "leave_for");
        rules_log_who(x, "who", from);
        rules_log_name(x, "scene", json_string_value(json_object_get(dst->enc, "name")),
                       RULES_AUD_PUBLIC);
        rules_log_end(x);
        scene_drop(src, from);
    }
    json_array_foreach(who, i, one)
    {
        char nc[24];
        if (rc == TB_OK)
            rc = scene_join(ctx, state, sid, dst, json_string_value(json_object_get(one, "char")),
                            json_object_get(one, "npc"),
                            json_string_value(json_object_get(one, "side")), nc, err);
    }
    json_decref(who);
    return rc;
}

static int op_enc_start(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    const char *mid = json_string_value(json_object_get(args, "module"));
    const char *want = json_string_value(json_object_get(args, "scene"));
    const char *from_sid = json_string_value(json_object_get(args, "from"));
    const char *sys = ops_campaign_system(state);
    if (want && strcmp(want, "new") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.start: 'scene' is \"new\" (a scene beside the "
                                            "running ones) or absent");
    if (!want && json_is_object(json_object_get(state, "enc")))
        return tb_fail(err, TB_RULE, "an encounter is already running; end it first (enc.end) "
                                     "or open another scene beside it (scene: \"new\")");
    scene_names running = {.len = 0};
    scene_each(state, name_one, &running);
    if (running.n >= SCENES_MAX)
        return tb_fail(err, TB_RULE, "%d scenes are running, the most a campaign holds at once; "
                                     "end one first (enc.end)",
                       running.n);
    json_t *from = NULL;
    char from_id[16] = "";
    if (from_sid) {
        json_t *pick = json_pack("{s:s}", "scene", from_sid);
        int rc = scene_pick(state, pick, from_id, err);
        json_decref(pick);
        if (rc)
            return rc;
        from = scene_pub(state, from_id);
    }
    const rules_module *m = rules_module_find(mid);
    if (!m || strcmp(m->system, sys) != 0) {
        char names[200] = "";
        size_t len = 0;
        const rules_module *x;
        for (size_t i = 0; (x = rules_module_at(i)) && len < sizeof names; i++)
            if (strcmp(x->system, sys) == 0)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                        x->id);
        return tb_fail(err, TB_NOT_FOUND, "no encounter module '%.40s' in a %s campaign (%s)", mid,
                       sys, len ? names : "it has none");
    }
    rules_args opts;
    char what[80];
    snprintf(what, sizeof what, "enc.start %s", m->id);
    /* opts borrows its strings from `given`: released on every way out below */
    json_t *given = start_options(m, json_object_get(args, "options"), from);
    rules_enc src;
    if (rules_args_parse(what, m->options, given, &opts, err) ||
        (from && enc_open_usable(ctx, state, from_id, &src, err))) {
        json_decref(given);
        return err->code;
    }
    char sid[16];
    scene_new_id(state, sid);
    json_t *enc = json_pack("{s:s, s:s, s:i, s:i, s:[], s:{}, s:i, s:o}", "module", m->id, "name",
                            m->name, "round", 0, "turn", -1, "order", "combatants", "next_id", 1,
                            "options", rules_args_json(&opts));
    if (strcmp(sid, "enc") == 0) {
        json_object_set_new(state, "enc", enc);
        json_object_set_new(ops_child(state, "gm"), "enc", json_pack("{s:{}}", "combatants"));
    } else {
        json_object_set_new(ops_child(state, "scenes"), sid, enc);
        json_object_set_new(ops_child(ops_child(state, "gm"), "scenes"), sid,
                            json_pack("{s:{}}", "combatants"));
    }
    rules_enc e;
    if (enc_open(ctx, state, sid, &e, err)) {
        if (from)
            json_decref(enc_finish(ctx, state, from_id, &src, 0));
        json_decref(given);
        return err->code;
    }
    e.now_s = e.since_s = clock_start_new(state, from ? from_id : NULL);
    int rc = m->start ? m->start(&e, &opts, err) : TB_OK;
    if (rc == TB_OK) {
        rules_log *x = rules_log_begin(&e, "start", "start");
        rules_log_name(x, "module", m->name, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    if (rc == TB_OK)
        carry_restore(state, &e, json_object_get(args, "options"));
    if (rc == TB_OK && from)
        rc = scene_move_all(ctx, state, &src, sid, &e, err);
    if (rc == TB_OK)
        clock_after(state, sid, &e);
    json_t *moved = from ? enc_finish(ctx, state, from_id, &src, rc == TB_OK) : json_array();
    json_t *entries = enc_finish(ctx, state, sid, &e, rc == TB_OK);
    json_decref(given);
    if (rc) {
        json_decref(moved);
        json_decref(entries);
        return rc;
    }
    json_array_extend(moved, entries);
    json_decref(entries);
    clock_update(state, NULL, from ? from_id : NULL);
    ops_map_follow(state);
    ops_session_scene_starts(state); /* the first scene ends the session's beginning */
    *result = json_pack("{s:s, s:s, s:o}", "module", m->id, "scene", sid, "log", moved);
    return TB_OK;
}

/* ---- enc.add / enc.remove ---- */

typedef struct char_where {
    const char *chid;
    char found[120];
} char_where;

static void char_find(const char *sid, json_t *pub, void *arg)
{
    char_where *w = arg;
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(pub, "combatants"), k, v)
    {
        if (!w->found[0] && rules_enc_streq(json_string_value(json_object_get(v, "char")), w->chid))
            snprintf(w->found, sizeof w->found, "%s (%.40s, %s)", sid,
                     json_string_value(json_object_get(pub, "name")), k);
    }
}

/* The largest next_id of the running scenes (arg: a long, raised). */
static void max_next_id(const char *sid, json_t *pub, void *arg)
{
    (void)sid;
    long *next = arg;
    if (num_of(pub, "next_id", 1) > *next)
        *next = num_of(pub, "next_id", 1);
}

/*
 * Adds a combatant to the open scene e (scene sid): a character (chid: a PC of /chars or an NPC
 * of /gm/npcs) or a quick NPC (quick: {name, side?, sheet?}), on `side` (default: party for a PC,
 * foes for an NPC), then runs the module's join hook. A PC already in a scene is refused naming
 * that scene (a character is in one scene at a time). The new id is written to cid. Log entries
 * go to e; the caller finishes e.
 */
static int scene_join(const op_ctx *ctx, json_t *state, const char *sid, rules_enc *e,
                      const char *chid, const json_t *quick, const char *side, char cid[24],
                      tb_err *err)
{
    const char *sys = ops_campaign_system(state);
    int rc = TB_OK;
    json_t *sheet = NULL; /* borrowed */
    const char *name = NULL, *seat = "gm";
    int npc = 1;
    json_t *quick_sheet = NULL;
    if ((chid != NULL) == (quick != NULL)) {
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: give either 'char' (a character id) or 'npc' "
                                          "({name, side?, sheet?})");
    } else if (chid) {
        json_t *c = json_object_get(json_object_get(state, "chars"), chid);
        if (c) {
            npc = 0;
            seat = json_string_value(json_object_get(c, "seat"));
            const char *k;
            json_t *v;
            json_object_foreach(json_object_get(e->enc, "combatants"), k, v)
            {
                if (rc == TB_OK &&
                    rules_enc_streq(json_string_value(json_object_get(v, "char")), chid))
                    rc = tb_fail(err, TB_RULE, "%s is already in the encounter (%s)",
                                 json_string_value(json_object_get(c, "name")), k);
            }
            char_where w = {.chid = chid};
            if (rc == TB_OK)
                scene_each(state, char_find, &w);
            if (w.found[0])
                rc = tb_fail(err, TB_RULE,
                             "%s is already in another scene, %s: a character is in one scene "
                             "at a time",
                             json_string_value(json_object_get(c, "name")), w.found);
        } else {
            c = json_object_get(json_object_get(json_object_get(state, "gm"), "npcs"), chid);
        }
        if (!c && rc == TB_OK)
            rc = tb_fail(err, TB_NOT_FOUND, "no character '%.32s' in this campaign", chid);
        if (c) {
            name = json_string_value(json_object_get(c, "name"));
            sheet = json_object_get(c, "sheet");
        }
    } else {
        const json_t *n = json_object_get(quick, "name");
        const json_t *s = json_object_get(quick, "sheet");
        const char *qside = json_string_value(json_object_get(quick, "side"));
        if (qside && !side)
            side = qside;
        if (!json_is_string(n) || json_string_length(n) < 1 || json_string_length(n) > 40)
            rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: 'npc.name' must be a name of 1 to 40 "
                                              "characters");
        else if (s && !json_is_object(s))
            rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: 'npc.sheet' must be an object");
        else if (s && rules_sheet_validate(sys, s, err))
            rc = err->code;
        if (rc == TB_OK) {
            name = json_string_value(n);
            if (s)
                sheet = quick_sheet = json_deep_copy(s);
        }
    }
    if (rc == TB_OK && side && (strlen(side) < 1 || strlen(side) > 32))
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: 'side' must be 1 to 32 characters");
    if (rc) {
        json_decref(quick_sheet);
        return rc;
    }
    if (!side)
        side = npc ? "foes" : "party";
    /* Combatant ids are unique across the running scenes, so what a seat learned about "e3"
     * (cot.social's /private/<seat>/social/<cid>, cleared per id when a call ends) names one
     * person. With one scene this is its own next_id: nothing changes. */
    long next = 1;
    scene_each(state, max_next_id, &next);
    if (next > num_of(e->enc, "next_id", 1))
        json_object_set_new(e->enc, "next_id", json_integer(next));
    if ((rc = rules_enc_add_combatant(e, name, side, seat ? seat : "gm", npc, cid, err))) {
        json_decref(quick_sheet);
        return rc;
    }
    json_t *comb = rules_enc_combatant(e, cid);
    if (!npc)
        json_object_set_new(comb, "char", json_string(chid));
    json_t *hid = rules_enc_hidden_of(e, cid);
    if (npc && chid)
        json_object_set_new(hid, "char", json_string(chid));
    if (quick_sheet)
        json_object_set_new(hid, "sheet", quick_sheet); /* steals */
    json_t *stats = rules_enc_stats(e, cid);
    for (const char *const *k = e->mod->sheet_stats; k && *k && sheet; k++) {
        json_t *v = json_object_get(sheet, *k);
        if (v)
            json_object_set_new(stats, *k, json_deep_copy(v));
    }
    const char *actor = e->actor;
    e->actor = cid;
    rc = e->mod->join ? e->mod->join(e, cid, sheet, err) : TB_OK;
    e->actor = actor;
    if (rc == TB_OK && !npc)
        carry_join(state, e, chid, cid);
    if (rc == TB_OK) {
        rules_log *x = rules_log_begin(e, "join", "join");
        rules_log_who(x, "who", cid);
        rules_log_name(x, "side", side, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    (void)ctx;
    return rc;
}

static int op_enc_add(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    char sid[16], cid[24];
    rules_enc e;
    if (scene_pick(state, args, sid, err) || enc_open_usable(ctx, state, sid, &e, err))
        return err->code;
    int rc = scene_join(ctx, state, sid, &e, json_string_value(json_object_get(args, "char")),
                        json_object_get(args, "npc"),
                        json_string_value(json_object_get(args, "side")), cid, err);
    json_t *entries = enc_finish(ctx, state, sid, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    clock_update(state, NULL, NULL);
    ops_map_follow(state); /* who may move which token (a turn moved, a fighter left) */
    *result = json_pack("{s:s, s:o}", "id", cid, "log", entries);
    return TB_OK;
}

/* Takes combatant cid out of e's scene: out of the order (the turn pointer stays on the same
 * entry), its public and GM-only objects removed. The caller logs why. */
static void scene_drop(rules_enc *e, const char *cid)
{
    int idx = rules_enc_order_index(e, cid);
    if (idx >= 0) {
        json_t *order = json_object_get(e->enc, "order");
        int turn = (int)json_integer_value(json_object_get(e->enc, "turn"));
        json_array_remove(order, (size_t)idx);
        if (idx < turn || (idx == turn && turn >= (int)json_array_size(order)))
            turn--;
        json_object_set_new(e->enc, "turn", json_integer(turn));
    }
    json_object_del(json_object_get(e->hidden, "combatants"), cid);
    json_object_del(json_object_get(e->enc, "combatants"), cid);
}

static int op_enc_remove(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                         tb_err *err)
{
    char sid[16];
    rules_enc e;
    if (scene_pick(state, args, sid, err) || enc_open(ctx, state, sid, &e, err))
        return err->code;
    const char *cid = json_string_value(json_object_get(args, "id"));
    if (!rules_enc_combatant(&e, cid)) {
        json_decref(enc_finish(ctx, state, sid, &e, 0));
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in the encounter", cid);
    }
    rules_log *x = rules_log_begin(&e, "leave", "leave");
    rules_log_who(x, "who", cid);
    rules_log_end(x);
    scene_drop(&e, cid);
    json_t *entries = enc_finish(ctx, state, sid, &e, 1);
    clock_update(state, NULL, NULL);
    ops_map_follow(state); /* who may move which token (a turn moved, a fighter left) */
    *result = json_pack("{s:s, s:o}", "id", cid, "log", entries);
    return TB_OK;
}

/* ---- enc.act ---- */

static int op_enc_act(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    char sid[16];
    rules_enc e;
    if (scene_pick(state, args, sid, err) || enc_open_usable(ctx, state, sid, &e, err))
        return err->code;
    const char *name = json_string_value(json_object_get(args, "action"));
    const char *actor = json_string_value(json_object_get(args, "actor"));
    /* who may, the parameters and the action's check, then its resolve (rules_enc_act) */
    json_t *before = stats_before(sid, &e);
    int rc = rules_enc_act(&e, name, actor, json_object_get(args, "params"), err);
    if (rc == TB_OK) {
        clock_after(state, sid, &e); /* what the clock passed may change stats too */
        write_back(state, &e, before);
    }
    json_decref(before);
    json_t *entries = enc_finish(ctx, state, sid, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    clock_update(state, NULL, NULL);
    ops_map_follow(state); /* a heist zone the crew now knows shows its map zone */
    *result = json_pack("{s:s, s:s, s:o}", "action", name, "scene", sid, "log", entries);
    if (e.actor)
        json_object_set_new(*result, "actor", json_string(e.actor));
    return TB_OK;
}

/* ---- enc.moves ---- */

typedef struct moves_pass {
    const op_ctx *ctx;
    json_t *state, *out;
    const char *only; /* the scene asked for, or NULL for every running one */
} moves_pass;

/* The caller's moves in scene sid (rules_enc_moves), read without writing anything: a scene
 * whose GM half or /private is missing reads empty ones, the module's checks get no dice, and
 * what they might log is dropped. A scene the module cannot use offers nothing. */
static void moves_one(const char *sid, json_t *pub, void *arg)
{
    moves_pass *mp = arg;
    if (mp->only && strcmp(mp->only, sid) != 0)
        return;
    json_t *gm = json_object_get(mp->state, "gm");
    json_t *hid = strcmp(sid, "enc") == 0 ? json_object_get(gm, "enc")
                                          : json_object_get(json_object_get(gm, "scenes"), sid);
    json_t *priv = json_object_get(mp->state, "private");
    json_t *own = json_pack("{s:O?, s:O?}", "hid", json_is_object(hid) ? hid : NULL, "priv",
                            json_is_object(priv) ? priv : NULL);
    rules_enc e;
    memset(&e, 0, sizeof e);
    const char *mid = json_string_value(json_object_get(pub, "module"));
    e.mod = mid ? rules_module_find(mid) : NULL;
    e.enc = pub;
    e.hidden = json_is_object(hid) ? hid : ops_child(own, "hid");
    e.priv = json_is_object(priv) ? priv : ops_child(own, "priv");
    e.rng = rules_rng_scripted(NULL, 0);
    e.seat = mp->ctx->seat;
    e.is_gm = mp->ctx->is_gm;
    e.log = json_array();
    e.gm_log = json_array();
    e.seat_log = json_array();
    e.squares = json_object_get(json_object_get(json_object_get(mp->state, "maps"), sid), "tokens");
    e.grid = json_object_get(json_object_get(json_object_get(mp->state, "maps"), sid), "grid");
    clock_open(mp->state, sid, &e);
    tb_err err = {0};
    json_t *moves =
        e.mod && rules_enc_check(&e, &err) == TB_OK ? rules_enc_moves(&e) : json_array();
    json_object_set_new(mp->out, sid, moves);
    rules_rng_destroy(e.rng);
    json_decref(e.log);
    json_decref(e.gm_log);
    json_decref(e.seat_log);
    json_decref(own);
}

/* enc.moves: what the caller may do now in each running scene (or in `scene`): {moves: {<sid>:
 * [move]}} (rules/encounter.h, rules_enc_moves). Read-only: it writes nothing. */
static int op_enc_moves(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    char sid[16];
    const char *want = json_string_value(json_object_get(args, "scene"));
    if (want && scene_pick(state, args, sid, err))
        return err->code;
    moves_pass mp = {.ctx = ctx, .state = state, .out = json_object(), .only = want ? sid : NULL};
    scene_each(state, moves_one, &mp);
    *result = json_pack("{s:o}", "moves", mp.out);
    return TB_OK;
}

/* ---- enc.set / enc.end ---- */

/*
 * enc.set names a field by its path. A module declares its fields as paths of the first scene
 * (/enc/..., /gm/enc/...), so a field of scene s2 is named either that way with 'scene': "s2",
 * or by its real path /scenes/s2/... (/gm/scenes/s2/...), which also picks the scene. Writes the
 * first-scene form to canon (>= 220 bytes) and, for a real path, sets args.scene (args is the
 * caller's copy); TB_BAD_REQUEST when a real path and 'scene' disagree.
 */
static int scene_path(const char *path, json_t *args, char canon[220], tb_err *err)
{
    int gm = strncmp(path, "/gm/scenes/", 11) == 0;
    if (!gm && strncmp(path, "/scenes/", 8) != 0) {
        snprintf(canon, 220, "%s", path);
        return TB_OK;
    }
    const char *id = path + (gm ? 11 : 8), *rest = strchr(id, '/');
    char sid[16];
    if (!rest || rest == id || rest - id >= 16)
        return tb_fail(err, TB_BAD_REQUEST, "enc.set: '%.60s' names no field of a scene", path);
    snprintf(sid, sizeof sid, "%.*s", (int)(rest - id), id);
    const char *given = json_string_value(json_object_get(args, "scene"));
    if (given && strcmp(given, sid) != 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.set: the path names scene %s, 'scene' says %.16s",
                       sid, given);
    json_object_set_new(args, "scene", json_string(sid));
    snprintf(canon, 220, "%s%.200s", gm ? "/gm/enc" : "/enc", rest);
    return TB_OK;
}

/* Where the GM's value for field f lands: a stat where the combatant's stats live (for an NPC
 * that is /gm/enc even when the GM named the public path), anything else at path (missing objects
 * on the way are created). *gm is set when the change is GM-only. */
static int set_field(json_t *state, rules_enc *e, const rules_enc_field *f, const char *cid,
                     const char *path, const json_t *value, int *gm, tb_err *err)
{
    /* a BOOL field takes 0/1 like an action parameter and is stored as true/false */
    json_t *stored = f->type == RULES_PARAM_BOOL
                         ? json_boolean(json_is_true(value) || json_integer_value(value) == 1)
                         : json_deep_copy(value);
    if (strncmp(f->path, "stats/", 6) == 0) {
        rules_enc_stat_put(e, cid, f->path + 6, stored);
        *gm = rules_enc_is_npc(e, cid);
        return TB_OK;
    }
    *gm = strncmp(path, "/gm/", 4) == 0;
    return ops_pointer_set(state, path, stored, err);
}

/* enc.set writes only a field the module declares editable (rules_enc_editable: a path, a type
 * and a range, checked like an action parameter), and only when the module can still use the
 * state afterwards (rules_enc_check); anything else is refused and nothing changes. */
static int op_enc_set(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    char sid[16], canon[220], real[240];
    const char *path = json_string_value(json_object_get(args, "path"));
    json_t *pick = json_deep_copy(args);
    int prc = scene_path(path, pick, canon, err);
    if (prc == TB_OK)
        prc = scene_pick(state, pick, sid, err);
    json_decref(pick);
    if (prc)
        return prc;
    rules_enc e;
    if (enc_open(ctx, state, sid, &e, err))
        return err->code;
    /* the module's fields are written as for the first scene (/enc/..., /gm/enc/...) */
    if (strcmp(sid, "enc") == 0)
        snprintf(real, sizeof real, "%s", canon);
    else if (strncmp(canon, "/gm/enc", 7) == 0)
        snprintf(real, sizeof real, "/gm/scenes/%s%s", sid, canon + 7);
    else
        snprintf(real, sizeof real, "/scenes/%s%s", sid, canon + 4);
    path = canon;
    const json_t *value = json_object_get(args, "value");
    const rules_enc_field *f = NULL;
    char cid[24] = "";
    int gm = 0, rc = TB_OK;
    json_t *before = stats_before(sid, &e);
    if (strcmp(path, "/enc/module") == 0)
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.set: the module of a running encounter cannot "
                                          "change");
    else if ((rc = rules_enc_editable(&e, path, value, &f, cid, err)) == TB_OK &&
             (rc = set_field(state, &e, f, cid, real, value, &gm, err)) == TB_OK)
        rc = rules_enc_check(&e, err);
    /* a stat the module writes back reaches the sheet in this same command, where the sheet
     * lives (/chars/<id>: the party's; an NPC's under /gm), as an action's change would */
    if (rc == TB_OK)
        write_back(state, &e, before);
    json_decref(before);
    if (rc == TB_OK) {
        rules_log *x = rules_log_begin(&e, "adjust", "adjust");
        if (cid[0])
            rules_log_who(x, "who", cid);
        rules_log_name(x, "field", f->label, gm ? RULES_AUD_GM : RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    json_t *entries = enc_finish(ctx, state, sid, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    clock_update(state, NULL, NULL);
    ops_map_follow(state); /* a heist zone the crew now knows shows its map zone */
    *result = json_pack("{s:s, s:s, s:o}", "path", real, "scene", sid, "log", entries);
    return TB_OK;
}

static int op_enc_end(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    char sid[16];
    rules_enc e;
    if (scene_pick(state, args, sid, err) || enc_open(ctx, state, sid, &e, err))
        return err->code;
    int rounds = rules_enc_round(&e);
    int rc = TB_OK;
    tb_err damage = {0};
    /* A state the module cannot use ends without the module's end hook, which would read it. */
    if (e.mod->end && rules_enc_check(&e, &damage) == TB_OK) {
        json_t *before = stats_before(sid, &e);
        rc = e.mod->end(&e, err);
        if (rc == TB_OK)
            write_back(state, &e, before);
        json_decref(before);
    }
    if (rc == TB_OK) {
        rules_log *x = rules_log_begin(&e, "end", "end");
        rules_log_int(x, "rounds", rounds, RULES_AUD_PUBLIC);
        if (rounds != 1)
            rules_log_word(x, "plural", "plural", RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    json_t *entries = enc_finish(ctx, state, sid, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    /* what the module keeps outlives the scene, unless its state is damaged */
    if (rules_enc_check(&e, &damage) == TB_OK)
        carry_save(state, sid, &e);
    clock_update(state, sid, NULL);
    if (strcmp(sid, "enc") == 0) {
        json_object_del(state, "enc");
        json_object_del(json_object_get(state, "gm"), "enc");
    } else {
        json_t *gm_scenes = json_object_get(json_object_get(state, "gm"), "scenes");
        json_object_del(json_object_get(state, "scenes"), sid);
        json_object_del(gm_scenes, sid);
        if (json_object_size(json_object_get(state, "scenes")) == 0)
            json_object_del(state, "scenes");
        if (json_object_size(gm_scenes) == 0)
            json_object_del(json_object_get(state, "gm"), "scenes");
    }
    ops_map_follow(state); /* a bound zone goes with its heist */
    *result = json_pack("{s:i, s:s, s:o}", "rounds", rounds, "scene", sid, "log", entries);
    return TB_OK;
}

/* `scene`: which scene an op acts in (default: the first, /enc); enc.start takes "new". */
#define ARG_SCENE {"scene", ARG_STRING, 0, 1, 16}

static const op_arg ARGS_START[] = {
    {"module", ARG_STRING, 1, 1, 40},
    ARG_SCENE,
    {"from", ARG_STRING, 0, 1, 16},
    {"options", ARG_OBJECT, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ADD[] = {
    ARG_SCENE,
    {"char", ARG_STRING, 0, 1, 32},
    {"npc", ARG_OBJECT, 0, 0, 0},
    {"side", ARG_STRING, 0, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_REMOVE[] = {
    ARG_SCENE,
    {"id", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ACT[] = {
    ARG_SCENE,
    {"action", ARG_STRING, 1, 1, 40},
    {"actor", ARG_STRING, 0, 1, 32},
    {"params", ARG_OBJECT, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_SET[] = {
    ARG_SCENE,
    {"path", ARG_STRING, 1, 5, 200},
    {"value", ARG_ANY, 1, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_END[] = {
    ARG_SCENE,
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_MOVES[] = {
    ARG_SCENE,
    {NULL, 0, 0, 0, 0},
};

/* Every encounter op may change any scene (the first at /enc, the others under /scenes), the
 * characters its combatants were made from (write_back), what one seat learned
 * (/private/<seat>/social: cot.social), the campaign clock, what a between-scenes module keeps
 * for the next scene (/between, /gm/between), the zones the maps show and who may move their
 * tokens (ops_map_follow) and the logs. */
static const op_write W_ENC[] = {{"/enc", 0},
                                 {"/gm/enc", 0},
                                 {"/scenes", 0},
                                 {"/gm/scenes", 0},
                                 {"/clock", 0},
                                 {"/chars", OP_WRITE_COMBATANTS},
                                 {"/gm/npcs", OP_WRITE_COMBATANTS},
                                 {"/private", 0},
                                 {"/between", 0},
                                 {"/gm/between", 0},
                                 {"/maps", 1},
                                 OP_WRITES_LOGS,
                                 {NULL, 0}};
static const op_write W_NONE[] = {{NULL, 0}};

const op_def OPS_ENC[] = {
    {"enc.start", op_enc_start, WHO_GM, 0, ARGS_START, W_ENC},
    {"enc.add", op_enc_add, WHO_GM, 0, ARGS_ADD, W_ENC},
    {"enc.remove", op_enc_remove, WHO_GM, 0, ARGS_REMOVE, W_ENC},
    {"enc.act", op_enc_act, WHO_ANY, 0, ARGS_ACT, W_ENC},
    {"enc.set", op_enc_set, WHO_GM, 0, ARGS_SET, W_ENC},
    {"enc.end", op_enc_end, WHO_GM, 0, ARGS_END, W_ENC},
    {"enc.moves", op_enc_moves, WHO_ANY, 1, ARGS_MOVES, W_NONE},
    {NULL, NULL, 0, 0, NULL, NULL},
};
