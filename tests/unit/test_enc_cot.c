/* The cot encounter modules (rules/cot/enc_cot.c), driven directly with a scripted RNG: slots and
 * claims, the Focus Round, Bolster and Wait, Getting the Drop (Subdue and Murder tables), Gang
 * Warfare (Cover, Attack, Restrain, Break free, Reposition, Flee). The rulebook is
 * 000_d2a475e9ec148dd1.txt, cited 000:LINE. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"

/* ---- a hand-built encounter, run the way server/ops_enc.c runs it ---- */

typedef struct fixture {
    rules_enc e;
    json_t *enc, *hidden;
    rules_rng *rng;
    tb_err err;
} fixture;

static void fx_start(fixture *f, const char *module, const char *options_json)
{
    memset(f, 0, sizeof *f);
    const rules_module *m = rules_module_find(module);
    ck_assert_ptr_nonnull(m);
    json_t *opts = options_json ? json_loads(options_json, 0, NULL) : json_object();
    f->enc =
        json_pack("{s:s, s:s, s:i, s:i, s:[], s:{}, s:i, s:O}", "module", m->id, "name", m->name,
                  "round", 0, "turn", -1, "order", "combatants", "next_id", 1, "options", opts);
    f->hidden = json_pack("{s:{}}", "combatants");
    f->rng = rules_rng_scripted(NULL, 0);
    f->e = (rules_enc){.mod = m,
                       .enc = f->enc,
                       .hidden = f->hidden,
                       .rng = f->rng,
                       .seat = "gm",
                       .is_gm = 1,
                       .log = json_array(),
                       .gm_log = json_array()};
    rules_args a;
    ck_assert_int_eq(rules_args_parse("start", m->options, opts, &a, &f->err), 0);
    if (m->start)
        ck_assert_int_eq(m->start(&f->e, &a, &f->err), 0);
    json_decref(opts);
}

static void fx_free(fixture *f)
{
    json_decref(f->enc);
    json_decref(f->hidden);
    json_decref(f->e.log);
    json_decref(f->e.gm_log);
    rules_rng_destroy(f->rng);
}

static void fx_dice(fixture *f, const int *faces, size_t n)
{
    rules_rng_destroy(f->rng);
    f->rng = rules_rng_scripted(faces, n);
    f->e.rng = f->rng;
}

/* The next step rolls exactly these faces (checked by used_all). */
#define DICE(f, ...)                                                                               \
    do {                                                                                           \
        static const int faces_[] = {__VA_ARGS__};                                                 \
        fx_dice(f, faces_, sizeof faces_ / sizeof faces_[0]);                                      \
    } while (0)
#define NO_DICE(f) fx_dice(f, NULL, 0)

static void used_all(fixture *f)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "the step wanted more dice than scripted");
    (void)rules_rng_die(f->rng, 6);
    ck_assert_msg(rules_rng_exhausted(f->rng), "the step rolled fewer dice than scripted");
    fx_dice(f, NULL, 0); /* the next step rolls nothing unless it says so */
}

/* Adds a combatant as enc.add does (sheet_stats copied, then the module's join). */
static void fx_add(fixture *f, const char *cid, const char *name, const char *side,
                   const char *seat, int npc, const char *sheet_json)
{
    json_t *sheet = sheet_json ? json_loads(sheet_json, 0, NULL) : NULL;
    ck_assert(!sheet_json || sheet);
    json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:b, s:[]}", "id", cid, "name", name, "side", side,
                          "seat", seat, "npc", npc, "conditions");
    if (!npc)
        json_object_set_new(c, "char", json_string("c1"));
    json_object_set_new(json_object_get(f->enc, "combatants"), cid, c);
    json_t *stats = rules_enc_stats(&f->e, cid);
    for (const char *const *k = f->e.mod->sheet_stats; k && *k && sheet; k++)
        if (json_object_get(sheet, *k))
            json_object_set(stats, *k, json_object_get(sheet, *k));
    f->e.actor = cid;
    f->e.seat = "gm";
    f->e.is_gm = 1;
    ck_assert_int_eq(f->e.mod->join(&f->e, cid, sheet, &f->err), 0);
    used_all(f);
    json_decref(sheet);
}

/* enc.act: the who-check of ops_enc.c, the module's may_act, the params, the action; on an error
 * the working copy is thrown away (as the server does). Returns 0 or the tb_code. */
static int fx_act(fixture *f, const char *seat, const char *actor, const char *action,
                  const char *params_json)
{
    const rules_enc_action *a = rules_module_action(f->e.mod, action);
    ck_assert_msg(a != NULL, "no action %s", action);
    json_t *saved = json_deep_copy(f->enc), *saved_h = json_deep_copy(f->hidden);
    json_t *params = params_json ? json_loads(params_json, 0, NULL) : NULL;
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    f->e.actor = actor;
    memset(&f->err, 0, sizeof f->err);
    int rc = 0;
    rules_args pa;
    if (a->who == RULES_ENC_GM && !f->e.is_gm)
        rc = tb_fail(&f->err, TB_FORBIDDEN, "only the GM");
    else if ((a->who == RULES_ENC_TURN || a->who == RULES_ENC_OWNER) &&
             !rules_enc_controls(&f->e, actor))
        rc = tb_fail(&f->err, TB_FORBIDDEN, "%s is not your character",
                     rules_enc_name(&f->e, actor));
    else if (a->who == RULES_ENC_TURN && rules_enc_is_out(&f->e, actor))
        rc = tb_fail(&f->err, TB_RULE, "out of the fight");
    else if (a->who == RULES_ENC_TURN && (rc = f->e.mod->may_act(&f->e, actor, &f->err)))
        ;
    else if ((rc = rules_args_parse(action, a->params, params, &pa, &f->err)))
        ;
    else
        rc = a->fn(&f->e, &pa, &f->err);
    if (rc) {
        json_object_clear(f->enc);
        json_object_update(f->enc, saved);
        json_object_clear(f->hidden);
        json_object_update(f->hidden, saved_h);
    } else {
        used_all(f);
    }
    json_decref(saved);
    json_decref(saved_h);
    json_decref(params);
    return rc;
}

