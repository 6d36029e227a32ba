/*
 * test_ops_enc.c — server/ops_enc.c's enc.set and the state check (issue 12): the two inputs that
 * crashed the server (a cot slot without a side, a Focus Round without `by`) are refused and
 * change nothing; a state an older build already committed with them is refused by enc.act
 * instead of crashing, and enc.end still ends it; the declared fields are typed and ranged; an
 * NPC's numbers stay under /gm. The ops run through the command table (ops_find,
 * ops_check_args, the handler on a working copy), as the engine runs them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>
#include <string.h>

#include "encounter.h"
#include "ops.h"
#include "rng.h"
#include "workcopy.h"

static json_t *g_state;
/* Set: ops run on a copy-on-write working copy (workcopy_make from the row's writes, as
 * server/run_op.c does), and the committed state must come out unchanged; else a deep copy. */
static int g_cow;
static rules_rng *g_dice;

/* Runs op as the GM (or seat) on a copy of g_state; commits the copy on success like the engine.
 * Returns the code; *msg (may be NULL) gets the refusal message. */
static int run_as(const char *seat, int is_gm, const char *op, json_t *args, char msg[256])
{
    const op_def *def = ops_find("cot", op);
    ck_assert_ptr_nonnull(def);
    tb_err err = {0};
    json_t *norm = NULL, *result = NULL;
    int rc = ops_check_args(def, args, &norm, &err);
    if (rc == TB_OK) {
        uint64_t was = g_cow ? workcopy_fingerprint(g_state) : 0;
        json_t *work = g_cow ? workcopy_make(g_state, def->writes_of ? def->writes_of(norm)
                                                                     : def->writes)
                             : json_deep_copy(g_state);
        op_ctx ctx = {.seat = seat,
                      .is_gm = is_gm,
                      .dice = g_dice,
                      .secret = g_dice,
                      .seq = 1,
                      .log_cap = 50};
        rc = def->fn(&ctx, work, norm, &result, &err);
        workcopy_settle();
        if (g_cow)
            ck_assert_msg(workcopy_check(g_state, was) == 0, "%s changed the committed state", op);
        if (rc == TB_OK) {
            json_decref(g_state);
            g_state = work;
        } else {
            json_decref(work);
        }
    }
    if (msg)
        snprintf(msg, 256, "%s", err.msg);
    json_decref(args);
    json_decref(norm);
    json_decref(result);
    return rc;
}

static int run(const char *op, json_t *args, char msg[256])
{
    return run_as("gm", 1, op, args, msg);
}

static json_t *enc_at(const char *key)
{
    return json_object_get(json_object_get(g_state, "enc"), key);
}

/* A cot campaign with a player seat, its character Vera and an NPC thug in a heist. */
static void setup(void)
{
    g_dice = rules_rng_seeded(5);
    g_state = ops_campaign_initial("c1", "Test", "cot", NULL);
    json_object_set_new(json_object_get(g_state, "seats"), "p1",
                        json_pack("{s:s, s:s}", "name", "Ann", "role", "player"));
    json_t *sheet = json_load_file(TB_SOURCE_ROOT "/rules/cot/samples/vera_lockhart.json", 0, NULL);
    ck_assert_ptr_nonnull(sheet);
    ck_assert_int_eq(run("char.create",
                         json_pack("{s:s, s:o, s:s}", "name", "Vera", "sheet", sheet, "seat", "p1"),
                         NULL),
                     TB_OK);
    ck_assert_int_eq(
        run("enc.start",
            json_pack("{s:s, s:{s:s}}", "module", "cot.initiative", "options", "stage", "heist"),
            NULL),
        TB_OK);
    const char *vera = NULL, *k;
    json_t *v;
    json_object_foreach(json_object_get(g_state, "chars"), k, v) vera = k;
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", vera), NULL), TB_OK); /* e1 */
    ck_assert_int_eq(run("enc.add", json_pack("{s:{s:s}}", "npc", "name", "Thug"), NULL),
                     TB_OK); /* e2 */
}

static void teardown(void)
{
    json_decref(g_state);
    rules_rng_destroy(g_dice);
}

