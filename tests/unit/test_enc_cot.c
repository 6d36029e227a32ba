/* The cot encounter modules (rules/cot/<module>.c), driven directly with a scripted RNG: slots and
 * claims, the Focus Round, Bolster and Wait, Getting the Drop (Subdue and Murder tables), Gang
 * Warfare (Cover, Attack, Restrain, Break free, Reposition, Flee). The rulebook is
 * 000_d2a475e9ec148dd1.txt, cited 000:LINE. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "enc_fixture.h"

/* ---- the encounter, run the way server/ops_enc.c runs it (enc_fixture.h) ---- */

typedef efx fixture;

static void fx_start(fixture *f, const char *module, const char *options_json)
{
    efx_start(f, module, options_json);
}

static void fx_free(fixture *f)
{
    efx_free(f);
}

static void fx_dice(fixture *f, const int *faces, size_t n)
{
    efx_dice(f, faces, n);
}

/* The next step rolls exactly these faces (checked by used_all). */
#define DICE(f, ...) EFX_DICE(f, __VA_ARGS__)
#define NO_DICE(f) fx_dice(f, NULL, 0)

static void used_all(fixture *f)
{
    efx_dice_used_all(f, "the step");
    efx_dice(f, NULL, 0); /* the next step rolls nothing unless it says so */
}

/* Adds a combatant as enc.add does (sheet_stats copied, then the module's join); a PC names a
 * character. */
static void fx_add(fixture *f, const char *cid, const char *name, const char *side,
                   const char *seat, int npc, const char *sheet_json)
{
    json_t *sheet = sheet_json ? json_loads(sheet_json, 0, NULL) : NULL;
    ck_assert(!sheet_json || sheet);
    json_t *c = efx_combatant(f, cid, name, side, seat, npc);
    if (!npc)
        json_object_set_new(c, "char", json_string("c1"));
    efx_join(f, cid, sheet);
    used_all(f);
    json_decref(sheet);
}

/* enc.act through rules_enc_act; a step that went through used exactly its dice. Returns 0 or
 * the tb_code. */
static int fx_act(fixture *f, const char *seat, const char *actor, const char *action,
                  const char *params_json)
{
    int rc = efx_act(f, seat, actor, action, params_json);
    if (rc == 0)
        used_all(f);
    return rc;
}

#define ACT_OK(f, seat, actor, action, params)                                                     \
    ck_assert_msg(fx_act(f, seat, actor, action, params) == 0, "%s %s: %s", actor ? actor : "-",   \
                  action, (f)->err.msg)

static void refused(fixture *f, const char *seat, const char *actor, const char *action,
                    const char *params, int code, const char *msg_part)
{
    json_t *before = json_deep_copy(f->enc), *before_p = json_deep_copy(f->priv);
    NO_DICE(f);
    int rc = fx_act(f, seat, actor, action, params);
    ck_assert_msg(rc == code, "%s %s: expected code %d, got %d (%s)", actor, action, code, rc,
                  f->err.msg);
    ck_assert_msg(strstr(f->err.msg, msg_part) != NULL, "'%s' does not say '%s'", f->err.msg,
                  msg_part);
    ck_assert(json_equal(before, f->enc));
    ck_assert(json_equal(before_p, f->priv));
    ck_assert_msg(!rules_rng_exhausted(f->rng), "%s %s: a refused action drew a die", actor,
                  action);
    json_decref(before);
    json_decref(before_p);
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
    for (const rules_module *const *m = s->modules; *m; m++, n++) {
        const rules_module *mod = rules_module_find((*m)->id);
        ck_assert_msg(mod != NULL, "%s is listed but not registered", (*m)->id);
        ck_assert_str_eq(mod->system, "cot");
    }
    ck_assert_int_eq(n, 5);
    ck_assert_ptr_nonnull(rules_module_find("cot.chase"));
    ck_assert_ptr_nonnull(rules_module_find("cot.heist"));
    ck_assert_ptr_nonnull(rules_module_find("cot.initiative"));
    ck_assert_ptr_nonnull(rules_module_find("cot.warfare"));
    ck_assert_ptr_nonnull(rules_module_find("cot.social"));
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
    ck_assert_str_eq(log_text(last_log(&f, "initiative")), "A slot 9 for the guards");
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
    ck_assert_str_eq(log_text(last_log(&f, "wait")), "Vera takes slot 11 and waits");
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
    ck_assert_str_eq(log_text(last_log(&f, "wait")), "Vera takes slot 7 and waits");
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
                                  "1] = 17: success vs 12");
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
                     "Vera made no roll on this turn and loses the Bolster");
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
    /* several: the table's column for the allies is that of a Drop on several people (000:119) */
    char params[160] = "{\"target\":\"e2\",\"several\":true";
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

/* Tommy (crew, Brass knuckles, Hand to Hand 3: 7 dice keep 3) and two guards (Training 7). */
static void drop_scene(fixture *f, int wounded_guard)
{
    fx_start(f, "cot.initiative", NULL);
    fx_dice(f, (const int[]){6}, 1);
    fx_add(f, "e1", "Tommy", "crew", "p1", 0, TOMMY);
    fx_dice(f, (const int[]){1, 1}, 2);
    fx_add(f, "e2", "Guard", "guards", "gm", 1, GUARD);
    fx_dice(f, (const int[]){1, 1}, 2);
    fx_add(f, "e3", "Guard 2", "guards", "gm", 1, GUARD);
    if (wounded_guard)
        rules_enc_cond_add(&f->e, "e2", "wounded", 0, 0);
    ACT_OK(f, "gm", NULL, "begin", NULL);
}

/* 000:119 is about "getting the Drop on multiple people": a failed Drop on a lone guard makes
 * that guard Aware, not every guard in the encounter. (Before the fix e3 became Aware.) */
START_TEST(a_failed_drop_on_a_lone_target_alerts_only_the_target)
{
    fixture f;
    drop_scene(&f, 0);
    DICE(&f, 2, 2, 1, 1, 1, 1, 1); /* 5 vs Training 7: Aware */
    ACT_OK(&f, "p1", "e1", "drop", "{\"target\":\"e2\",\"weapon\":\"Brass knuckles\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e2", "aware"));
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "aware"));
    fx_free(&f);
}
END_TEST

/* 000:114 "Wounded and Aware" on a target already Wounded: Dead (000:136 read for the Drop).
 * (Before the fix the guard stayed Wounded and in the fight.) */
START_TEST(murder_on_a_wounded_target_kills)
{
    fixture f;
    fx_start(&f, "cot.initiative", NULL);
    fx_dice(&f, (const int[]){6}, 1);
    fx_add(&f, "e1", "Thug", "crew", "gm", 1, THUG);
    fx_dice(&f, (const int[]){1, 1}, 2);
    fx_add(&f, "e2", "Guard", "guards", "gm", 1, GUARD);
    rules_enc_cond_add(&f.e, "e2", "wounded", 0, 0);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    DICE(&f, 4, 3, 1, 1, 1); /* Murder 7 vs 7: success by 0 */
    ACT_OK(&f, "gm", "e1", "drop", "{\"target\":\"e2\",\"weapon\":\"Knife\"}");
    ck_assert_str_eq(out_of(&f, "e2"), "dead");
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(last_log(&f, "drop"), "result"), "outcome")),
                     "Dead");
    fx_free(&f);
}
END_TEST

/* 000:117: a Conscious and Aware target chooses to Flee, Call for Help or Square Up; the choice
 * is kept on the combatant; nobody else, and nobody without a pending choice, may choose. */
START_TEST(the_target_of_a_drop_chooses_flee_help_or_square_up)
{
    fixture f;
    drop_scene(&f, 0);
    refused(&f, "gm", "e2", "react", "{\"choice\":\"flee\"}", TB_RULE, "no choice to make");
    DICE(&f, 2, 2, 1, 1, 1, 1, 1); /* fails: the guard is Aware and conscious */
    ACT_OK(&f, "p1", "e1", "drop", "{\"target\":\"e2\",\"weapon\":\"Brass knuckles\"}");
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "drop_choice")), "pending");
    refused(&f, "p1", "e2", "react", "{\"choice\":\"flee\"}", TB_FORBIDDEN, "not your");
    refused(&f, "gm", "e2", "react", "{\"choice\":\"dance\"}", TB_BAD_REQUEST, "flee");
    refused(&f, "gm", "e3", "react", "{\"choice\":\"flee\"}", TB_RULE, "no choice to make");
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e2", "react", "{\"choice\":\"call_for_help\"}");
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "drop_choice")),
                     "call_for_help");
    ck_assert_ptr_null(strstr(log_text(last_log(&f, "react")), "000:"));
    refused(&f, "gm", "e2", "react", "{\"choice\":\"flee\"}", TB_RULE, "no choice to make");
    fx_free(&f);
}
END_TEST

/* ---- the moves each seat is offered (issue 23) ---- */

/* The move of `action` for `actor` (NULL: none) among seat's moves now, or NULL; *all (may be
 * NULL) gets every move (the caller frees it). */
static json_t *move_of(fixture *f, const char *seat, const char *action, const char *actor,
                       json_t **all)
{
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    json_t *moves = rules_enc_moves(&f->e), *m, *found = NULL;
    size_t i;
    json_array_foreach(moves, i, m)
    {
        if (strcmp(json_string_value(json_object_get(m, "action")), action) == 0 &&
            (!actor || rules_enc_streq(json_string_value(json_object_get(m, "actor")), actor)))
            found = found ? found : m;
    }
    if (all)
        *all = moves;
    return found;
}

/* The choices' values of parameter `name` of move m, as one string "a,b,c". */
static void choice_values(const json_t *m, const char *name, char *out, size_t n)
{
    size_t i, j, len = 0;
    json_t *p, *c;
    out[0] = '\0';
    json_array_foreach(json_object_get(m, "params"), i, p)
    {
        if (strcmp(json_string_value(json_object_get(p, "name")), name) != 0)
            continue;
        json_array_foreach(json_object_get(p, "choices"), j, c)
        {
            const char *v = json_string_value(json_object_get(c, "value"));
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "," : "", v ? v : "-");
        }
    }
}