#define ACT_OK(f, seat, actor, action, params)                                                     \
    ck_assert_msg(fx_act(f, seat, actor, action, params) == 0, "%s %s: %s", actor ? actor : "-",   \
                  action, (f)->err.msg)

static void refused(fixture *f, const char *seat, const char *actor, const char *action,
                    const char *params, int code, const char *msg_part)
{
    json_t *before = json_deep_copy(f->enc);
    NO_DICE(f);
    int rc = fx_act(f, seat, actor, action, params);
    ck_assert_msg(rc == code, "%s %s: expected code %d, got %d (%s)", actor, action, code, rc,
                  f->err.msg);
    ck_assert_msg(strstr(f->err.msg, msg_part) != NULL, "'%s' does not say '%s'", f->err.msg,
                  msg_part);
    ck_assert(json_equal(before, f->enc));
    json_decref(before);
}

/* ---- reading the state ---- */

static json_t *slot_at(fixture *f, size_t i)
{
    return json_array_get(json_object_get(f->enc, "order"), i);
}

static int turn(fixture *f)
{
    return (int)json_integer_value(json_object_get(f->enc, "turn"));
}

static int round_no(fixture *f)
{
    return (int)json_integer_value(json_object_get(f->enc, "round"));
}

static const char *claimed_by(fixture *f, size_t i)
{
    return json_string_value(json_object_get(slot_at(f, i), "claimed_by"));
}

static json_t *comb(fixture *f, const char *cid)
{
    return rules_enc_combatant(&f->e, cid);
}

static const char *out_of(fixture *f, const char *cid)
{
    return json_string_value(json_object_get(comb(f, cid), "out"));
}

/* The last public log entry whose action is `action`. */
static json_t *last_log(fixture *f, const char *action)
{
    json_t *log = f->e.log;
    for (size_t i = json_array_size(log); i-- > 0;) {
        json_t *x = json_array_get(log, i);
        if (strcmp(json_string_value(json_object_get(x, "action")), action) == 0)
            return x;
    }
    return NULL;
}

static json_t *last_gm_log(fixture *f, const char *action)
{
    json_t *log = f->e.gm_log;
    for (size_t i = json_array_size(log); i-- > 0;) {
        json_t *x = json_array_get(log, i);
        if (strcmp(json_string_value(json_object_get(x, "action")), action) == 0)
            return x;
    }
    return NULL;
}

static int result_int(json_t *entry, const char *key)
{
    json_t *v = json_object_get(json_object_get(entry, "result"), key);
    ck_assert_msg(json_is_integer(v), "no integer result.%s", key);
    return (int)json_integer_value(v);
}

static const char *log_text(json_t *entry)
{
    ck_assert_ptr_nonnull(entry);
    return json_string_value(json_object_get(entry, "text"));
}

/* ---- sheets (the samples' numbers; NPCs made for the tests) ---- */

static const char *const VERA =
    "{\"name\":\"Vera\",\"abilities\":{\"muscle\":1,\"fingers\":3,\"brains\":2,\"it\":2},"
    "\"skills\":{\"lockpicking\":3,\"planning\":1,\"resist\":1,\"athletics\":0},"
    "\"gear\":[{\"name\":\"Sap\",\"kind\":\"weapon\",\"bonus\":1,\"blunt\":true}]}";
static const char *const ADA =
    "{\"name\":\"Ada\",\"abilities\":{\"muscle\":1,\"fingers\":2,\"brains\":3,\"it\":2},"
    "\"skills\":{\"planning\":3}}";
static const char *const TOMMY =
    "{\"name\":\"Tommy\",\"abilities\":{\"muscle\":3,\"fingers\":1,\"brains\":1,\"it\":2},"
    "\"skills\":{\"hand_to_hand\":3,\"shooting\":2,\"athletics\":2,\"resist\":2},"
    "\"wounded\":true,\"recovery_days\":3,"
    "\"gear\":[{\"name\":\"Brass knuckles\",\"kind\":\"weapon\",\"bonus\":1,\"blunt\":true},"
    "{\"name\":\"Leather coat\",\"kind\":\"armour\",\"bonus\":1}]}";
/* Training = 3 x 2 kept + 1 extra die = 7 (000:196, 000:198) */
static const char *const GUARD =
    "{\"name\":\"Guard\",\"abilities\":{\"muscle\":2,\"fingers\":1,\"brains\":2,\"it\":1},"
    "\"skills\":{\"resist\":1,\"athletics\":1,\"lookout\":1}}";