START_TEST(slot_without_side_is_refused_and_begin_still_works)
{
    json_t *before = json_deep_copy(g_state);
    char msg[256];
    ck_assert_int_eq(run("enc.set",
                         json_pack("{s:s, s:[{s:i}]}", "path", "/enc/order", "value", "slot", 1),
                         msg),
                     TB_BAD_REQUEST);
    ck_assert_msg(strstr(msg, "/enc/order") && strstr(msg, "not something the GM may set"), "%s",
                  msg);
    ck_assert_msg(json_equal(before, g_state), "a refused enc.set changed the state");
    json_decref(before);
    ck_assert_int_eq(run("enc.act", json_pack("{s:s}", "action", "begin"), msg), TB_OK);
    ck_assert_int_eq(json_integer_value(enc_at("round")), 1);
}
END_TEST

START_TEST(focus_without_by_is_refused_and_give_still_answers)
{
    char msg[256];
    ck_assert_int_eq(run("enc.set", json_pack("{s:s, s:{}}", "path", "/enc/focus", "value"), msg),
                     TB_BAD_REQUEST);
    ck_assert_ptr_null(enc_at("focus"));
    ck_assert_int_eq(run("enc.act", json_pack("{s:s, s:s}", "action", "give", "actor", "e1"), msg),
                     TB_RULE);
    ck_assert_msg(strstr(msg, "no Focus Round"), "%s", msg);
}
END_TEST

/* What today's build committed before the fix: the bad values written straight into the state. */
START_TEST(a_damaged_state_from_an_older_build_is_refused_not_crashed)
{
    char msg[256];
    ck_assert_int_eq(run("enc.act", json_pack("{s:s}", "action", "begin"), msg), TB_OK);
    json_object_set_new(json_object_get(g_state, "enc"), "order", json_pack("[{s:i}]", "slot", 1));
    json_object_set_new(json_object_get(g_state, "enc"), "turn", json_integer(0));
    json_t *before = json_deep_copy(g_state);
    ck_assert_int_eq(run("enc.act", json_pack("{s:s}", "action", "begin"), msg), TB_RULE);
    ck_assert_msg(strstr(msg, "cannot go on") && strstr(msg, "end"), "%s", msg);
    ck_assert_int_eq(run("enc.act", json_pack("{s:s, s:s}", "action", "claim", "actor", "e1"), msg),
                     TB_RULE);
    ck_assert_int_eq(run("enc.add", json_pack("{s:{s:s}}", "npc", "name", "Rat"), msg), TB_RULE);
    ck_assert_msg(json_equal(before, g_state), "a refusal changed the state");
    json_decref(before);

    /* the Focus Round of an older build, without `by` */
    json_object_set_new(json_object_get(g_state, "enc"), "order", json_array());
    json_object_set_new(json_object_get(g_state, "enc"), "turn", json_integer(-1));
    json_object_set_new(json_object_get(g_state, "enc"), "focus", json_object());
    ck_assert_int_eq(run("enc.act", json_pack("{s:s, s:s}", "action", "give", "actor", "e1"), msg),
                     TB_RULE);
    ck_assert_msg(strstr(msg, "Focus Round"), "%s", msg);
    /* an edit cannot make it worse, and the GM can still end it */
    ck_assert_int_eq(run("enc.set", json_pack("{s:s, s:i}", "path", "/enc/round", "value", 2), msg),
                     TB_RULE);
    ck_assert_int_eq(run("enc.end", json_object(), msg), TB_OK);
    ck_assert_ptr_null(json_object_get(g_state, "enc"));
}
END_TEST

START_TEST(declared_fields_are_typed_and_ranged)
{
    char msg[256];
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:i}", "path", "/enc/combatants/e1/stats/cover", "value", 7), msg),
        TB_OK);
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(enc_at("combatants"), "e1"), "stats"), "cover")),
        7);
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:i}", "path", "/enc/combatants/e1/stats/cover", "value", 500), msg),
        TB_BAD_REQUEST);
    ck_assert_msg(strstr(msg, "Cover") && strstr(msg, "0..99"), "%s", msg);
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:s}", "path", "/enc/combatants/e1/stats/cover", "value", "x"), msg),
        TB_BAD_REQUEST);
    ck_assert_int_eq(run("enc.set", json_pack("{s:s, s:i}", "path", "/enc/turn", "value", 5), msg),
                     TB_RULE); /* the order holds no slot 6 before begin */
    ck_assert_int_eq(run("enc.set",
                         json_pack("{s:s, s:s}", "path", "/enc/combatants/e9/side", "value", "x"),
                         msg),
                     TB_BAD_REQUEST); /* no such combatant: nothing is created */
    ck_assert_ptr_null(json_object_get(enc_at("combatants"), "e9"));
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:b}", "path", "/enc/combatants/e1/stats/wounded", "value", 1), msg),
        TB_OK);
    ck_assert(json_is_true(json_object_get(
        json_object_get(json_object_get(enc_at("combatants"), "e1"), "stats"), "wounded")));
}
END_TEST