/* A player never had a button for `react` (issue 23): whose character a Drop left Conscious and
 * Aware is offered its answer, the three answers a pick, and the default goes through. */
START_TEST(a_player_is_offered_the_answer_to_a_drop)
{
    fixture f;
    fx_start(&f, "cot.initiative", NULL);
    DICE(&f, 6, 6); /* the guard: Brains+Planning 2k2 = 12 */
    fx_add(&f, "e1", "Guard", "guards", "gm", 1, GUARD);
    DICE(&f, 1, 1, 1); /* Vera: 3k2 = 2 */
    fx_add(&f, "e2", "Vera", "party", "p1", 0, VERA);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    json_t *all;
    ck_assert_ptr_null(move_of(&f, "p1", "react", "e2", &all)); /* nothing to answer yet */
    json_decref(all);
    /* the guard's Drop on Vera: Muscle 2k2 = 3 < her Training 4 (Muscle 1 + Resist 1): Aware */
    DICE(&f, 1, 2);
    ACT_OK(&f, "gm", "e1", "drop", "{\"target\":\"e2\"}");
    json_t *m = move_of(&f, "p1", "react", "e2", &all);
    ck_assert_ptr_nonnull(m);
    char values[120];
    choice_values(m, "choice", values, sizeof values);
    ck_assert_str_eq(values, "flee,call_for_help,square_up");
    json_t *args = json_incref(json_object_get(m, "args"));
    json_decref(all);
    char *params = json_dumps(args, JSON_COMPACT);
    ACT_OK(&f, "p1", "e2", "react", params);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "drop_choice")), "flee");
    free(params);
    json_decref(args);
    ck_assert_ptr_null(move_of(&f, "p1", "react", "e2", &all)); /* once only */
    json_decref(all);
    fx_free(&f);
}
END_TEST

/* Issue 24: a name-only NPC's attack skill was free text where only "hand_to_hand" worked: the
 * skill is a pick, Hand to Hand first for the untrained, and the default attack goes through. */
START_TEST(a_name_only_npc_attacks_with_a_pick_of_skills)
{
    fixture f;
    fx_start(&f, "cot.warfare", NULL);
    DICE(&f, 6, 6, 3, 3); /* the thug: initiative 2k2 = 12, Cover 2k2 = 6 */
    fx_add(&f, "e1", "Thug", "foes", "gm", 1, NULL);
    DICE(&f, 1, 4, 4); /* Vera: initiative 1k1 = 1, Cover 2k1 = 4 */
    fx_add(&f, "e2", "Vera", "party", "p1", 0, VERA);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    json_t *all, *m = move_of(&f, "gm", "attack", "e1", &all);
    ck_assert_ptr_nonnull(m);
    char values[200];
    choice_values(m, "skill", values, sizeof values);
    ck_assert_str_eq(values, "hand_to_hand,shooting,explosives,driving");
    choice_values(m, "target", values, sizeof values);
    ck_assert_str_eq(values, "e2");
    json_t *args = json_object_get(m, "args");
    ck_assert_str_eq(json_string_value(json_object_get(args, "skill")), "hand_to_hand");
    ck_assert_str_eq(json_string_value(json_object_get(args, "target")), "e2");
    char *params = json_dumps(args, JSON_COMPACT);
    json_decref(all);
    DICE(&f, 5, 5); /* Muscle 2k2 = 10 against Vera's Cover 4 */
    ACT_OK(&f, "gm", "e1", "attack", params);
    free(params);
    fx_free(&f);
}
END_TEST

/* ---- heists, research, Foresight, schemes (000:174-222) ---- */

static json_t *at(json_t *root, const char *a, const char *b, const char *c)
{
    json_t *v = json_object_get(root, a);
    if (b)
        v = json_object_get(v, b);
    if (c)
        v = json_object_get(v, c);
    return v;
}

/* The GM's Spot: a lobby at the edge (a guard, Awareness 7, Training 7), a hidden vault (rating
 * 12) behind a Vault (score 10); Vera (e1, p1) and Ada (e2, p2) outside. */
static void spot(fixture *f)
{
    fx_start(f, "cot.heist", NULL);
    fx_add(f, "e1", "Vera", "crew", "p1", 0, VERA);
    fx_add(f, "e2", "Ada", "crew", "p2", 0,
           "{\"abilities\":{\"muscle\":1,\"fingers\":2,\"brains\":3,\"it\":2},"
           "\"skills\":{\"planning\":3,\"connections\":1},\"reputation\":0,\"foresight\":0}");
    ACT_OK(f, "gm", NULL, "zone", "{\"id\":\"lobby\",\"name\":\"Lobby\",\"edge\":1}");
    ACT_OK(f, "gm", NULL, "zone",
           "{\"id\":\"vault\",\"name\":\"Old vault\",\"tags\":\"hidden\",\"rating\":12}");
    ACT_OK(f, "gm", NULL, "barrier",
           "{\"id\":\"door\",\"from\":\"outside\",\"to\":\"lobby\",\"tag\":\"none\"}");
    ACT_OK(f, "gm", NULL, "barrier",
           "{\"id\":\"safe\",\"from\":\"lobby\",\"to\":\"vault\",\"tag\":\"vault\","
           "\"score\":10}");
    ACT_OK(f, "gm", NULL, "guard",
           "{\"id\":\"g1\",\"name\":\"Night porter\",\"zone\":\"lobby\",\"lookout\":1,"
           "\"resist\":1}");
}

/* What a player is offered in a Spot is what the crew has seen: no move until a zone is known,
 * then only the known zones; a barrier the GM prepares between zones the crew knows is shown at
 * once (reading 3), a known zone prepared again shows its new name. */
START_TEST(a_barrier_between_known_zones_is_shown_when_prepared)
{
    fixture f;
    spot(&f);
    json_t *all;
    ck_assert_ptr_null(move_of(&f, "p1", "move", "e1", &all));
    json_decref(all);
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"lobby\"}");
    json_t *m = move_of(&f, "p1", "move", "e1", &all);
    char values[120];
    choice_values(m, "zone", values, sizeof values);
    ck_assert_str_eq(values, "lobby"); /* never the hidden vault */
    json_decref(all);
    ACT_OK(&f, "gm", NULL, "zone", "{\"id\":\"hall\",\"name\":\"Hall\"}");
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"hall\"}");
    ck_assert_ptr_null(at(f.enc, "spot", "barriers", "arch"));
    ACT_OK(&f, "gm", NULL, "barrier",
           "{\"id\":\"arch\",\"from\":\"lobby\",\"to\":\"hall\",\"tag\":\"lock\",\"score\":20}");
    ck_assert_str_eq(
        json_string_value(at(at(f.enc, "spot", "barriers", "arch"), "tag", NULL, NULL)), "lock");
    ck_assert_ptr_null(at(at(f.enc, "spot", "barriers", "arch"), "score", NULL, NULL));
    ACT_OK(&f, "gm", NULL, "zone", "{\"id\":\"hall\",\"name\":\"Great hall\",\"tags\":\"noisy\"}");
    ck_assert_str_eq(
        json_string_value(at(f.enc, "spot", "zones", "hall")
                              ? at(at(f.enc, "spot", "zones", "hall"), "name", NULL, NULL)
                              : NULL),
        "Great hall");
    fx_free(&f);
}
END_TEST

/* The GM's preparation is GM-only; research reveals the layout but not a Hidden zone; entering
 * shows the zone's guards; a failed Sneak roll against the zone's Awareness makes them Aware
 * (000:174-200, 000:207). */
START_TEST(heist_zones_stay_hidden_until_the_crew_discovers_them)
{
    fixture f;
    spot(&f);
    ck_assert_int_eq(json_object_size(at(f.enc, "spot", "zones", NULL)), 0);
    ck_assert_int_eq(result_int(last_gm_log(&f, "guard"), "awareness"), 7);
    refused(&f, "p1", "e1", "move", "{\"zone\":\"lobby\"}", TB_RULE, "knows of no such zone");
    refused(&f, "p1", "e1", "zone", "{\"id\":\"x\",\"name\":\"X\"}", TB_FORBIDDEN, "GM");
    /* Ada: layout 6 + 1 zone (the vault is Hidden) = 7; Brains+Planning 6k3: 15 */
    DICE(&f, 6, 5, 4, 1, 1, 1);
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"layout\",\"method\":\"planning\"}");
    ck_assert_ptr_nonnull(at(f.enc, "spot", "zones", "lobby"));
    ck_assert_ptr_null(at(f.enc, "spot", "zones", "vault"));
    ck_assert_ptr_nonnull(at(f.enc, "spot", "barriers", "door"));
    ck_assert_ptr_null(at(f.enc, "spot", "barriers", "safe")); /* would name the vault */
    ck_assert_ptr_null(at(f.enc, "spot", "guards", NULL));
    /* Vera sneaks in: Fingers+Sneak 3k3 = 1 + 1 + 2 = 4 < Awareness 7: spotted */
    DICE(&f, 1, 1, 2);
    ACT_OK(&f, "p1", "e1", "move", "{\"zone\":\"lobby\"}");
    ck_assert_str_eq(json_string_value(at(f.enc, "spot", "crew", "e1")), "lobby");
    ck_assert(json_is_true(at(at(f.enc, "spot", "guards", "g1"), "aware", NULL, NULL)));
    ck_assert_ptr_null(at(at(f.enc, "spot", "guards", "g1"), "awareness", NULL, NULL));
    char *pub = json_dumps(f.enc, 0);
    ck_assert_ptr_null(strstr(pub, "Old vault"));
    free(pub);
    /* an Aware guard there: nobody else sneaks in (000:177), refused before any die */
    refused(&f, "p2", "e2", "move", "{\"zone\":\"lobby\"}", TB_RULE, "Aware guard");
    /* the hidden vault: Ada looks for hidden zones: 6k3 = 13 >= rating 12 */
    DICE(&f, 5, 4, 4, 1, 1, 1);
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"hidden\",\"method\":\"planning\"}");
    ck_assert_ptr_nonnull(at(f.enc, "spot", "zones", "vault"));
    ck_assert_ptr_nonnull(at(f.enc, "spot", "barriers", "safe"));
    /* the vault door is barred until bypassed: Safecracking (Brains) */
    refused(&f, "p1", "e1", "move", "{\"zone\":\"vault\"}", TB_RULE, "barred");
    refused(&f, "p1", "e1", "bypass", "{\"barrier\":\"safe\",\"skill\":\"build\"}", TB_BAD_REQUEST,
            "safecracking");
    fx_free(&f);
}
END_TEST