static const char *const THUG =
    "{\"name\":\"Thug\",\"abilities\":{\"muscle\":2,\"fingers\":1,\"brains\":1,\"it\":1},"
    "\"skills\":{\"hand_to_hand\":2,\"shooting\":2},"
    "\"gear\":[{\"name\":\"Knife\",\"kind\":\"weapon\",\"bonus\":1},"
    "{\"name\":\"Revolver\",\"kind\":\"weapon\",\"bonus\":1}]}";

/* A heist: Vera (slot 11), Ada (slot 7) for the party, a guard (slot 9). */
static void heist(fixture *f)
{
    fx_start(f, "cot.initiative", "{\"stage\":\"heist\"}");
    /* 000:33 Brains+Planning: Vera 3 dice keep 2, Ada 6 keep 3, the guard 2 keep 2 */
    DICE(f, 6, 5, 1);
    fx_add(f, "e1", "Vera", "party", "p1", 0, VERA);
    DICE(f, 1, 1, 1, 2, 2, 3);
    fx_add(f, "e2", "Ada", "party", "p2", 0, ADA);
    DICE(f, 4, 5);
    fx_add(f, "e3", "Guard", "guards", "gm", 1, GUARD);
}

/* ---- slots ---- */

START_TEST(registered_modules_match_the_system_list)
{
    const rules_system *s = rules_system_find("cot");
    size_t n = 0;
    for (const char *const *m = s->modules; *m; m++, n++) {
        const rules_module *mod = rules_module_find(*m);
        ck_assert_msg(mod != NULL, "%s is listed but not registered", *m);
        ck_assert_str_eq(mod->system, "cot");
    }
    ck_assert_int_eq(n, 2);
    ck_assert_ptr_nonnull(rules_module_find("cot.initiative"));
    ck_assert_ptr_nonnull(rules_module_find("cot.warfare"));
}
END_TEST

START_TEST(initiative_totals_become_slots_of_sides_highest_first)
{
    fixture f;
    heist(&f);
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "pool")), "Brains+Planning");
    ck_assert_int_eq(json_array_size(json_object_get(f.enc, "order")), 3);
    int totals[] = {11, 9, 7};
    const char *sides[] = {"party", "guards", "party"}, *ids[] = {"s1", "s3", "s2"};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(json_integer_value(json_object_get(slot_at(&f, i), "total")), totals[i]);
        ck_assert_str_eq(json_string_value(json_object_get(slot_at(&f, i), "side")), sides[i]);
        ck_assert_str_eq(json_string_value(json_object_get(slot_at(&f, i), "id")), ids[i]);
        ck_assert(json_is_null(json_object_get(slot_at(&f, i), "claimed_by")));
    }
    /* an NPC's initiative dice are the GM's; the table learns the slot */
    ck_assert_str_eq(log_text(last_log(&f, "initiative")), "A slot 9 for the guards (000:37)");
    ck_assert_ptr_null(json_object_get(last_log(&f, "initiative"), "dice"));
    ck_assert_int_eq(json_array_size(json_object_get(last_gm_log(&f, "initiative"), "dice")), 2);
    /* before the GM begins, nobody has a slot */
    refused(&f, "p1", "e1", "wait", NULL, TB_RULE, "has not started");
    refused(&f, "p1", NULL, "begin", NULL, TB_FORBIDDEN, "GM");
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    ck_assert_int_eq(round_no(&f), 1);
    ck_assert_int_eq(turn(&f), 0);
    refused(&f, "gm", NULL, "begin", NULL, TB_RULE, "under way");
    fx_free(&f);
}
END_TEST

START_TEST(each_character_claims_one_slot_of_its_side_per_round)
{
    fixture f;
    heist(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    /* slot 11 belongs to the party: the guard may not take it, Ada may not act for Vera */
    refused(&f, "gm", "e3", "wait", NULL, TB_RULE, "it is slot 11's turn, owned by the party");
    refused(&f, "p2", "e1", "wait", NULL, TB_FORBIDDEN, "Vera is not your character");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "claim", NULL);
    ck_assert_str_eq(claimed_by(&f, 0), "e1");
    ck_assert_int_eq(turn(&f), 0); /* claiming is not the turn */
    refused(&f, "p2", "e2", "wait", NULL, TB_RULE, "slot 11 is claimed by Vera");
    refused(&f, "p1", "e1", "claim", NULL, TB_RULE, "already claimed");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ck_assert_int_eq(turn(&f), 1);
    ck_assert_str_eq(log_text(last_log(&f, "wait")), "Vera takes slot 11 and waits (000:28)");
    /* the guards' slot */
    refused(&f, "p2", "e2", "wait", NULL, TB_RULE, "it is slot 9's turn, owned by the guards");
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    ck_assert_str_eq(claimed_by(&f, 1), "e3");
    /* slot 7 is the party's again, but Vera has had hers */
    refused(&f, "p1", "e1", "wait", NULL, TB_RULE,
            "Vera has already taken a slot this round (slot 11)");
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "wait", NULL);
    /* every slot used: round 2, the claims are cleared */
    ck_assert_int_eq(round_no(&f), 2);
    ck_assert_int_eq(turn(&f), 0);
    for (size_t i = 0; i < 3; i++)
        ck_assert_ptr_null(claimed_by(&f, i));
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "claimed"));
    /* the side chooses: this time Ada takes slot 11 */
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "wait", NULL);
    ck_assert_str_eq(claimed_by(&f, 0), "e2");
    /* the GM passes a slot */
    NO_DICE(&f);
    ACT_OK(&f, "gm", NULL, "skip", NULL);
    ck_assert_int_eq(turn(&f), 2);
    ck_assert_ptr_null(claimed_by(&f, 1));
    fx_free(&f);
}
END_TEST