START_TEST(an_npc_number_lands_under_gm)
{
    char msg[256];
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:i}", "path", "/enc/combatants/e2/stats/cover", "value", 4), msg),
        TB_OK);
    json_t *pub = json_object_get(json_object_get(enc_at("combatants"), "e2"), "stats");
    ck_assert_ptr_null(json_object_get(pub, "cover"));
    json_t *hid = json_object_get(
        json_object_get(
            json_object_get(json_object_get(json_object_get(g_state, "gm"), "enc"), "combatants"),
            "e2"),
        "stats");
    ck_assert_int_eq(json_integer_value(json_object_get(hid, "cover")), 4);
    /* its log line is GM-only */
    json_t *log = json_object_get(g_state, "log");
    json_t *last = json_array_get(log, json_array_size(log) - 1);
    ck_assert_msg(!strstr(json_string_value(json_object_get(last, "text")), "Cover"),
                  "an NPC's adjusted number was logged publicly");
    json_t *gm_log = json_object_get(json_object_get(g_state, "gm"), "log");
    last = json_array_get(gm_log, json_array_size(gm_log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(last, "text")),
                     "The GM adjusts Thug's Cover");
}
END_TEST

/* Scenes (issue 13): a second scene's field is set by its real path or the first scene's path
 * with `scene`, and lands under /scenes/s2 (its NPC's numbers under /gm/scenes/s2); a real path
 * that disagrees with `scene` is refused and nothing changes. */
START_TEST(a_second_scene_is_set_by_its_own_paths)
{
    char msg[256];
    ck_assert_int_eq(run("enc.start",
                         json_pack("{s:s, s:s, s:{s:s}}", "module", "cot.initiative", "scene",
                                   "new", "options", "stage", "violence"),
                         msg),
                     TB_OK);
    ck_assert_int_eq(run("enc.add",
                         json_pack("{s:s, s:{s:s}}", "scene", "s2", "npc", "name", "Rat"), msg),
                     TB_OK);
    ck_assert_int_eq(
        run("enc.set", json_pack("{s:s, s:s}", "path", "/scenes/s2/name", "value", "Alley"), msg),
        TB_OK);
    ck_assert_int_eq(run("enc.set",
                         json_pack("{s:s, s:s, s:i}", "path", "/enc/combatants/e3/stats/cover",
                                   "scene", "s2", "value", 5),
                         msg),
                     TB_OK);
    json_t *s2 = json_object_get(json_object_get(g_state, "scenes"), "s2");
    ck_assert_str_eq(json_string_value(json_object_get(s2, "name")), "Alley");
    json_t *rat = json_object_get(
        json_object_get(
            json_object_get(json_object_get(json_object_get(g_state, "gm"), "scenes"), "s2"),
            "combatants"),
        "e3"); /* ids are unique across the running scenes: the heist has e1 and e2 */
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(rat, "stats"), "cover")), 5);
    ck_assert_str_eq(json_string_value(enc_at("name")), "Initiative slots");
    ck_assert_int_eq(run("enc.set",
                         json_pack("{s:s, s:s, s:s}", "path", "/scenes/s2/name", "scene", "enc",
                                   "value", "X"),
                         msg),
                     TB_BAD_REQUEST);
    ck_assert_msg(strstr(msg, "names scene s2"), "%s", msg);
    ck_assert_str_eq(json_string_value(json_object_get(s2, "name")), "Alley");
}
END_TEST

/* The clock after the ops: the heist (5 minutes) and the fight (1 minute) on one clock; ending
 * the fight after 2 rounds beside the heist counts as one Heist round (000:24); a scene opened
 * from a scene with nobody left in it is refused. */