/* Connections halves the difficulty for 1 Reputation, refused without any before a die; a
 * stakeout's failed Sneak roll raises Heat (000:204-205); Planning earns 1 Foresight per 3,
 * capped at Brains+Planning; the Training scheme costs 1 per rolled die and 2 per kept die and
 * adds them to the next roll (000:213-218). */
START_TEST(research_foresight_and_schemes)
{
    fixture f;
    spot(&f);
    refused(&f, "p2", "e2", "research", "{\"goal\":\"itinerary\",\"method\":\"connections\"}",
            TB_RULE, "no Reputation");
    rules_enc_stat_set(&f.e, "e2", "reputation", 2);
    /* itinerary 20, halved: 10; It+Connections 3k2: 6 + 5 = 11 */
    DICE(&f, 6, 5, 1);
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"itinerary\",\"method\":\"connections\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "reputation", -1), 1);
    ck_assert(json_is_true(
        json_object_get(json_object_get(last_log(&f, "research"), "result"), "success")));
    /* a stakeout on the layout: Lookout (Brains 3 + 0) 3k3 = 9 >= 7 halved (4); the Sneak roll
     * 2k2 = 2 < the lobby guard's Awareness 7: Heat +1 */
    DICE(&f, 3, 3, 3, 1, 1);
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"layout\",\"method\":\"stakeout\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "heat", -1), 1);
    /* Planning for Foresight: 6k3 = 16: 5, capped at Brains 3 + Planning 3 = 6 */
    DICE(&f, 6, 6, 4, 1, 1, 1);
    ACT_OK(&f, "p2", "e2", "plan", NULL);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "foresight", -1), 5);
    refused(&f, "p2", "e2", "scheme", "{\"scheme\":\"training\",\"rolled\":2,\"kept\":2}", TB_RULE,
            "this takes 6");
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "scheme", "{\"scheme\":\"training\",\"rolled\":1,\"kept\":1}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "foresight", -1), 2);
    /* the next roll: Brains+Planning 6k3 +1k1: 7k4 (issue 25: before, 8k4) */
    DICE(&f, 1, 1, 1, 1, 1, 6, 6);
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"itinerary\",\"method\":\"planning\"}");
    ck_assert_int_eq(result_int(last_gm_log(&f, "research"), "total"), 14);
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "training"));
    fx_free(&f);
}
END_TEST

/* Issue 25 item 3: Training's kept die is a kept die, not a rolled one too (000:218 "1 Foresight
 * per rolled die and 2 Foresight per kept die added"; cot.h's +0kK): +0k1 keeps one more of the
 * same dice (before, 6k3 became 7k4, not 6k4). */
START_TEST(training_adds_the_dice_it_pays_for)
{
    fixture f;
    spot(&f);
    rules_enc_stat_set(&f.e, "e2", "foresight", 4);
    NO_DICE(&f);
    ACT_OK(&f, "p2", "e2", "scheme", "{\"scheme\":\"training\",\"kept\":1}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "foresight", -1), 2);
    ck_assert_str_eq(log_text(last_log(&f, "scheme")),
                     "Ada spends 2 Foresight: trained for it: +0 dice rolled, +1 kept on the next "
                     "roll");
    /* Brains+Planning 6k3 +0k1: 6k4 = 6 + 5 + 4 + 3 = 18 */
    DICE(&f, 6, 5, 4, 3, 1, 1);
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"itinerary\",\"method\":\"planning\"}");
    ck_assert_int_eq(result_int(last_gm_log(&f, "research"), "total"), 18); /* six dice, no more */
    fx_free(&f);
}
END_TEST

/* Issue 25 item 7: the mark's Connections are the GM's number (000:209): the GM sets them
 * (`mark`), the crew's research rolls against 25 - them unseen; a player cannot type them
 * (before, `connections` was the researcher's own parameter). */
START_TEST(the_marks_connections_are_the_gms)
{
    fixture f;
    spot(&f);
    refused(&f, "p2", "e2", "research",
            "{\"goal\":\"mark\",\"method\":\"planning\",\"connections\":9}", TB_BAD_REQUEST,
            "connections");
    ACT_OK(&f, "gm", NULL, "mark", "{\"connections\":5,\"name\":\"The banker\"}");
    ck_assert_ptr_null(last_log(&f, "mark")); /* the GM's number */
    ck_assert_int_eq(result_int(last_gm_log(&f, "mark"), "connections"), 5);
    DICE(&f, 6, 6, 6, 1, 1, 1); /* Brains+Planning 6k3 = 18 < 25 - 5 */
    ACT_OK(&f, "p2", "e2", "research", "{\"goal\":\"mark\",\"method\":\"planning\"}");
    ck_assert_int_eq(result_int(last_gm_log(&f, "research"), "difficulty"), 20);
    ck_assert_ptr_null(
        json_object_get(json_object_get(last_log(&f, "research"), "result"), "difficulty"));
    fx_free(&f);
}
END_TEST

/* Issue 25 item 7: 000:186 Crowded: "Rolls made with Cat Burglar ... cause all Guards in the Zone
 * to become Aware" — also a climb out of it (before, only a Cat Burglary roll into a Crowded
 * zone did). */
START_TEST(a_climb_out_of_a_crowd_alarms_its_guards)
{
    fixture f;
    fx_start(&f, "cot.heist", NULL);
    fx_add(&f, "e1", "Vera", "crew", "p1", 0, VERA);
    ACT_OK(&f, "gm", NULL, "zone",
           "{\"id\":\"market\",\"name\":\"Market\",\"tags\":\"crowded\",\"edge\":1}");
    ACT_OK(&f, "gm", NULL, "zone", "{\"id\":\"roof\",\"name\":\"Roof\"}");
    ACT_OK(&f, "gm", NULL, "barrier",
           "{\"id\":\"gate\",\"from\":\"outside\",\"to\":\"market\",\"tag\":\"none\"}");
    ACT_OK(&f, "gm", NULL, "barrier",
           "{\"id\":\"wall\",\"from\":\"market\",\"to\":\"roof\",\"tag\":\"height\",\"score\":5}");
    ACT_OK(&f, "gm", NULL, "guard", "{\"id\":\"g1\",\"name\":\"Beat cop\",\"zone\":\"market\"}");
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"market\"}");
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"roof\"}");
    DICE(&f, 3, 3, 3); /* Vera sneaks in: Fingers+Sneak 3k3 = 9 against Awareness 6: unseen */
    ACT_OK(&f, "p1", "e1", "move", "{\"zone\":\"market\"}");
    ck_assert(!json_is_true(at(at(f.enc, "spot", "guards", "g1"), "aware", NULL, NULL)));
    DICE(&f, 2, 2, 2); /* the wall by Cat Burglary: 3k3 = 6 >= 5 */
    ACT_OK(&f, "p1", "e1", "bypass", "{\"barrier\":\"wall\",\"skill\":\"cat_burglary\"}");
    ck_assert(json_is_true(at(at(f.enc, "spot", "guards", "g1"), "aware", NULL, NULL)));
    ck_assert_str_eq(log_text(last_log(&f, "aware")),
                     "The crowd draws the guards' eyes: the guards of Market are Aware");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 7: a heist scene moves on the campaign clock (000:21 "Heist: 5 minutes" a round,
 * 000:24): each crew member's move or bypass is its action of a round, so the round begins when
 * the first acts and the next when one acts again. Before, /enc/round stayed 0 and the clock
 * always said the heist plays next, beside a Social Call too. */
START_TEST(a_heist_moves_on_the_campaign_clock)
{
    fixture f;
    spot(&f);
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"lobby\"}");
    ACT_OK(&f, "gm", NULL, "zone", "{\"id\":\"hall\",\"name\":\"Hall\"}");
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"hall\"}");
    ACT_OK(&f, "gm", NULL, "reveal", "{\"zone\":\"vault\"}");
    ACT_OK(&f, "gm", NULL, "barrier",
           "{\"id\":\"arch\",\"from\":\"lobby\",\"to\":\"hall\",\"tag\":\"none\"}");
    ck_assert_int_eq(rules_enc_round(&f.e), 0);
    ACT_OK(&f, "p1", "e1", "move", "{\"zone\":\"lobby\",\"stealth\":0}");
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ACT_OK(&f, "p2", "e2", "move", "{\"zone\":\"lobby\",\"stealth\":0}"); /* Ada, same round */
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    DICE(&f, 1, 1, 1); /* Ada at the safe, Brains+Safecracking 3k3 = 3 against 10: it holds */
    ACT_OK(&f, "p2", "e2", "bypass", "{\"barrier\":\"safe\"}"); /* Ada again: round 2 */
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ACT_OK(&f, "p1", "e1", "move", "{\"zone\":\"hall\",\"stealth\":0}"); /* Vera's 2nd */
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    /* beside a Social Call started at the same time: after 2 Heist rounds (10 minutes) the call's
     * first round ends first, so the call plays next (000:24) */
    rules_clock_scene s[2] = {{0, 300, rules_enc_round(&f.e), 0}, {0, 600, 0, 0}};
    ck_assert_int_eq(rules_clock_next(s, 2), 1);
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
    ck_assert_str_eq(log_text(last_log(&f, "cover")), "Guard takes cover");
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
    ck_assert_str_eq(log_text(last_log(&f, "reposition")), "Guard takes slot 5 and repositions");
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
                     "6 6 6 [1 1 1 1] = 18: Guard is Dead");
    /* the guards' slot passes: nobody is left to take it; round 5 is Tommy's */
    ck_assert_str_eq(log_text(last_log(&f, "pass")),
                     "Slot 5 (guards) passes: nobody on that side can take it");
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

/* Issue 25 item 7: 000:239 "Leaning Onto your own Loyalties, you can apply the bonus from any
 * Loyalty of immediate relevance to any type of action. For example, you could Lean Onto your
 * Hatred of Police in a shootout": +1k0 outside a Social Call too (before, only its rolls had
 * the parameter). */