START_TEST(a_slot_joins_in_its_place_and_the_current_slot_stays)
{
    fixture f;
    heist(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL); /* slot 9 (index 1) is up */
    DICE(&f, 6, 6);                       /* a second guard: slot 12, before everyone */
    fx_add(&f, "e4", "Guard 2", "guards", "gm", 1, GUARD);
    ck_assert_int_eq(json_integer_value(json_object_get(slot_at(&f, 0), "total")), 12);
    ck_assert_int_eq(turn(&f), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(slot_at(&f, 2), "total")), 9);
    fx_free(&f);
}
END_TEST

START_TEST(focus_round_takes_the_slots_crewmates_give)
{
    fixture f;
    heist(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    refused(&f, "p2", "e2", "give", NULL, TB_RULE, "no Focus Round");
    refused(&f, "gm", "e3", "focus", NULL, TB_RULE, "crew");
    refused(&f, "p2", "e1", "focus", NULL, TB_FORBIDDEN, "not your character");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "focus", NULL);
    json_t *fo = json_object_get(f.enc, "focus");
    ck_assert_str_eq(json_string_value(json_object_get(fo, "by")), "e1");
    ck_assert_int_eq(json_integer_value(json_object_get(fo, "round")), 1);
    ck_assert(json_is_true(json_object_get(rules_enc_stats(&f.e, "e1"), "focus_used")));
    refused(&f, "p2", "e2", "focus", NULL, TB_RULE, "Vera's Focus Round is under way");
    refused(&f, "p1", "e1", "give", NULL, TB_RULE, "takes the Focus Round");
    refused(&f, "gm", "e3", "give", NULL, TB_RULE, "crewmates");
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "give", NULL);
    fo = json_object_get(f.enc, "focus"); /* a refusal restored the state: look again */
    ck_assert_int_eq(json_array_size(json_object_get(fo, "given")), 1);
    refused(&f, "p2", "e2", "give", NULL, TB_RULE, "already given");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL); /* slot 11 */
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e3", "wait", NULL); /* slot 9 */
    /* slot 7: Ada gave hers; Vera takes a second slot */
    refused(&f, "p2", "e2", "wait", NULL, TB_RULE, "Ada gave this round's slot to Vera's Focus");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ck_assert_str_eq(log_text(last_log(&f, "wait")), "Vera takes slot 7 and waits (000:28)");
    /* round 2: the Focus Round is over, and it was the session's */
    ck_assert_int_eq(round_no(&f), 2);
    ck_assert_ptr_null(json_object_get(f.enc, "focus"));
    ck_assert_str_eq(log_text(last_log(&f, "focus_end")), "Vera's Focus Round is over");
    refused(&f, "p1", "e1", "focus", NULL, TB_RULE, "already taken a Focus Round this session");
    fx_free(&f);
}
END_TEST

START_TEST(focus_character_stops_at_the_slots_given)
{
    fixture f;
    heist(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "focus", NULL); /* nobody gives: still one slot */
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    refused(&f, "p1", "e1", "wait", NULL, TB_RULE, "already taken a slot this round");
    fx_free(&f);
}
END_TEST

START_TEST(bolster_adds_a_die_to_the_next_roll_or_lapses)
{
    fixture f;
    heist(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "bolster", "{\"target\":\"e1\"}");
    json_t *b = rules_enc_cond(&f.e, "e1", "bolstered");
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(json_integer_value(json_object_get(b, "level")), 1);
    /* round 2: Vera picks the lock: Fingers 3 + Lockpicking 3 + 1 (Bolster) = 7 dice, keep 3 */
    DICE(&f, 6, 6, 5, 1, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "roll", "{\"skill\":\"lockpicking\",\"difficulty\":12}");
    json_t *r = last_log(&f, "roll");
    ck_assert_int_eq(result_int(r, "rolled"), 7);
    ck_assert_int_eq(result_int(r, "keep"), 3);
    ck_assert_int_eq(result_int(r, "total"), 17);
    ck_assert_int_eq(result_int(r, "bolster"), 1);
    ck_assert(json_is_true(json_object_get(json_object_get(r, "result"), "success")));
    ck_assert_str_eq(log_text(r), "Vera takes slot 11 and rolls Lockpicking: 7k3 → 6 6 5 [1 1 1 "
                                  "1] = 17: success vs 12 (000:9)");
    ck_assert_int_eq(json_array_size(json_object_get(r, "dice")), 7);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "bolstered"));
    /* a Bolster not rolled on the next turn is lost */
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "bolster", "{\"target\":\"e1\"}");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "bolstered"));
    ck_assert_str_eq(log_text(last_log(&f, "bolster_lost")),
                     "Vera made no roll on this turn and loses the Bolster (000:27)");
    refused(&f, "gm", "e3", "roll", "{\"skill\":\"juggling\"}", TB_BAD_REQUEST, "skill");
    fx_free(&f);
}
END_TEST