START_TEST(the_clock_follows_the_scenes)
{
    char msg[256];
    ck_assert_int_eq(run("enc.act", json_pack("{s:s}", "action", "begin"), msg), TB_OK);
    ck_assert_int_eq(run("enc.start",
                         json_pack("{s:s, s:s, s:{s:s}}", "module", "cot.initiative", "scene",
                                   "new", "options", "stage", "violence"),
                         msg),
                     TB_OK);
    json_t *clock = json_object_get(g_state, "clock");
    json_t *fight = json_object_get(json_object_get(clock, "scenes"), "s2");
    ck_assert_int_eq(json_integer_value(json_object_get(fight, "unit_s")), 60);
    ck_assert_int_eq(json_integer_value(json_object_get(fight, "start_s")), 300);
    ck_assert_int_eq(json_integer_value(json_object_get(clock, "elapsed_s")), 300);
    ck_assert_str_eq(json_string_value(json_object_get(clock, "next")), "s2");
    ck_assert_int_eq(run("enc.set",
                         json_pack("{s:s, s:s, s:i}", "path", "/enc/round", "scene", "s2",
                                   "value", 2),
                         msg),
                     TB_OK);
    clock = json_object_get(g_state, "clock");
    ck_assert_int_eq(json_integer_value(json_object_get(clock, "elapsed_s")), 420);
    ck_assert_int_eq(run("enc.start",
                         json_pack("{s:s, s:s, s:s}", "module", "cot.chase", "scene", "new",
                                   "from", "s2"),
                         msg),
                     TB_BAD_REQUEST); /* a chase needs its Target side: options are checked first */
    ck_assert_int_eq(run("enc.start",
                         json_pack("{s:s, s:s, s:s, s:{s:s}}", "module", "cot.chase", "scene",
                                   "new", "from", "s2", "options", "target_side", "party"),
                         msg),
                     TB_RULE);
    ck_assert_msg(strstr(msg, "nobody in the scene"), "%s", msg);
    ck_assert_int_eq(run("enc.end", json_pack("{s:s}", "scene", "s2"), msg), TB_OK);
    clock = json_object_get(g_state, "clock");
    /* 7 minutes beside a heist that started at 0: its next boundary, 10 minutes */
    ck_assert_int_eq(json_integer_value(json_object_get(clock, "settled_s")), 600);
    ck_assert_int_eq(json_integer_value(json_object_get(clock, "elapsed_s")), 600);
    ck_assert_ptr_null(json_object_get(g_state, "scenes"));
    ck_assert_ptr_null(json_object_get(json_object_get(g_state, "gm"), "scenes"));
}
END_TEST

/* At most 16 scenes run at once; the refusal changes nothing. */
START_TEST(sixteen_scenes_at_most)
{
    char msg[256];
    for (int i = 0; i < 15; i++) /* the fixture's heist is the first */
        ck_assert_int_eq(run("enc.start",
                             json_pack("{s:s, s:s}", "module", "cot.social", "scene", "new"), msg),
                         TB_OK);
    ck_assert_int_eq(json_object_size(json_object_get(g_state, "scenes")), 15);
    ck_assert_int_eq(
        run("enc.start", json_pack("{s:s, s:s}", "module", "cot.social", "scene", "new"), msg),
        TB_RULE);
    ck_assert_msg(strstr(msg, "16 scenes are running"), "%s", msg);
    ck_assert_int_eq(json_object_size(json_object_get(g_state, "scenes")), 15);
    ck_assert_int_eq(json_object_size(json_object_get(json_object_get(g_state, "clock"), "scenes")),
                     16);
}
END_TEST

/* ---- between the scenes (issue 17): what outlives a scene, the clock, enc.set ---- */

/* The id of the character named name in /chars, copied to id (>= 32 bytes: g_state is replaced
 * by every command). */
static const char *char_named(const char *name, char id[32])
{
    const char *k;
    json_t *v;
    id[0] = '\0';
    json_object_foreach(json_object_get(g_state, "chars"), k, v)
    {
        if (strcmp(json_string_value(json_object_get(v, "name")), name) == 0)
            snprintf(id, 32, "%s", k);
    }
    ck_assert_msg(id[0], "no character %s", name);
    return id;
}