START_TEST(lean_onto_my_loyalty_in_a_fight)
{
    fixture f;
    fx_start(&f, "cot.warfare", NULL);
    DICE(&f, 6, 5, 4, 1, 1, 3, 3, 2, 1, 1, 1);
    fx_add(&f, "e1", "Tommy", "party", "p1", 0,
           "{\"abilities\":{\"muscle\":3,\"fingers\":1,\"brains\":1,\"it\":2},"
           "\"skills\":{\"hand_to_hand\":3,\"shooting\":2,\"athletics\":2,\"resist\":2},"
           "\"loyalties\":[{\"kind\":\"Hatred\",\"target\":\"Police\",\"prime\":true}],"
           "\"gear\":[{\"name\":\"Brass knuckles\",\"kind\":\"weapon\",\"bonus\":1,"
           "\"blunt\":true},{\"name\":\"Leather coat\",\"kind\":\"armour\",\"bonus\":1}]}");
    DICE(&f, 3, 2, 1, 4, 4, 1);
    fx_add(&f, "e2", "Guard", "guards", "gm", 1, GUARD);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    refused(&f, "p1", "e1", "attack", "{\"target\":\"e2\",\"lean_onto\":2}", TB_RULE,
            "no Loyalty 2");
    /* Hatred: Police in a shootout: Muscle 3 + Hand to Hand 3 + the knuckles 1 + 1 = 8k3 */
    DICE(&f, 6, 6, 6, 1, 1, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "attack",
           "{\"target\":\"e2\",\"weapon\":\"Brass knuckles\",\"lean_onto\":1}");
    ck_assert_int_eq(result_int(last_log(&f, "attack"), "rolled"), 8);
    ck_assert_int_eq(result_int(last_log(&f, "attack"), "bonus"), 2);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 7: 000:218 "Training- Add dice on action": Foresight is spent outside a heist
 * too (before, only the heist's scheme could): +1k1 on Tommy's next attack. */
START_TEST(foresight_trains_an_action_in_a_fight)
{
    fixture f;
    fx_start(&f, "cot.warfare", NULL);
    DICE(&f, 6, 5, 4, 1, 1, 3, 3, 2, 1, 1, 1);
    fx_add(&f, "e1", "Tommy", "party", "p1", 0,
           "{\"abilities\":{\"muscle\":3,\"fingers\":1,\"brains\":1,\"it\":2},"
           "\"skills\":{\"hand_to_hand\":3,\"athletics\":2,\"resist\":2,\"planning\":2},"
           "\"foresight\":3,"
           "\"gear\":[{\"name\":\"Leather coat\",\"kind\":\"armour\",\"bonus\":1}]}");
    DICE(&f, 3, 2, 1, 4, 4, 1);
    fx_add(&f, "e2", "Guard", "guards", "gm", 1, GUARD);
    refused(&f, "p1", "e1", "train", "{\"kept\":2}", TB_RULE, "this takes 4");
    refused(&f, "gm", "e2", "train", "{\"rolled\":1}", TB_RULE, "the crew's");
    ACT_OK(&f, "p1", "e1", "train", "{\"rolled\":1,\"kept\":1}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "foresight", -1), 0);
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    /* Muscle 3 + Hand to Hand 3 = 6k3, trained +1k1: 7k4 = 6 + 6 + 6 + 6 = 24 */
    DICE(&f, 6, 6, 6, 6, 1, 1, 1);
    ACT_OK(&f, "p1", "e1", "attack", "{\"target\":\"e2\"}");
    ck_assert_int_eq(result_int(last_log(&f, "attack"), "total"), 24);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "training"));
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

/* ---- cot.social: Social Calls (000:224-291) ---- */

/* Ann (p1) and Bob (p2) of the party, Vera (an NPC of the GM's) with two Loyalties. Slots
 * (It+Size Up, 000:250 and 000:34): Ann 12, Bob 10, Vera 3; round 1 begins at slot 12. */
#define PC_SOCIAL                                                                                  \
    "{\"abilities\":{\"it\":2},\"skills\":{\"size_up\":1,\"convince\":1,\"intimidate\":1}}"
static void social_setup(fixture *f)
{
    fx_start(f, "cot.social", NULL);
    json_object_set_new(f->priv, "p1",
                        json_pack("{s:{s:{s:[{s:s, s:s, s:b}, {s:s, s:s}]}}}", "sheets", "c1",
                                  "loyalties", "kind", "Devoted", "target", "Crew", "prime", 1,
                                  "kind", "Hated", "target", "Police"));
    DICE(f, 6, 6, 1);
    fx_add(f, "e1", "Ann", "party", "p1", 0, PC_SOCIAL);
    DICE(f, 5, 5, 1);
    fx_add(f, "e2", "Bob", "party", "p2", 0, PC_SOCIAL);
    DICE(f, 1, 2);
    fx_add(f, "e3", "Vera", "foes", "gm", 1,
           "{\"loyalties\":[{\"kind\":\"Devoted\",\"target\":\"Husband\",\"prime\":true},"
           "{\"kind\":\"Hatred\",\"target\":\"Germans\"}]}");
    ACT_OK(f, "gm", NULL, "identity", "{\"target\":\"e3\",\"identity\":\"Vera Kessler\"}");
    ACT_OK(f, "gm", NULL, "begin", NULL);
}

static json_t *knows(fixture *f, const char *seat, const char *about)
{
    return strcmp(seat, "gm") == 0
               ? json_object_get(json_object_get(f->hidden, "known"), about)
               : json_object_get(json_object_get(json_object_get(f->priv, seat), "social"), about);
}

static json_t *agenda_known(fixture *f, const char *seat, const char *about, const char *key)
{
    return json_object_get(json_object_get(knows(f, seat, about), "agenda"), key);
}

static const char *emotion_of(fixture *f, const char *cid)
{
    return json_string_value(json_object_get(
        json_object_get(json_object_get(json_object_get(f->enc, "combatants"), cid), "emotion"),
        "state"));
}

/* 000:253-255 with three seats: what Ann learns reaches p1 only; Bob's failure tells the NPC's
 * side (the GM) Bob's presented identity and tells Ann nothing. */
START_TEST(read_room_knowledge_lands_with_the_seat_that_learned_it)
{
    fixture f;
    social_setup(&f);
    /* Ann's Loyalties came from /private/p1/sheets (the GM's copy under /gm/enc) */
    ck_assert_int_eq(
        json_array_size(json_object_get(
            json_object_get(json_object_get(f.hidden, "combatants"), "e1"), "loyalties")),
        2);
    /* unidentified: a Loyalty cannot be asked yet, and nothing is rolled */
    refused(&f, "p1", "e1", "read_room", "{\"target\":\"e3\",\"ask\":\"loyalty\",\"loyalty\":1}",
            TB_RULE, "identified");
    refused(&f, "p1", "e1", "read_room", "{\"target\":\"e2\"}", TB_RULE, "side");
    /* success: Vera 1+2=3 sets the difficulty, Ann 6+6=12 */
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    ck_assert_str_eq(json_string_value(json_object_get(knows(&f, "p1", "e3"), "identity")),
                     "Vera Kessler");
    ck_assert_ptr_null(knows(&f, "p2", "e3"));
    ck_assert_ptr_null(knows(&f, "gm", "e1"));
    /* failure: Vera 6+6=12, Bob 2+1=3: Bob still learns who she is, and the GM's side learns
     * whom Bob presents as (000:253) */
    DICE(&f, 6, 6, 1, 2, 1);
    ACT_OK(&f, "p2", "e2", "read_room", "{\"target\":\"e3\"}");
    ck_assert(json_is_true(json_object_get(knows(&f, "p2", "e3"), "identified")));
    ck_assert_str_eq(json_string_value(json_object_get(knows(&f, "gm", "e2"), "presented_seen")),
                     "Bob");
    ck_assert_ptr_null(knows(&f, "gm", "e1"));
    /* Vera's slot: the GM waits; round 2 opens at Ann's slot */
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* Ann asks for Loyalty 2 and succeeds: only p1 learns it */
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\",\"ask\":\"loyalty\",\"loyalty\":2}");
    ck_assert_str_eq(json_string_value(
                         json_object_get(json_object_get(knows(&f, "p1", "e3"), "loyalties"), "2")),
                     "Hatred: Germans");
    ck_assert_int_eq(json_object_size(json_object_get(knows(&f, "p2", "e3"), "loyalties")), 0);
    /* Bob asks for Loyalty 1 and fails: Vera's side knew whom he presents as, so it learns what
     * he tried to uncover (000:255); Bob learns nothing */
    DICE(&f, 6, 6, 1, 2, 1);
    ACT_OK(&f, "p2", "e2", "read_room", "{\"target\":\"e3\",\"ask\":\"loyalty\",\"loyalty\":1}");
    ck_assert_int_eq(json_object_size(json_object_get(knows(&f, "p2", "e3"), "loyalties")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(knows(&f, "gm", "e2"), "tried"), "loyalty")),
                     1);
    fx_free(&f);
}
END_TEST

/* 000:241, the book's example: a German tries to alter the married woman's Devoted: Husband;
 * she cannot Lean Into that Loyalty, but can Lean Into Hatred: Germans and deny the agenda. */