/* ---- Getting the Drop ---- */

typedef struct drop_case {
    const char *weapon, *skill; /* NULL: fists, hand_to_hand */
    int faces[8];
    int total;
    const char *outcome, *out; /* out: NULL = still in */
    int aware, wounded, allies_aware;
} drop_case;

/* Tommy (Muscle 3, Hand to Hand 3, Brass knuckles +1, Blunt: 7 dice keep 3) subdues; the thug
 * (Muscle 2, Hand to Hand 2 / Shooting 2, Knife or Revolver +1: 5 dice keep 2) murders; both
 * against a guard's Training 7. */
static const drop_case DROPS[] = {
    /* Subdue (000:106-110) */
    {"Brass knuckles", NULL, {2, 2, 1, 1, 1, 1, 1}, 5, "Aware", NULL, 1, 0, 1},
    {"Brass knuckles", NULL, {1, 1, 1, 1, 1, 1, 1}, 3, "Aware", NULL, 1, 0, 1}, /* Catastrophe */
    {"Brass knuckles",
     NULL,
     {3, 2, 2, 1, 1, 1, 1},
     7,
     "Aware but Unconscious",
     "unconscious",
     1,
     0,
     1},
    {"Brass knuckles",
     NULL,
     {4, 3, 2, 1, 1, 1, 1},
     9,
     "Aware but Unconscious",
     "unconscious",
     1,
     0,
     1},
    {"Brass knuckles", NULL, {4, 3, 3, 1, 1, 1, 1}, 10, "Dead", "dead", 0, 0, 0},
    {"Brass knuckles", NULL, {4, 4, 4, 1, 1, 1, 1}, 12, "Dead", "dead", 0, 0, 0},
    {"Brass knuckles", NULL, {5, 4, 4, 1, 1, 1, 1}, 13, "Unconscious", "unconscious", 0, 0, 0},
    {NULL, NULL, {6, 6, 6, 1, 1, 1}, 18, "Unconscious", "unconscious", 0, 0, 0}, /* fists: 6 */
    /* Murder (000:112-115) */
    {"Knife", NULL, {3, 3, 1, 1, 1}, 6, "Aware", NULL, 1, 0, 1},
    {"Knife", NULL, {4, 3, 1, 1, 1}, 7, "Wounded and Aware", NULL, 1, 1, 1},
    {"Knife", NULL, {5, 4, 1, 1, 1}, 9, "Wounded and Aware", NULL, 1, 1, 1},
    {"Knife", NULL, {6, 4, 1, 1, 1}, 10, "Dead", "dead", 0, 0, 0},
    /* a firearm makes the allies Aware whatever the result (000:119) */
    {"Revolver", "shooting", {6, 6, 1, 1, 1}, 12, "Dead", "dead", 0, 0, 1},
};

START_TEST(drop_tables_against_training)
{
    const drop_case *c = &DROPS[_i];
    int tommy = c->weapon ? strcmp(c->weapon, "Brass knuckles") == 0 : 1;
    fixture f;
    fx_start(&f, "cot.initiative", NULL);
    /* Brains 1 + Planning 0: one initiative die for Tommy or the thug, two for each guard */
    fx_dice(&f, (const int[]){6}, 1);
    fx_add(&f, "e1", tommy ? "Tommy" : "Thug", "crew", tommy ? "p1" : "gm", !tommy,
           tommy ? TOMMY : THUG);
    fx_dice(&f, (const int[]){1, 1}, 2);
    fx_add(&f, "e2", "Guard", "guards", "gm", 1, GUARD);
    fx_dice(&f, (const int[]){1, 1}, 2);
    fx_add(&f, "e3", "Guard 2", "guards", "gm", 1, GUARD);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    char params[160] = "{\"target\":\"e2\"";
    if (c->weapon)
        snprintf(params + strlen(params), sizeof params - strlen(params), ",\"weapon\":\"%s\"",
                 c->weapon);
    if (c->skill)
        snprintf(params + strlen(params), sizeof params - strlen(params), ",\"skill\":\"%s\"",
                 c->skill);
    strcat(params, "}");
    size_t n = tommy ? (c->weapon ? 7 : 6) : 5;
    fx_dice(&f, c->faces, n);
    ck_assert_msg(fx_act(&f, "gm", "e1", "drop", params) == 0, "%s", f.err.msg);
    json_t *r = last_log(&f, "drop"), *g = last_gm_log(&f, "drop");
    /* a PC's dice are public; an NPC's (the thug's) the GM's */
    ck_assert_int_eq(result_int(tommy ? r : g, "total"), c->total);
    ck_assert_int_eq(json_array_size(json_object_get(r, "dice")), tommy ? n : 0);
    /* the GM's entry (the target's Training is the GM's) holds every die */
    ck_assert_int_eq(json_array_size(json_object_get(g, "dice")), n);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "result"), "outcome")),
                     c->outcome);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "result"), "roll")),
                     tommy ? "subdue" : "murder");
    if (c->out)
        ck_assert_str_eq(out_of(&f, "e2"), c->out);
    else
        ck_assert_ptr_null(out_of(&f, "e2"));
    ck_assert_int_eq(rules_enc_cond_has(&f.e, "e2", "aware"), c->aware);
    ck_assert_int_eq(rules_enc_cond_has(&f.e, "e2", "wounded"), c->wounded);
    ck_assert_int_eq(rules_enc_cond_has(&f.e, "e3", "aware"), c->allies_aware);
    /* the guard's Training is the GM's number */
    ck_assert_ptr_null(json_object_get(json_object_get(r, "result"), "training"));
    ck_assert_int_eq(result_int(last_gm_log(&f, "drop"), "training"), 7);
    ck_assert_int_eq(result_int(last_gm_log(&f, "drop"), "margin"), c->total - 7);
    fx_free(&f);
}
END_TEST