/* A value at a JSON pointer of g_state (borrowed), or NULL. */
static json_t *at(const char *path)
{
    json_t *v = g_state;
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *seg = strtok(buf + 1, "/"); seg && v; seg = strtok(NULL, "/"))
        v = json_is_array(v) ? json_array_get(v, (size_t)atoi(seg)) : json_object_get(v, seg);
    return v;
}

static long at_int(const char *path)
{
    ck_assert_msg(json_is_integer(at(path)), "%s is not a number", path);
    return (long)json_integer_value(at(path));
}

/* A grimwire campaign with Cyrus (seat p1) and Aune (seat p2), nothing running. */
static void setup_grimwire(void)
{
    g_dice = rules_rng_seeded(7);
    g_state = ops_campaign_initial("c1", "Test", "grimwire", NULL);
    static const char *const WHO[][3] = {{"p1", "Cyrus", "cyrus"}, {"p2", "Aune", "aune"}};
    for (int i = 0; i < 2; i++) {
        json_object_set_new(json_object_get(g_state, "seats"), WHO[i][0],
                            json_pack("{s:s, s:s}", "name", WHO[i][1], "role", "player"));
        char file[200];
        snprintf(file, sizeof file, TB_SOURCE_ROOT "/rules/grimwire/samples/%s.json", WHO[i][2]);
        json_t *sheet = json_load_file(file, 0, NULL);
        ck_assert_ptr_nonnull(sheet);
        ck_assert_int_eq(
            run("char.create",
                json_pack("{s:s, s:o, s:s}", "name", WHO[i][1], "sheet", sheet, "seat", WHO[i][0]),
                NULL),
            TB_OK);
    }
}

static int act(const char *action, const char *actor, json_t *params)
{
    char msg[256];
    json_t *args =
        json_pack("{s:s, s:o}", "action", action, "params", params ? params : json_object());
    if (actor)
        json_object_set_new(args, "actor", json_string(actor));
    int rc = run("enc.act", args, msg);
    ck_assert_msg(rc == TB_OK, "%s: %s", action, msg);
    return rc;
}

/* A fight scene of `rounds` rounds (the GM sets its round) beside whatever runs, then ended. */
static void fight_beside(int rounds)
{
    ck_assert_int_eq(run("enc.start",
                         json_pack("{s:s, s:s}", "module", "grimwire.conflict", "scene", "new"),
                         NULL),
                     TB_OK);
    /* the fight is the one scene under /scenes beside a running first scene, else the first */
    char sid[16] = "enc";
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(g_state, "scenes"), k, v)
        snprintf(sid, sizeof sid, "%s", k);
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:s, s:i}", "scene", sid, "path", "/enc/round", "value", rounds),
            NULL),
        TB_OK);
    ck_assert_int_eq(run("enc.end", json_pack("{s:s}", "scene", sid), NULL), TB_OK);
}

/* What grimwire.between keeps goes to /between (public) and /gm/between (the GM's build numbers)
 * by character, not by the scene's combatant ids, and comes back in the next scene whatever ids
 * the characters get there; the next scene starts where the fight in between ended. */