START_TEST(lean_into_the_married_woman_and_the_german)
{
    fixture f;
    social_setup(&f);
    refused(&f, "p1", "e1", "agenda", "{\"target\":\"e3\",\"text\":\"leave with me\"}", TB_RULE,
            "Read Room");
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    ACT_OK(&f, "p1", "e1", "agenda",
           "{\"target\":\"e3\",\"text\":\"Desire: Handsome German\",\"alters\":1}");
    /* the agenda is known to Ann's side (p1 and p2) and the GM (000:258) */
    ck_assert_str_eq(json_string_value(agenda_known(&f, "p2", "e3", "text")),
                     "Desire: Handsome German");
    ck_assert_ptr_nonnull(agenda_known(&f, "gm", "e3", "text"));
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* round 2: Lean Onto a Loyalty Ann has not learned: refused before any die (000:239) */
    refused(&f, "p1", "e1", "build_up",
            "{\"target\":\"e3\",\"skill\":\"con\",\"lean_onto_target\":1}", TB_RULE, "Read Room");
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\",\"ask\":\"loyalty\",\"loyalty\":1}");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* round 3: known now, but it is the Loyalty the agenda alters (000:239) */
    refused(&f, "p1", "e1", "build_up",
            "{\"target\":\"e3\",\"skill\":\"con\",\"lean_onto_target\":1}", TB_RULE, "alter");
    /* she cannot Lean Into the Loyalty being altered; only her controller may Lean Into */
    refused(&f, "gm", "e3", "lean_into", "{\"target\":\"e1\",\"loyalty\":1}", TB_RULE,
            "very Loyalty");
    refused(&f, "p2", "e3", "lean_into", "{\"target\":\"e1\",\"loyalty\":2}", TB_FORBIDDEN, "");
    ACT_OK(&f, "gm", "e3", "lean_into", "{\"target\":\"e1\",\"loyalty\":2}");
    ck_assert(json_is_true(agenda_known(&f, "p1", "e3", "denied")));
    ck_assert(json_is_true(agenda_known(&f, "p2", "e3", "denied")));
    fx_free(&f);
}
END_TEST

/* 000:237: one Loyalty altered per Social Call, by an achieved agenda that alters it (or the
 * GM's ruling); what seats had learned of it is forgotten; the end of the call forgets the rest. */
START_TEST(one_loyalty_altered_per_call_and_knowledge_ends_with_the_call)
{
    fixture f;
    social_setup(&f);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    ACT_OK(&f, "p1", "e1", "agenda",
           "{\"target\":\"e3\",\"text\":\"Desire: Handsome German\",\"alters\":2}");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\",\"ask\":\"loyalty\",\"loyalty\":2}");
    ck_assert_ptr_nonnull(
        json_object_get(json_object_get(knows(&f, "p1", "e3"), "loyalties"), "2"));
    /* Ann's own Loyalty: no agenda altered it, so her player cannot change it mid-call */
    refused(&f, "p1", "e1", "alter", "{\"loyalty\":1,\"to\":\"Desire: Money\"}", TB_RULE,
            "achieved");
    refused(&f, "p2", "e3", "alter", "{\"loyalty\":1,\"to\":\"Desire: Money\"}", TB_FORBIDDEN, "");
    refused(&f, "gm", "e3", "alter", "{\"loyalty\":1}", TB_BAD_REQUEST, "one of the two");
    refused(&f, "gm", "e3", "alter", "{\"loyalty\":2,\"to\":\"Money\"}", TB_BAD_REQUEST,
            "Kind: Target");
    refused(&f, "gm", "e3", "alter", "{\"loyalty\":3,\"prime\":true}", TB_RULE, "no Loyalty 3");
    refused(&f, "gm", "e3", "alter", "{\"loyalty\":1,\"prime\":true}", TB_RULE, "already");
    /* the agenda is achieved (Build Up, Follow Through) and the GM alters Vera's Loyalty 2 (her
     * Prime, Loyalty 1, is never rewritten: issue 25) */
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"convince\"}");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "follow_through", "{\"target\":\"e3\",\"skill\":\"convince\"}");
    ck_assert(json_is_true(agenda_known(&f, "gm", "e3", "achieved")));
    ACT_OK(&f, "gm", "e3", "alter", "{\"loyalty\":2,\"to\":\"Desire: Handsome German\"}");
    json_t *l1 = json_array_get(
        json_object_get(json_object_get(json_object_get(f.hidden, "combatants"), "e3"),
                        "loyalties"),
        1);
    ck_assert_str_eq(json_string_value(json_object_get(l1, "kind")), "Desire");
    ck_assert_str_eq(json_string_value(json_object_get(l1, "target")), "Handsome German");
    /* what Ann had learned of it is no longer true: forgotten */
    ck_assert_ptr_null(json_object_get(json_object_get(knows(&f, "p1", "e3"), "loyalties"), "2"));
    /* one per call: the swap with the Prime waits for the next one */
    refused(&f, "gm", "e3", "alter", "{\"loyalty\":2,\"prime\":true}", TB_RULE, "one per call");
    /* a PC's change lands in its private sheet: the GM rules Ann's Loyalty 2 changes */
    ACT_OK(&f, "gm", "e1", "alter", "{\"loyalty\":2,\"to\":\"Desire: Revenge\"}");
    ck_assert_str_eq(
        json_string_value(json_object_get(
            json_array_get(
                json_object_get(
                    json_object_get(json_object_get(json_object_get(f.priv, "p1"), "sheets"), "c1"),
                    "loyalties"),
                1),
            "target")),
        "Revenge");
    /* the public log says that a Loyalty changed, never what it is */
    size_t i;
    json_t *v;
    json_array_foreach(f.e.log, i, v)
        ck_assert_ptr_null(strstr(json_string_value(json_object_get(v, "text")), "Revenge"));
    /* the call ends: every seat's knowledge of its characters is gone */
    ck_assert_ptr_nonnull(knows(&f, "p1", "e3"));
    ck_assert_int_eq(rules_module_find("cot.social")->end(&f.e, &f.err), 0);
    ck_assert_ptr_null(json_object_get(json_object_get(f.priv, "p1"), "social"));
    ck_assert_ptr_null(json_object_get(json_object_get(f.priv, "p2"), "social"));
    ck_assert_ptr_nonnull(json_object_get(json_object_get(f.priv, "p1"), "sheets"));
    fx_free(&f);
}
END_TEST

/* 000:271 and 000:237: an NPC's agenda that alters a PC's Loyalty is achieved; the PC's seat
 * (only) learns which Loyalty may change (`alterable`, the panel's Alter), never the agenda's
 * text; its player makes the one change of the call, which lands on the private sheet. */
START_TEST(a_player_alters_the_loyalty_an_achieved_agenda_alters)
{
    fixture f;
    social_setup(&f);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    DICE(&f, 1, 2, 1, 6, 6);
    ACT_OK(&f, "gm", "e3", "read_room", "{\"target\":\"e1\"}");
    ACT_OK(&f, "gm", "e3", "agenda",
           "{\"target\":\"e1\",\"text\":\"Turn on the crew\",\"alters\":2}");
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    DICE(&f, 1, 2, 1, 6, 6);
    ACT_OK(&f, "gm", "e3", "build_up", "{\"target\":\"e1\",\"skill\":\"convince\"}");
    /* not achieved yet: the player may not change it */
    refused(&f, "p1", "e1", "alter", "{\"loyalty\":2,\"to\":\"Desire: Vera\"}", TB_RULE,
            "achieved");
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    DICE(&f, 1, 2, 1, 6, 6);
    ACT_OK(&f, "gm", "e3", "follow_through", "{\"target\":\"e1\",\"skill\":\"convince\"}");
    ck_assert(json_is_true(agenda_known(&f, "gm", "e1", "achieved")));
    /* Ann's seat learns which Loyalty, not what Vera wanted; Bob's seat learns nothing */
    ck_assert_int_eq(json_integer_value(json_object_get(knows(&f, "p1", "e1"), "alterable")), 2);
    ck_assert_ptr_null(json_object_get(knows(&f, "p1", "e1"), "agenda"));
    ck_assert_ptr_null(json_object_get(knows(&f, "p2", "e1"), "alterable"));
    refused(&f, "p1", "e1", "alter", "{\"loyalty\":2}", TB_BAD_REQUEST, "one of the two");
    refused(&f, "p1", "e1", "alter", "{\"loyalty\":2,\"to\":\"Money\"}", TB_BAD_REQUEST,
            "Kind: Target");
    refused(&f, "p1", "e1", "alter", "{\"loyalty\":1,\"to\":\"Desire: Vera\"}", TB_RULE,
            "achieved");
    ACT_OK(&f, "p1", "e1", "alter", "{\"loyalty\":2,\"to\":\"Desire: Vera's Approval\"}");
    json_t *l1 = json_array_get(
        json_object_get(
            json_object_get(json_object_get(json_object_get(f.priv, "p1"), "sheets"), "c1"),
            "loyalties"),
        1);
    ck_assert_str_eq(json_string_value(json_object_get(l1, "target")), "Vera's Approval");
    ck_assert(!json_is_true(json_object_get(l1, "prime")));
    ck_assert_ptr_null(json_object_get(knows(&f, "p1", "e1"), "alterable"));
    refused(&f, "p1", "e1", "alter", "{\"loyalty\":2,\"to\":\"Desire: Money\"}", TB_RULE,
            "one per call");
    fx_free(&f);
}
END_TEST

/* The numbers of parameter `name`'s choices of move m, "1,2" (a null choice as "-"). */
static void choice_numbers(const json_t *m, const char *name, char *out, size_t n)
{
    size_t i, j, len = 0;
    json_t *p, *c;
    out[0] = '\0';
    json_array_foreach(json_object_get(m, "params"), i, p)
    {
        if (strcmp(json_string_value(json_object_get(p, "name")), name) != 0)
            continue;
        json_array_foreach(json_object_get(p, "choices"), j, c)
        {
            json_t *v = json_object_get(c, "value");
            len += (size_t)snprintf(out + len, n - len, "%s", len ? "," : "");
            len += json_is_integer(v) ? (size_t)snprintf(out + len, n - len, "%lld",
                                                         (long long)json_integer_value(v))
                                      : (size_t)snprintf(out + len, n - len, "-");
        }
    }
}

/* 000:237 the Prime Loyalty is only swapped with another, never altered itself: the GM's Alter
 * picks leave it out, and so does an NPC's agenda's `alters` once the NPC knows whom it pushes (the
 * GM knows the Prime); a player's agenda offers every number (the choices tell no Prime). */