START_TEST(drop_needs_an_unaware_target_and_gear)
{
    fixture f;
    fx_start(&f, "cot.initiative", NULL);
    fx_dice(&f, (const int[]){6}, 1);
    fx_add(&f, "e1", "Tommy", "crew", "p1", 0, TOMMY);
    fx_dice(&f, (const int[]){1, 1}, 2);
    fx_add(&f, "e2", "Guard", "guards", "gm", 1, GUARD);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "gm", NULL, "alert", "{\"target\":\"e2\"}");
    refused(&f, "p1", "e1", "drop", "{\"target\":\"e2\"}", TB_RULE, "Guard is Aware");
    NO_DICE(&f);
    ACT_OK(&f, "gm", NULL, "alert", "{\"target\":\"e2\",\"aware\":0}");
    refused(&f, "p1", "e1", "drop", "{\"target\":\"e2\",\"skill\":\"shooting\"}", TB_RULE,
            "Shooting needs a weapon");
    refused(&f, "p1", "e1", "drop", "{\"target\":\"e2\",\"weapon\":\"Tommy gun\"}", TB_BAD_REQUEST,
            "no weapon named 'Tommy gun'");
    refused(&f, "p1", "e1", "drop", "{\"target\":\"e1\"}", TB_BAD_REQUEST, "themselves");
    refused(&f, "p1", "e1", "drop", "{\"target\":\"e2\",\"skill\":\"sneak\"}", TB_BAD_REQUEST,
            "skill");
    refused(&f, "p1", NULL, "alert", "{\"target\":\"e2\"}", TB_FORBIDDEN, "GM");
    fx_free(&f);
}
END_TEST

/* ---- Gang Warfare ---- */

/* Tommy (party; already Wounded on his sheet) and a guard. Initiative Muscle+Athletics, then
 * Cover Muscle+Resist+armour (000:123). */
static void warfare(fixture *f)
{
    fx_start(f, "cot.warfare", NULL);
    ck_assert_str_eq(json_string_value(json_object_get(f->enc, "pool")), "Muscle+Athletics");
    /* Tommy: initiative 5 dice keep 3 = 15; Cover 3 + 2 + 1 (coat) = 6 dice keep 3 = 8 */
    DICE(f, 6, 5, 4, 1, 1, 3, 3, 2, 1, 1, 1);
    fx_add(f, "e1", "Tommy", "party", "p1", 0, TOMMY);
    /* the guard: initiative 3 dice keep 2 = 5; Cover 3 dice keep 2 = 8 */
    DICE(f, 3, 2, 1, 4, 4, 1);
    fx_add(f, "e2", "Guard", "guards", "gm", 1, GUARD);
}

static int cover_of(fixture *f, const char *cid)
{
    return rules_enc_stat(&f->e, cid, "cover", -1);
}

START_TEST(cover_is_rolled_on_joining_public_for_pcs_hidden_for_npcs)
{
    fixture f;
    warfare(&f);
    ck_assert_int_eq(cover_of(&f, "e1"), 8);
    ck_assert_int_eq(cover_of(&f, "e2"), 8);
    /* a PC's stats are on its public combatant; an NPC's under /gm/enc */
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(comb(&f, "e1"), "stats"), "cover")), 8);
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "stats"));
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(json_object_get(f.hidden, "combatants"), "e2"),
                            "stats"),
            "cover")),
        8);
    ck_assert_str_eq(log_text(last_log(&f, "cover")), "Guard takes cover (000:123)");
    ck_assert_int_eq(result_int(last_gm_log(&f, "cover"), "cover"), 8);
    /* Tommy's sheet says Wounded */
    ck_assert(rules_enc_cond_has(&f.e, "e1", "wounded"));
    fx_free(&f);
}
END_TEST