START_TEST(progress_outlives_the_scene_by_character)
{
    char cb[32], ab[32];
    const char *cyrus = char_named("Cyrus", cb), *aune = char_named("Aune", ab);
    ck_assert_int_eq(run("enc.start", json_pack("{s:s}", "module", "grimwire.between"), NULL),
                     TB_OK);
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", cyrus), NULL), TB_OK); /* e1 */
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", aune), NULL), TB_OK);  /* e2 */
    act("set_build", NULL, json_pack("{s:s, s:i, s:i}", "target", "e2", "cor_tn", 12, "mnd_tn", 9));
    act("cause", NULL, json_pack("{s:s, s:s}", "target", "e2", "cause", "thirst"));
    act("short_rest", "e1", NULL);
    ck_assert_int_eq(at_int("/clock/elapsed_s"), 30 * 60); /* 002:208 */
    ck_assert_int_eq(run("enc.end", json_object(), NULL), TB_OK);
    char path[200];
    snprintf(path, sizeof path, "/between/grimwire.between/chars/%s/short_rests", cyrus);
    ck_assert_int_eq(at_int(path), 1);
    snprintf(path, sizeof path, "/gm/between/grimwire.between/chars/%s/build/cor_tn", aune);
    ck_assert_int_eq(at_int(path), 12);
    snprintf(path, sizeof path, "/between/grimwire.between/chars/%s/build", aune);
    ck_assert_ptr_null(at(path)); /* never in the public half */
    ck_assert_int_eq(at_int("/between/grimwire.between/day"), 1);
    ck_assert_int_eq(at_int("/between/grimwire.between/clock_s"), 30 * 60);

    fight_beside(5); /* 5 rounds of 6 seconds (002:415) */
    ck_assert_int_eq(at_int("/clock/elapsed_s"), 30 * 60 + 30);

    ck_assert_int_eq(run("enc.start", json_pack("{s:s}", "module", "grimwire.between"), NULL),
                     TB_OK);
    ck_assert_int_eq(at_int("/clock/scenes/enc/start_s"), 30 * 60 + 30);
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", aune), NULL), TB_OK);  /* e1 now */
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", cyrus), NULL), TB_OK); /* e2 now */
    ck_assert_int_eq(at_int("/gm/enc/combatants/e1/build/cor_tn"), 12);
    ck_assert_str_eq(json_string_value(at("/enc/combatants/e1/causes/0")), "thirst");
    ck_assert_int_eq(at_int("/enc/combatants/e2/short_rests"), 1);
    ck_assert_ptr_null(at("/gm/enc/combatants/e2/build"));
    /* the kept numbers are used: Aune builds without the GM setting them again */
    act("craft", "e1", json_pack("{s:s}", "item", "Lockpick set"));
    ck_assert_ptr_null(at("/gm/enc/combatants/e1/build"));
}
END_TEST

/* The days follow the campaign clock: fights beside a running between scene that take it past
 * midnight make a new day at its next action, and the ones after it ended are counted when the
 * next between scene starts (a day without a long rest for everyone, 002:214). */
START_TEST(days_another_scene_took_are_counted)
{
    char cb[32];
    const char *cyrus = char_named("Cyrus", cb);
    ck_assert_int_eq(run("enc.start", json_pack("{s:s}", "module", "grimwire.between"), NULL),
                     TB_OK);
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", cyrus), NULL), TB_OK);
    act("short_rest", "e1", NULL);
    /* 14 fights of 999 rounds (5994 s each) beside it: 83,916 s + 1,800 s, still day 1 */
    for (int i = 0; i < 14; i++)
        fight_beside(999);
    act("cause", NULL, json_pack("{s:s, s:s, s:b}", "target", "e1", "cause", "thirst", "on", 0));
    ck_assert_int_eq(at_int("/enc/day"), 1);
    fight_beside(999); /* 91,710 s: past midnight */
    act("cause", NULL, json_pack("{s:s, s:s, s:b}", "target", "e1", "cause", "thirst", "on", 0));
    ck_assert_int_eq(at_int("/enc/day"), 2);
    ck_assert_int_eq(at_int("/enc/combatants/e1/short_rests"), 0); /* a new day, new rests */
    ck_assert_int_eq(at_int("/enc/combatants/e1/unrested"), 1);
    ck_assert_int_eq(run("enc.end", json_object(), NULL), TB_OK);
    for (int i = 0; i < 15; i++) /* 89,910 s more, after it ended: day 3 began */
        fight_beside(999);
    ck_assert_int_eq(run("enc.start", json_pack("{s:s}", "module", "grimwire.between"), NULL),
                     TB_OK);
    ck_assert_int_eq(at_int("/enc/day"), 3);
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", cyrus), NULL), TB_OK);
    ck_assert_int_eq(at_int("/enc/combatants/e1/unrested"), 1); /* kept; day 3 began unseen */
    /* the GM's `day` is the GM's word for now: the days a fight took are not added to it */
    ck_assert_int_eq(run("enc.end", json_object(), NULL), TB_OK);
    for (int i = 0; i < 15; i++)
        fight_beside(999);
    ck_assert_int_eq(
        run("enc.start",
            json_pack("{s:s, s:{s:i}}", "module", "grimwire.between", "options", "day", 7), NULL),
        TB_OK);
    ck_assert_int_eq(at_int("/enc/day"), 7);
}
END_TEST

/* enc.set of a stat the module writes back reaches the sheet in the same command: a PC's in
 * /chars, an NPC's in /gm/npcs (never a public path). */