START_TEST(the_prime_is_no_pick_of_alter_nor_of_an_agenda_that_alters)
{
    fixture f;
    social_setup(&f);
    char values[64];
    json_t *all;
    /* Vera's Prime is her Loyalty 1: the GM's Alter offers her Loyalty 2 only */
    json_t *m = move_of(&f, "gm", "alter", "e3", &all);
    ck_assert_ptr_nonnull(m);
    choice_numbers(m, "loyalty", values, sizeof values);
    ck_assert_str_eq(values, "2");
    json_decref(all);
    /* Ann (Prime: her Loyalty 1) pushes on Vera: her player's choices name no Prime */
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    m = move_of(&f, "p1", "agenda", "e1", &all);
    ck_assert_ptr_nonnull(m);
    choice_numbers(m, "alters", values, sizeof values);
    ck_assert_str_eq(values, "-,1,2,3,4");
    json_decref(all);
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    /* Vera reads Ann: her agenda on Ann does not offer Ann's Prime (Loyalty 1) */
    DICE(&f, 1, 2, 1, 6, 6);
    ACT_OK(&f, "gm", "e3", "read_room", "{\"target\":\"e1\"}");
    m = move_of(&f, "gm", "agenda", "e3", &all);
    ck_assert_ptr_nonnull(m);
    choice_numbers(m, "alters", values, sizeof values);
    ck_assert_str_eq(values, "-,2,3,4");
    json_decref(all);
    fx_free(&f);
}
END_TEST

/* The GM's two social rulings refuse what they cannot record, and change nothing: an identity
 * without anything to set (000:257; a target that is no combatant is the server's not_found), an
 * "impedes" for an agenda nobody pushes (000:254). */
START_TEST(identity_and_impedes_refusals_change_nothing)
{
    fixture f;
    social_setup(&f);
    refused(&f, "gm", NULL, "identity", "{\"target\":\"e3\"}", TB_BAD_REQUEST, "presented");
    refused(&f, "gm", NULL, "impedes", "{\"target\":\"e3\",\"target2\":\"e1\"}", TB_RULE,
            "pushes no agenda");
    refused(&f, "gm", NULL, "impedes", "{\"target\":\"e1\",\"target2\":\"e3\"}", TB_RULE,
            "pushes no agenda");
    fx_free(&f);
}
END_TEST

/* 000:260-271: Build Up sets the skill's state; a failed Follow Through turns it negative and
 * bars its author until they present as someone else; a success achieves the agenda. */
START_TEST(build_up_and_follow_through_move_the_emotional_state)
{
    fixture f;
    social_setup(&f);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    refused(&f, "p2", "e2", "build_up", "{\"target\":\"e3\",\"skill\":\"convince\"}", TB_RULE,
            "agenda");
    ACT_OK(&f, "p1", "e1", "agenda", "{\"target\":\"e3\",\"text\":\"the key\"}");
    refused(&f, "p2", "e2", "follow_through", "{\"target\":\"e3\",\"skill\":\"con\"}",
            TB_BAD_REQUEST, "skill");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* round 2: no state yet, no Follow Through; Ann builds up with Convince, Leaning Onto her
     * own Loyalty (+1k0: four dice): Vera 1+2=3, Ann 6+6 */
    refused(&f, "p1", "e1", "follow_through", "{\"target\":\"e3\",\"skill\":\"convince\"}", TB_RULE,
            "Build Up first");
    refused(&f, "p1", "e1", "build_up",
            "{\"target\":\"e3\",\"skill\":\"convince\",\"lean_onto\":3}", TB_RULE, "Loyalty 3");
    DICE(&f, 1, 2, 6, 6, 1, 1);
    ACT_OK(&f, "p1", "e1", "build_up",
           "{\"target\":\"e3\",\"skill\":\"convince\",\"lean_onto\":1}");
    ck_assert_str_eq(emotion_of(&f, "e3"), "Engaged");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* round 3: the Follow Through against her Read Room fails: Stubborn (000:271) */
    DICE(&f, 6, 6, 1, 2, 1);
    ACT_OK(&f, "p1", "e1", "follow_through", "{\"target\":\"e3\",\"skill\":\"convince\"}");
    ck_assert_str_eq(emotion_of(&f, "e3"), "Stubborn");
    ck_assert_ptr_null(agenda_known(&f, "p1", "e3", "achieved"));
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* round 4: Ann made her Stubborn: barred (000:261) until she presents as someone else */
    refused(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"intimidate\"}", TB_RULE,
            "someone else");
    ACT_OK(&f, "gm", NULL, "identity", "{\"target\":\"e1\",\"presented\":\"a police officer\"}");
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"intimidate\"}");
    ck_assert_str_eq(emotion_of(&f, "e3"), "Fearful");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "follow_through", "{\"target\":\"e3\",\"skill\":\"intimidate\"}");
    ck_assert(json_is_true(agenda_known(&f, "p1", "e3", "achieved")));
    ck_assert(json_is_true(agenda_known(&f, "p2", "e3", "achieved")));
    fx_free(&f);
}
END_TEST

/* Issue 25 item 4: an agenda is its pusher's (RULES.md reading 13; 000:269 "the Emotional State
 * you, or another character created"): Bob's agenda on Vera leaves Ann's in place (before, his
 * wiped hers and her Build Up was refused). */
START_TEST(each_pusher_keeps_its_own_agenda)
{
    fixture f;
    social_setup(&f);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    ACT_OK(&f, "p1", "e1", "agenda", "{\"target\":\"e3\",\"text\":\"the key\"}");
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p2", "e2", "read_room", "{\"target\":\"e3\"}");
    ACT_OK(&f, "p2", "e2", "agenda", "{\"target\":\"e3\",\"text\":\"the car\"}");
    json_t *mine = json_object_get(knows(&f, "p1", "e3"), "agendas");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(mine, "e1"), "text")),
                     "the key");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(mine, "e2"), "text")),
                     "the car");
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    /* round 2: Ann builds up on her own agenda: Vera 1+2, Ann 6+6 */
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"convince\"}");
    ck_assert_str_eq(emotion_of(&f, "e3"), "Engaged");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 5: 000:259 "The emotional state is set and cannot be altered until another
 * character attempts a Build Up": Ann cannot Build Up again on the state she set (before, she
 * could), until she presents as someone else (a disguise makes another character of her). */
START_TEST(a_state_stays_until_another_builds_up)
{
    fixture f;
    social_setup(&f);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "read_room", "{\"target\":\"e3\"}");
    ACT_OK(&f, "p1", "e1", "agenda", "{\"target\":\"e3\",\"text\":\"the key\"}");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"convince\"}");
    ck_assert_str_eq(emotion_of(&f, "e3"), "Engaged");
    ACT_OK(&f, "gm", "e2", "wait", NULL);
    ACT_OK(&f, "gm", "e3", "wait", NULL);
    refused(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"intimidate\"}", TB_RULE,
            "until another character attempts a Build Up");
    ACT_OK(&f, "gm", NULL, "identity", "{\"target\":\"e1\",\"presented\":\"a police officer\"}");
    DICE(&f, 1, 2, 6, 6, 1);
    ACT_OK(&f, "p1", "e1", "build_up", "{\"target\":\"e3\",\"skill\":\"intimidate\"}");
    ck_assert_str_eq(emotion_of(&f, "e3"), "Fearful");
    fx_free(&f);
}
END_TEST

/* ---- Chases (000:139-171) ---- */

/* Runner (crew, p1): Muscle 2, Athletics 1, Fingers 2, Driving 1. Cop (police, NPC): Muscle 3,
 * Fingers 2, Driving 2. */
#define RUNNER                                                                                     \
    "{\"abilities\":{\"muscle\":2,\"fingers\":2,\"brains\":2,\"it\":2},"                           \
    "\"skills\":{\"athletics\":1,\"driving\":1}}"
#define COP                                                                                        \
    "{\"abilities\":{\"muscle\":3,\"fingers\":2,\"brains\":2,\"it\":2},\"skills\":{\"driving\":2}" \
    "}"

/* A foot chase at the given Distance: Runner's slot 11 (Cover 6), Cop's slot 7 (Cover 5). */
static void chase(fixture *f, const char *options)
{
    fx_start(f, "cot.chase", options);
    /* Runner: initiative Muscle+Athletics 3k2 = 11; Cover Muscle+Resist 2k2 = 6 (000:146) */
    DICE(f, 6, 5, 1, 3, 3);
    fx_add(f, "e1", "Runner", "crew", "p1", 0, RUNNER);
    /* Cop: initiative 3k3 = 7; Cover 3k3 = 5 */
    DICE(f, 4, 2, 1, 2, 2, 1);
    fx_add(f, "e2", "Cop", "police", "gm", 1, COP);
    ACT_OK(f, "gm", NULL, "begin", NULL);
}

static int dist_of(fixture *f, const char *cid)
{
    return (int)json_integer_value(json_object_get(comb(f, cid), "distance"));
}

START_TEST(chase_accelerate_close_and_escape)
{
    fixture f;
    chase(&f, "{\"target_side\":\"crew\",\"distance\":2}");
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "pool")), "Muscle+Athletics");
    ck_assert_int_eq(dist_of(&f, "e2"), 2); /* the GM's initial Distance (000:146) */
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "distance"));
    /* the Target's actions are not a Pursuer's, and the other way round */
    refused(&f, "p1", "e1", "takedown", "{\"target\":\"e2\"}", TB_RULE,
            "only a Pursuer may make a Takedown");
    refused(&f, "p1", "e1", "close", "{\"target\":\"e2\"}", TB_RULE, "only a Pursuer may Close");
    /* Distance 2 is short of the fastest Pursuer's Velocity (Muscle 3): 000:157 */
    refused(&f, "p1", "e1", "escape", NULL, TB_RULE,
            "the nearest Pursuer is at Distance 2: escaping needs Distance 3");
    /* melee needs Distance 0 (000:151) */
    refused(&f, "p1", "e1", "attack", "{\"target\":\"e2\"}", TB_RULE,
            "Cop is at Distance 2: a melee attack needs Distance 0");
    /* Accelerate: the Cop opposes first (3k3 = 5), Runner 3k2 = 7 beats it: Distance 3 */
    DICE(&f, 2, 2, 1, 4, 3, 1);
    ACT_OK(&f, "p1", "e1", "accelerate", NULL);
    ck_assert_int_eq(dist_of(&f, "e2"), 3);
    json_t *x = last_log(&f, "accelerate");
    ck_assert_str_eq(log_text(x), "Runner takes slot 11 and accelerates away from Cop: Muscle+"
                                  "Athletics 3k2 → 4 3 [1] = 7: success");
    /* the NPC's total (the difficulty it set) is the GM's */
    ck_assert_ptr_null(json_object_get(json_object_get(x, "result"), "difficulty"));
    ck_assert_int_eq(result_int(last_gm_log(&f, "accelerate"), "difficulty"), 5);
    ck_assert_ptr_null(last_log(&f, "oppose"));
    /* Cop's slot: Close; Runner opposes with 12, the Cop's 4 fails: Distance stays 3 */
    DICE(&f, 6, 6, 1, 2, 1, 1);
    ACT_OK(&f, "gm", "e2", "close", "{\"target\":\"e1\"}");
    ck_assert_int_eq(dist_of(&f, "e2"), 3);
    ck_assert_str_eq(log_text(last_log(&f, "close")), "Cop takes slot 7 and closes on Runner: "
                                                      "failure");
    /* round 2: Distance 3 = the Cop's Velocity; Runner escapes without a roll */
    ck_assert_int_eq(round_no(&f), 2);
    ACT_OK(&f, "p1", "e1", "escape", NULL);
    ck_assert_str_eq(out_of(&f, "e1"), "escaped");
    ck_assert_str_eq(log_text(last_log(&f, "escape")),
                     "Runner takes slot 11 and the crew escape: the chase is theirs");
    fx_free(&f);
}
END_TEST