START_TEST(attacks_lower_cover_to_wounded_then_dead)
{
    fixture f;
    warfare(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    /* round 1: Tommy (Muscle 3 + Hand to Hand 3 + knuckles 1 = 7 dice keep 3) meets Cover 8:
     * not exceeding it, the Cover drops by 1 (000:134); a hit: he Restrains (000:133) */
    DICE(&f, 3, 3, 2, 1, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "attack",
           "{\"target\":\"e2\",\"weapon\":\"Brass knuckles\",\"restrain\":1}");
    ck_assert_int_eq(cover_of(&f, "e2"), 7);
    json_t *a = last_log(&f, "attack");
    ck_assert_int_eq(result_int(a, "total"), 8);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(a, "result"), "outcome")),
                     "cover");
    ck_assert_ptr_null(json_object_get(json_object_get(a, "result"), "cover"));
    ck_assert_int_eq(result_int(last_gm_log(&f, "attack"), "cover"), 7);
    json_t *rs = rules_enc_cond(&f.e, "e2", "restrained");
    ck_assert_ptr_nonnull(rs);
    ck_assert_str_eq(json_string_value(json_object_get(rs, "by")), "e1");
    /* the guard's slot: Restrained, it cannot Flee or Reposition */
    refused(&f, "gm", "e2", "reposition", NULL, TB_RULE, "Restrained by Tommy");
    refused(&f, "gm", "e2", "flee", NULL, TB_RULE, "cannot Flee");
    refused(&f, "gm", "e1", "break_free", NULL, TB_RULE, "owned by the guards");
    /* opposed Muscle+Athletics, Tommy first (000:13): 6; the guard meets it and is free */
    DICE(&f, 2, 2, 2, 1, 1, 4, 2, 1);
    ACT_OK(&f, "gm", "e2", "break_free", NULL);
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "restrained"));
    /* the guard's pool and total are the GM's; the table sees it break free */
    ck_assert_int_eq(result_int(last_gm_log(&f, "break_free"), "total"), 6);
    ck_assert_ptr_null(
        json_object_get(json_object_get(last_log(&f, "break_free"), "result"), "total"));
    ck_assert_ptr_null(json_object_get(last_log(&f, "break_free"), "dice"));
    ck_assert_int_eq(result_int(last_log(&f, "hold"), "total"), 6); /* Tommy is a PC */
    /* round 2: 15 exceeds Cover 7 by 8: 7 - 8 → 0, Wounded, 1 day (000:135) */
    ck_assert_int_eq(round_no(&f), 2);
    DICE(&f, 6, 5, 4, 1, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "attack", "{\"target\":\"e2\",\"weapon\":\"Brass knuckles\"}");
    ck_assert_int_eq(cover_of(&f, "e2"), 0);
    ck_assert(rules_enc_cond_has(&f.e, "e2", "wounded"));
    ck_assert(json_is_true(json_object_get(rules_enc_stats(&f.e, "e2"), "wounded")));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "recovery_days", -1), 1);
    ck_assert_ptr_null(out_of(&f, "e2"));
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(last_log(&f, "attack"), "result"), "outcome")),
                     "wounded");
    /* the guard repositions: Cover re-rolled (000:128) */
    DICE(&f, 3, 3, 1);
    ACT_OK(&f, "gm", "e2", "reposition", NULL);
    ck_assert_int_eq(cover_of(&f, "e2"), 6);
    ck_assert_str_eq(log_text(last_log(&f, "reposition")),
                     "Guard takes slot 5 and repositions (000:128)");
    /* round 3: a Catastrophe does no harm (000:134); bare hands: 6 dice */
    DICE(&f, 1, 1, 1, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "attack", "{\"target\":\"e2\"}");
    ck_assert_int_eq(cover_of(&f, "e2"), 6);
    /* the guard hits back: Muscle 2 + Hand to Hand 0 = 3 against Tommy's public Cover 8 */
    DICE(&f, 1, 2);
    ACT_OK(&f, "gm", "e2", "attack", "{\"target\":\"e1\"}");
    ck_assert_int_eq(cover_of(&f, "e1"), 7);
    json_t *back = last_log(&f, "attack");
    ck_assert_int_eq(result_int(back, "cover_before"), 8);
    ck_assert_int_eq(result_int(back, "cover"), 7);
    /* round 4: the guard is Wounded; his Cover drops to 0 again: Dead (000:136) */
    DICE(&f, 6, 6, 6, 1, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "attack", "{\"target\":\"e2\",\"weapon\":\"Brass knuckles\"}");
    ck_assert_str_eq(out_of(&f, "e2"), "dead");
    ck_assert_str_eq(log_text(last_log(&f, "attack")),
                     "Tommy takes slot 15 and attacks Guard (Hand to Hand, Brass knuckles): 7k3 → "
                     "6 6 6 [1 1 1 1] = 18: Guard is Dead (000:136)");
    /* the guards' slot passes: nobody is left to take it; round 5 is Tommy's */
    ck_assert_str_eq(log_text(last_log(&f, "pass")),
                     "slot 5 (guards) passes: nobody on that side can take it");
    ck_assert_int_eq(round_no(&f), 5);
    ck_assert_int_eq(turn(&f), 0);
    refused(&f, "p1", "e1", "attack", "{\"target\":\"e2\"}", TB_RULE, "out of the fight (dead)");
    fx_free(&f);
}
END_TEST

START_TEST(restrain_needs_hand_to_hand_and_flee_takes_two_actions)
{
    fixture f;
    warfare(&f);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    refused(&f, "p1", "e1", "attack", "{\"target\":\"e2\",\"skill\":\"driving\",\"restrain\":1}",
            TB_RULE, "only a Hand to Hand attack can Restrain");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "flee", NULL);
    ck_assert(rules_enc_cond_has(&f.e, "e1", "fleeing"));
    ck_assert_ptr_null(out_of(&f, "e1"));
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    /* round 2: his next action leaves the Zone, nothing else */
    refused(&f, "p1", "e1", "wait", NULL, TB_RULE, "fleeing");
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "flee", NULL);
    ck_assert_str_eq(out_of(&f, "e1"), "fled");
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "fleeing"));
    fx_free(&f);
}
END_TEST