static void stat_reaches_the_sheet(void)
{
    char cb[32];
    const char *cyrus = char_named("Cyrus", cb);
    json_t *sheet = json_load_file(TB_SOURCE_ROOT "/rules/grimwire/samples/vex9.json", 0, NULL);
    ck_assert_int_eq(run("char.create",
                         json_pack("{s:s, s:o, s:b}", "name", "VEX-9", "sheet", sheet, "npc", 1),
                         NULL),
                     TB_OK);
    char npc[32] = "";
    const char *k;
    json_t *v;
    json_object_foreach(at("/gm/npcs"), k, v) snprintf(npc, sizeof npc, "%s", k);
    ck_assert(npc[0]);
    ck_assert_int_eq(run("enc.start", json_pack("{s:s}", "module", "grimwire.between"), NULL),
                     TB_OK);
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", cyrus), NULL), TB_OK); /* e1 */
    ck_assert_int_eq(run("enc.add", json_pack("{s:s}", "char", npc), NULL), TB_OK);   /* e2 */
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:i}", "path", "/enc/combatants/e1/stats/burnout", "value", 1), NULL),
        TB_OK);
    char path[200];
    snprintf(path, sizeof path, "/chars/%s/sheet/burnout", cyrus);
    ck_assert_int_eq(at_int(path), 1);
    /* a value the sheet cannot hold (burnout 3 caps Condition at half, 002:248, and Cyrus is at
     * full Condition) stays in the encounter, as an action's would */
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:i}", "path", "/enc/combatants/e1/stats/burnout", "value", 3), NULL),
        TB_OK);
    ck_assert_int_eq(at_int(path), 1);
    ck_assert_int_eq(at_int("/enc/combatants/e1/stats/burnout"), 3);
    /* VEX-9 (burnout 2) eases to 1: his sheet under /gm/npcs, nothing public */
    ck_assert_int_eq(
        run("enc.set",
            json_pack("{s:s, s:i}", "path", "/gm/enc/combatants/e2/stats/burnout", "value", 1),
            NULL),
        TB_OK);
    snprintf(path, sizeof path, "/gm/npcs/%s/sheet/burnout", npc);
    ck_assert_int_eq(at_int(path), 1);
    ck_assert_ptr_null(at("/enc/combatants/e2/stats"));
}

START_TEST(enc_set_of_a_stat_reaches_the_sheet_at_once)
{
    stat_reaches_the_sheet();
}
END_TEST

/* The same on the working copy the engine makes: /chars and /gm/npcs are the committed state's
 * until write_back takes the one character it changes (issue 26, workcopy_own_path), the
 * committed state is left as it was by every op, and the campaign ends equal to the one the same
 * ops made on deep copies (so are the diffs: they compare content). */
START_TEST(enc_set_of_a_stat_reaches_the_sheet_on_a_copy_on_write_state)
{
    stat_reaches_the_sheet();
    json_t *deep = json_incref(g_state);
    teardown();
    setup_grimwire();
    g_cow = 1;
    stat_reaches_the_sheet();
    g_cow = 0;
    ck_assert(json_equal(deep, g_state));
    json_decref(deep);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_enc");
    TCase *tc = tcase_create("enc.set");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, slot_without_side_is_refused_and_begin_still_works);
    tcase_add_test(tc, focus_without_by_is_refused_and_give_still_answers);
    tcase_add_test(tc, a_damaged_state_from_an_older_build_is_refused_not_crashed);
    tcase_add_test(tc, declared_fields_are_typed_and_ranged);
    tcase_add_test(tc, an_npc_number_lands_under_gm);
    tcase_add_test(tc, a_second_scene_is_set_by_its_own_paths);
    tcase_add_test(tc, the_clock_follows_the_scenes);
    tcase_add_test(tc, sixteen_scenes_at_most);
    suite_add_tcase(s, tc);
    TCase *between = tcase_create("between");
    tcase_add_checked_fixture(between, setup_grimwire, teardown);
    tcase_add_test(between, progress_outlives_the_scene_by_character);
    tcase_add_test(between, days_another_scene_took_are_counted);
    tcase_add_test(between, enc_set_of_a_stat_reaches_the_sheet_at_once);
    tcase_add_test(between, enc_set_of_a_stat_reaches_the_sheet_on_a_copy_on_write_state);
    tcase_set_timeout(between, 30);
    suite_add_tcase(s, between);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