START_TEST(chase_takedown_fails_by_two_then_catches)
{
    fixture f;
    chase(&f, "{\"target_side\":\"crew\",\"distance\":0}");
    /* Shake into a crowd: cramped, no roll (000:155) */
    ACT_OK(&f, "p1", "e1", "shake", "{\"how\":\"crowd\"}");
    ck_assert(json_is_true(json_object_get(f.enc, "cramped")));
    refused(&f, "gm", "e2", "takedown", "{\"target\":\"e2\"}", TB_BAD_REQUEST,
            "cannot target themselves");
    /* Takedown: Runner 11 against the Cop's 9: failed, Distance 0 + 2 (000:161) */
    DICE(&f, 6, 5, 1, 3, 3, 3);
    ACT_OK(&f, "gm", "e2", "takedown", "{\"target\":\"e1\"}");
    ck_assert_int_eq(dist_of(&f, "e2"), 2);
    ck_assert_ptr_null(out_of(&f, "e1"));
    /* round 2: Runner passes; the Cop is at Distance 2 */
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    refused(&f, "gm", "e2", "takedown", "{\"target\":\"e1\"}", TB_RULE,
            "Cop is at Distance 2: a Takedown needs Distance 0");
    refused(&f, "gm", "e2", "shake", NULL, TB_RULE, "only the Target may Shake");
    /* Close: Runner 5, the Cop 6: Distance 1 (000:169) */
    DICE(&f, 3, 2, 1, 2, 2, 2);
    ACT_OK(&f, "gm", "e2", "close", "{\"target\":\"e1\"}");
    ck_assert_int_eq(dist_of(&f, "e2"), 1);
    fx_free(&f);
}
END_TEST

START_TEST(chase_obstacle_moves_each_pursuer)
{
    fixture f;
    chase(&f, "{\"target_side\":\"crew\",\"distance\":1}");
    refused(&f, "p1", "e1", "shake", "{\"how\":\"obstacle\"}", TB_BAD_REQUEST,
            "an obstacle needs the difficulty");
    refused(&f, "p1", "e1", "shake", "{\"how\":\"dislodge\",\"target\":\"e2\"}", TB_RULE,
            "only a Pursuer who Boarded can be dislodged");
    /* obstacle 8: Runner 9 clears it (+1), the Cop's 5 does not (+1 more): Distance 3 */
    DICE(&f, 5, 4, 1, 2, 2, 1);
    ACT_OK(&f, "p1", "e1", "shake", "{\"how\":\"obstacle\",\"difficulty\":8}");
    ck_assert_int_eq(dist_of(&f, "e2"), 3);
    ck_assert_str_eq(log_text(last_log(&f, "obstacle")),
                     "Cop tackles the obstacle: held up; Distance 3");
    ck_assert_int_eq(result_int(last_gm_log(&f, "obstacle"), "total"), 5);
    fx_free(&f);
}
END_TEST

/* A vehicle chase: the van (Runner drives, Mack rides) and the Cop's cruiser. */
START_TEST(chase_vehicle_passengers_and_body)
{
    fixture f;
    fx_start(&f, "cot.chase",
             "{\"target_side\":\"crew\",\"distance\":0,\"stage\":\"vehicle_chase\"}");
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "pool")), "Fingers+Driving");
    /* Runner: initiative Fingers+Driving 3k2 = 11; Cover 6 */
    DICE(&f, 6, 5, 1, 3, 3);
    fx_add(&f, "e1", "Runner", "crew", "p1", 0, RUNNER);
    /* Cop: Fingers+Driving 4k2 = 7; Cover 5 */
    DICE(&f, 4, 3, 1, 1, 2, 2, 1);
    fx_add(&f, "e2", "Cop", "police", "gm", 1, COP);
    /* Mack (crew, p2): 3k2 = 3; Cover 2 */
    DICE(&f, 2, 1, 1, 1, 1);
    fx_add(&f, "e3", "Mack", "crew", "p2", 0, RUNNER);
    ACT_OK(&f, "gm", NULL, "vehicle",
           "{\"target\":\"e1\",\"vehicle\":\"van\",\"driver\":1,\"speed\":2,\"body\":10}");
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e3\",\"vehicle\":\"van\"}");
    ACT_OK(&f, "gm", NULL, "vehicle",
           "{\"target\":\"e2\",\"vehicle\":\"cruiser\",\"driver\":1,\"speed\":3,\"body\":12,"
           "\"ram_bonus\":2}");
    refused(&f, "p1", "e1", "vehicle", "{\"target\":\"e1\",\"vehicle\":\"bike\"}", TB_FORBIDDEN,
            "");
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    /* slot 11 (crew): Mack rides, he cannot Accelerate (000:153) */
    refused(&f, "p2", "e3", "accelerate", NULL, TB_RULE,
            "Mack is a passenger: in a vehicle only the driver may Accelerate");
    /* Runner hits the cruiser with bare hands at Distance 0: Muscle 2 + Hand to Hand 0 = 2k2 = 3
     * against its Body 12: Body 12 - 1 = 11 (000:151, 000:134) */
    DICE(&f, 2, 1);
    ACT_OK(&f, "p1", "e1", "attack", "{\"target\":\"e2\",\"at_vehicle\":1}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "body", -1), 11);
    ck_assert_str_eq(log_text(last_log(&f, "attack")),
                     "Runner takes slot 11 and attacks the vehicle of Cop: 2k2 → 2 1 = 3: "
                     "the vehicle loses Body");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 1: a passenger's Distance is its vehicle's (000:147, 000:153, 000:169): the
 * Cop's successful Close brings his Deputy along (before, she stayed at 2 and could not Board or
 * Take down; one left behind could not let the van Escape). */
START_TEST(a_passenger_is_where_its_vehicle_is)
{
    fixture f;
    fx_start(&f, "cot.chase",
             "{\"target_side\":\"crew\",\"distance\":2,\"stage\":\"vehicle_chase\"}");
    DICE(&f, 6, 5, 1, 3, 3); /* Runner: Fingers+Driving 3k2 = 11; Cover 6 */
    fx_add(&f, "e1", "Runner", "crew", "p1", 0, RUNNER);
    DICE(&f, 4, 3, 1, 1, 2, 2, 1); /* Cop: 4k2 = 7; Cover 5 */
    fx_add(&f, "e2", "Cop", "police", "gm", 1, COP);
    DICE(&f, 2, 1, 1, 1, 1, 1, 1); /* Deputy: 4k2 = 3; Cover 3 */
    fx_add(&f, "e3", "Deputy", "police", "gm", 1, COP);
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e1\",\"vehicle\":\"van\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e3\",\"vehicle\":\"cruiser\"}");
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e2\",\"vehicle\":\"cruiser\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    /* the Cop closes: the van's Fingers+Driving 3k2 = 2 against his 4k2 = 12: Distance 1 */
    DICE(&f, 1, 1, 1, 6, 6, 1, 1);
    ACT_OK(&f, "gm", "e2", "close", "{\"target\":\"e1\"}");
    ck_assert_int_eq(dist_of(&f, "e2"), 1);
    ck_assert_int_eq(dist_of(&f, "e3"), 1); /* the Deputy rides along */
    refused(&f, "gm", "e3", "takedown", "{\"target\":\"e1\"}", TB_RULE,
            "Deputy is at Distance 1: a Takedown needs Distance 0");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 2: the Target may not Ram (000:159-167 list it among the Pursuers' actions);
 * refused before any die (before, the van's driver rammed the cruiser). */
START_TEST(only_a_pursuer_rams)
{
    fixture f;
    fx_start(&f, "cot.chase",
             "{\"target_side\":\"crew\",\"distance\":0,\"stage\":\"vehicle_chase\"}");
    DICE(&f, 6, 5, 1, 3, 3);
    fx_add(&f, "e1", "Runner", "crew", "p1", 0, RUNNER);
    DICE(&f, 4, 3, 1, 1, 2, 2, 1);
    fx_add(&f, "e2", "Cop", "police", "gm", 1, COP);
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e1\",\"vehicle\":\"van\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e2\",\"vehicle\":\"cruiser\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    refused(&f, "p1", "e1", "ram", "{\"target\":\"e2\"}", TB_RULE, "only a Pursuer may Ram");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 7: 000:169 "On a successful roll, the Pursuer may also attempt a Takedown or
 * Ram" — in the same turn; 000:161 a Takedown on foot may be followed at once by a hold. Before,
 * the Close ended the turn (the Takedown waited a round) and the caught Target could not be
 * held. */
START_TEST(a_close_goes_on_into_a_takedown_and_a_hold)
{
    fixture f;
    chase(&f, "{\"target_side\":\"crew\",\"distance\":1}");
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    refused(&f, "gm", "e2", "hold", "{\"target\":\"e1\"}", TB_RULE, "successful Takedown");
    /* the Cop closes: Runner 3k2 = 2 against his 3k3 = 18: Distance 0, and his turn goes on */
    DICE(&f, 1, 1, 1, 6, 6, 6);
    ACT_OK(&f, "gm", "e2", "close", "{\"target\":\"e1\"}");
    ck_assert_int_eq(dist_of(&f, "e2"), 0);
    refused(&f, "gm", "e2", "roll", "{\"skill\":\"athletics\"}", TB_RULE,
            "goes on only with a Takedown or a Ram");
    /* the Takedown at once: 2 against 18: the crew are caught (000:161) */
    DICE(&f, 1, 1, 1, 6, 6, 6);
    ACT_OK(&f, "gm", "e2", "takedown", "{\"target\":\"e1\"}");
    ck_assert_str_eq(out_of(&f, "e1"), "caught");
    ck_assert_int_eq(round_no(&f), 1);
    /* on foot: the hold, at once */
    NO_DICE(&f);
    ACT_OK(&f, "gm", "e2", "hold", "{\"target\":\"e1\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e1", "restrained"));
    ck_assert_str_eq(log_text(last_log(&f, "hold")), "Cop holds Runner");
    ck_assert_ptr_null(json_object_get(f.enc, "follow_up"));
    fx_free(&f);
}
END_TEST

/* Issue 25 item 7: 000:161 "If the Pursuer is in a Vehicle and successfully performs a Takedown,
 * the Target is subject to an immediate Ram attack" (before, the caught Target was out and the
 * Ram refused). */
START_TEST(a_takedown_in_a_vehicle_goes_on_into_a_ram)
{
    fixture f;
    fx_start(&f, "cot.chase",
             "{\"target_side\":\"crew\",\"distance\":0,\"stage\":\"vehicle_chase\"}");
    DICE(&f, 6, 5, 1, 3, 3);
    fx_add(&f, "e1", "Runner", "crew", "p1", 0, RUNNER);
    DICE(&f, 4, 3, 1, 1, 2, 2, 1);
    fx_add(&f, "e2", "Cop", "police", "gm", 1, COP);
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e1\",\"vehicle\":\"van\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "vehicle",
           "{\"target\":\"e2\",\"vehicle\":\"cruiser\",\"driver\":1,\"ram_bonus\":1}");
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    /* the Cop's Takedown: the van's Fingers+Driving 3k2 = 2 against his 4k2 = 12: caught */
    DICE(&f, 1, 1, 1, 6, 6, 1, 1);
    ACT_OK(&f, "gm", "e2", "takedown", "{\"target\":\"e1\"}");
    ck_assert_str_eq(out_of(&f, "e1"), "caught");
    refused(&f, "gm", "e2", "hold", "{\"target\":\"e1\"}", TB_RULE, "successful Takedown");
    /* the Ram at once: Fingers 2 + Driving 2 + 1 = 5k2 = 12 against Runner's Cover 6: Cover 0,
     * Wounded (000:134-135) */
    DICE(&f, 6, 6, 1, 1, 1);
    ACT_OK(&f, "gm", "e2", "ram", "{\"target\":\"e1\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e1", "wounded"));
    fx_free(&f);
}
END_TEST