START_TEST(a_wounded_pc_dies_and_the_sheet_learns_wounds)
{
    fixture f;
    fx_start(&f, "cot.warfare", NULL);
    /* Vera: initiative Muscle 1 + Athletics 0 = 1 die; Cover 1 + 1 = 2 dice keep 1 */
    DICE(&f, 6, 2, 1);
    fx_add(&f, "e1", "Vera", "party", "p1", 0, VERA);
    DICE(&f, 1, 1, 1, 1, 1, 1);
    fx_add(&f, "e2", "Guard", "guards", "gm", 1, GUARD);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    /* 6 exceeds Cover 2 by 4: 2 - 4 → 0, Wounded with 2 days (000:135) */
    DICE(&f, 4, 2);
    ACT_OK(&f, "gm", "e2", "attack", "{\"target\":\"e1\"}");
    ck_assert(json_is_true(json_object_get(rules_enc_stats(&f.e, "e1"), "wounded")));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "recovery_days", -1), 2);
    ck_assert_int_eq(result_int(last_log(&f, "attack"), "recovery_days"), 2);
    ck_assert_int_eq(result_int(last_log(&f, "attack"), "damage"), 4);
    /* Wounded at Cover 0: the next attack that is not a Catastrophe kills */
    NO_DICE(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    DICE(&f, 1, 2);
    ACT_OK(&f, "gm", "e2", "attack", "{\"target\":\"e1\"}");
    ck_assert_str_eq(out_of(&f, "e1"), "dead");
    fx_free(&f);
}
END_TEST

START_TEST(name_only_npcs_roll_a_new_sheets_numbers)
{
    fixture f;
    fx_start(&f, "cot.warfare", NULL);
    /* no sheet: abilities 2, skills 0: initiative 2 dice keep 2, Cover 2 dice keep 2 */
    DICE(&f, 3, 4, 5, 6);
    fx_add(&f, "e1", "Thug", "foes", "gm", 1, NULL);
    ck_assert_int_eq(json_integer_value(json_object_get(slot_at(&f, 0), "total")), 7);
    ck_assert_int_eq(cover_of(&f, "e1"), 11);
    fx_free(&f);
}
END_TEST

START_TEST(stage_option_picks_the_initiative_pool)
{
    fixture f;
    fx_start(&f, "cot.initiative", "{\"stage\":\"social\"}");
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "pool")), "It+Size Up");
    /* Vera It 2 + Size Up 0 */
    DICE(&f, 2, 3);
    fx_add(&f, "e1", "Vera", "party", "p1", 0, VERA);
    ck_assert_int_eq(json_integer_value(json_object_get(slot_at(&f, 0), "total")), 5);
    fx_free(&f);
    fx_start(&f, "cot.initiative", "{\"stage\":\"vehicle_chase\"}");
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "pool")), "Fingers+Driving");
    fx_free(&f);

    const rules_module *m = rules_module_find("cot.initiative");
    json_t *bad = json_pack("{s:s}", "stage", "picnic");
    rules_args a;
    tb_err err;
    ck_assert_int_eq(rules_args_parse("start", m->options, bad, &a, &err), 0);
    json_t *enc = json_object(), *hid = json_object();
    rules_enc e = {
        .mod = m, .enc = enc, .hidden = hid, .log = json_array(), .gm_log = json_array()};
    ck_assert_int_eq(m->start(&e, &a, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "stage"));
    json_decref(bad);
    json_decref(enc);
    json_decref(hid);
    json_decref(e.log);
    json_decref(e.gm_log);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_cot");
    TCase *slots = tcase_create("slots");
    tcase_add_test(slots, registered_modules_match_the_system_list);
    tcase_add_test(slots, initiative_totals_become_slots_of_sides_highest_first);
    tcase_add_test(slots, each_character_claims_one_slot_of_its_side_per_round);
    tcase_add_test(slots, a_slot_joins_in_its_place_and_the_current_slot_stays);
    tcase_add_test(slots, focus_round_takes_the_slots_crewmates_give);
    tcase_add_test(slots, focus_character_stops_at_the_slots_given);
    tcase_add_test(slots, bolster_adds_a_die_to_the_next_roll_or_lapses);
    tcase_add_test(slots, stage_option_picks_the_initiative_pool);
    suite_add_tcase(s, slots);
    TCase *drop = tcase_create("drop");
    tcase_add_loop_test(drop, drop_tables_against_training, 0,
                        (int)(sizeof DROPS / sizeof DROPS[0]));
    tcase_add_test(drop, drop_needs_an_unaware_target_and_gear);
    suite_add_tcase(s, drop);
    TCase *war = tcase_create("warfare");
    tcase_add_test(war, cover_is_rolled_on_joining_public_for_pcs_hidden_for_npcs);
    tcase_add_test(war, attacks_lower_cover_to_wounded_then_dead);
    tcase_add_test(war, restrain_needs_hand_to_hand_and_flee_takes_two_actions);
    tcase_add_test(war, a_wounded_pc_dies_and_the_sheet_learns_wounds);
    tcase_add_test(war, name_only_npcs_roll_a_new_sheets_numbers);
    suite_add_tcase(s, war);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