START_TEST(chase_speed_closes_on_muscles_to_zero_and_rams)
{
    fixture f;
    chase(&f, "{\"target_side\":\"crew\",\"distance\":4}");
    ACT_OK(&f, "gm", NULL, "vehicle",
           "{\"target\":\"e2\",\"vehicle\":\"cruiser\",\"driver\":1,\"speed\":3,\"body\":12,"
           "\"ram_bonus\":2}");
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    refused(&f, "gm", "e2", "board", "{\"target\":\"e1\"}", TB_RULE,
            "Board is only for a Pursuer in a vehicle against a Target in a vehicle");
    refused(&f, "gm", "e2", "ram", "{\"target\":\"e1\"}", TB_RULE,
            "Cop is at Distance 4: a Ram needs Distance 0");
    /* Speed against Muscles: Close brings the Distance to 0, no roll (000:169) */
    ACT_OK(&f, "gm", "e2", "close", "{\"target\":\"e1\"}");
    ck_assert_int_eq(dist_of(&f, "e2"), 0);
    ck_assert_str_eq(log_text(last_log(&f, "close")),
                     "Cop takes slot 7 and runs Runner down at Speed: Distance 0");
    /* round 2 */
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    /* Ram: Fingers 2 + Driving 2 + 2 (the cruiser) = 6k2 = 11 exceeds Cover 6 by 5: Cover 1 */
    DICE(&f, 6, 5, 1, 1, 1, 1);
    ACT_OK(&f, "gm", "e2", "ram", "{\"target\":\"e1\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "cover", -1), 1);
    ck_assert_str_eq(log_text(last_log(&f, "ram")), "Cop takes slot 7 and rams Runner: Runner "
                                                    "loses Cover");
    /* round 3: the Cop gives up */
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    ACT_OK(&f, "gm", "e2", "fall_off", NULL);
    ck_assert_str_eq(out_of(&f, "e2"), "fell off");
    fx_free(&f);
}
END_TEST

START_TEST(chase_board_and_dislodge)
{
    fixture f;
    fx_start(&f, "cot.chase",
             "{\"target_side\":\"crew\",\"distance\":0,\"stage\":\"vehicle_chase\"}");
    DICE(&f, 6, 5, 1, 3, 3);
    fx_add(&f, "e1", "Runner", "crew", "p1", 0, RUNNER);
    DICE(&f, 4, 3, 1, 1, 2, 2, 1);
    fx_add(&f, "e2", "Cop", "police", "gm", 1, COP);
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e1\",\"vehicle\":\"van\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "vehicle", "{\"target\":\"e2\",\"vehicle\":\"cruiser\",\"driver\":1}");
    ACT_OK(&f, "gm", NULL, "begin", NULL);
    ACT_OK(&f, "p1", "e1", "wait", NULL);
    /* Board: Runner's Fingers+Driving 3k2 = 4, the Cop's Muscle+Athletics 3k3 = 6: on board */
    DICE(&f, 2, 2, 1, 2, 2, 2);
    ACT_OK(&f, "gm", "e2", "board", "{\"target\":\"e1\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e2", "boarded"));
    ck_assert_str_eq(log_text(last_log(&f, "board")),
                     "Cop takes slot 7 and jumps for Runner's vehicle: on board");
    /* round 2: Runner swerves: the Cop holds with 3k3 = 6, Runner's 3k2 = 11: thrown off */
    DICE(&f, 2, 2, 2, 6, 5, 1);
    ACT_OK(&f, "p1", "e1", "shake", "{\"how\":\"dislodge\",\"target\":\"e2\"}");
    ck_assert_str_eq(out_of(&f, "e2"), "thrown off");
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "boarded"));
    fx_free(&f);
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
    tcase_add_test(drop, a_failed_drop_on_a_lone_target_alerts_only_the_target);
    tcase_add_test(drop, murder_on_a_wounded_target_kills);
    tcase_add_test(drop, the_target_of_a_drop_chooses_flee_help_or_square_up);
    tcase_add_test(drop, heist_zones_stay_hidden_until_the_crew_discovers_them);
    tcase_add_test(drop, research_foresight_and_schemes);
    tcase_add_test(drop, training_adds_the_dice_it_pays_for);
    tcase_add_test(drop, the_marks_connections_are_the_gms);
    tcase_add_test(drop, a_climb_out_of_a_crowd_alarms_its_guards);
    tcase_add_test(drop, a_heist_moves_on_the_campaign_clock);
    tcase_add_test(drop, a_barrier_between_known_zones_is_shown_when_prepared);
    tcase_add_test(drop, a_player_is_offered_the_answer_to_a_drop);
    suite_add_tcase(s, drop);
    TCase *war = tcase_create("warfare");
    tcase_add_test(war, cover_is_rolled_on_joining_public_for_pcs_hidden_for_npcs);
    tcase_add_test(war, attacks_lower_cover_to_wounded_then_dead);
    tcase_add_test(war, restrain_needs_hand_to_hand_and_flee_takes_two_actions);
    tcase_add_test(war, a_wounded_pc_dies_and_the_sheet_learns_wounds);
    tcase_add_test(war, name_only_npcs_roll_a_new_sheets_numbers);
    tcase_add_test(war, a_name_only_npc_attacks_with_a_pick_of_skills);
    tcase_add_test(war, lean_onto_my_loyalty_in_a_fight);
    tcase_add_test(war, foresight_trains_an_action_in_a_fight);
    suite_add_tcase(s, war);
    TCase *social = tcase_create("social");
    tcase_add_test(social, read_room_knowledge_lands_with_the_seat_that_learned_it);
    tcase_add_test(social, lean_into_the_married_woman_and_the_german);
    tcase_add_test(social, build_up_and_follow_through_move_the_emotional_state);
    tcase_add_test(social, one_loyalty_altered_per_call_and_knowledge_ends_with_the_call);
    tcase_add_test(social, a_player_alters_the_loyalty_an_achieved_agenda_alters);
    tcase_add_test(social, the_prime_is_no_pick_of_alter_nor_of_an_agenda_that_alters);
    tcase_add_test(social, identity_and_impedes_refusals_change_nothing);
    tcase_add_test(social, each_pusher_keeps_its_own_agenda);
    tcase_add_test(social, a_state_stays_until_another_builds_up);
    suite_add_tcase(s, social);
    TCase *ch = tcase_create("chase");
    tcase_add_test(ch, chase_accelerate_close_and_escape);
    tcase_add_test(ch, chase_takedown_fails_by_two_then_catches);
    tcase_add_test(ch, chase_obstacle_moves_each_pursuer);
    tcase_add_test(ch, chase_vehicle_passengers_and_body);
    tcase_add_test(ch, chase_speed_closes_on_muscles_to_zero_and_rams);
    tcase_add_test(ch, chase_board_and_dislodge);
    tcase_add_test(ch, a_passenger_is_where_its_vehicle_is);
    tcase_add_test(ch, only_a_pursuer_rams);
    tcase_add_test(ch, a_close_goes_on_into_a_takedown_and_a_hold);
    tcase_add_test(ch, a_takedown_in_a_vehicle_goes_on_into_a_ram);
    suite_add_tcase(s, ch);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
