/* The FIVEY social-encounter module fivey.social (rules/fivey/social.c), driven directly with a
 * scripted RNG: the initial reaction (004:649-656), kept GM-only until the reveal; the one
 * request (004:658-662) for every disposition, kind and outcome; morale in the same scene
 * (004:670); and every refusal, each drawing no die and changing nothing. Rulebook
 * 004_110cc4af3ff93059.txt, cited 004:LINE. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"
#include "rules_util.h"

typedef efx fixture;

static const rules_module *mod(void)
{
    const rules_module *m = rules_module_find("fivey.social");
    ck_assert_ptr_nonnull(m);
    return m;
}

/* The next dice, exactly these faces. */
#define DICE(f, ...) EFX_DICE(f, __VA_ARGS__)

static void fx_dice(fixture *f, const int *faces, size_t n)
{
    efx_dice(f, faces, n);
}

/* No die may be drawn: a draw exhausts the empty script (assert_no_die). */
static void fx_no_dice(fixture *f)
{
    fx_dice(f, NULL, 0);
}

static void assert_used_up(fixture *f)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "the step asked for more dice than scripted");
}

static void fx_init(fixture *f)
{
    efx_init(f, "fivey.social");
}

static void fx_free(fixture *f)
{
    efx_free(f);
}

/* Adds a combatant as op_enc_add does (sheet_stats copied, then the join hook). */
static void fx_add(fixture *f, const char *name, const char *seat, int npc, const char *sample)
{
    json_t *c = efx_combatant(f, NULL, name, npc ? "villagers" : "party", seat, npc);
    json_t *sheet = sample ? ru_load_sample("fivey", sample) : NULL;
    efx_join(f, efx_cid(c), sheet);
    json_decref(sheet);
}

/* Runs action `name` as `seat` for actor with params (a JSON text) as the server runs it
 * (rules_enc_act); 0 or the tb_code. */
static int fx_act(fixture *f, const char *seat, const char *actor, const char *name,
                  const char *params)
{
    return efx_act(f, seat, actor, name, params);
}

static const char *str_at(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static json_t *last(json_t *log)
{
    return json_array_get(log, json_array_size(log) - 1);
}

/* Vesper (e1, p1: CHA 4, Deception, 2 inspiration dice), Brunhild (e2, p2: CHA 1), and two
 * commoners (e3, e4: quick NPCs, 1 HD each, INT 1; 004:751). */
static void fx_scene(fixture *f)
{
    fx_add(f, "Vesper", "p1", 0, "vesper.json");
    fx_add(f, "Brunhild", "p2", 0, "brunhild.json");
    DICE(f, 3);
    fx_add(f, "Commoner", "gm", 1, NULL);
    DICE(f, 4);
    fx_add(f, "Commoner 2", "gm", 1, NULL);
    assert_used_up(f);
}

/* The GM's pick of disposition, Vesper as the talker and the terms. */
static void fx_ready(fixture *f, const char *disposition, const char *terms)
{
    char buf[96];
    snprintf(buf, sizeof buf, "{\"disposition\":\"%s\"}", disposition);
    fx_no_dice(f);
    ck_assert_int_eq(fx_act(f, "gm", NULL, "reaction", buf), 0);
    ck_assert_int_eq(fx_act(f, "gm", NULL, "talker", "{\"target\":\"e1\"}"), 0);
    ck_assert_int_eq(fx_act(f, "gm", NULL, "terms", terms), 0);
    assert_used_up(f);
}

/*
 * Asserts that the action is refused with code and a message holding needle, that it drew no
 * die, and that neither /enc nor /gm/enc changed (validate before you roll).
 */
static void assert_refused(fixture *f, const char *seat, const char *actor, const char *name,
                           const char *params, int code, const char *needle)
{
    json_t *enc = json_deep_copy(f->enc), *hid = json_deep_copy(f->hidden);
    size_t logs = json_array_size(f->e.log), gm_logs = json_array_size(f->e.gm_log);
    fx_no_dice(f);
    ck_assert_int_eq(fx_act(f, seat, actor, name, params), code);
    ck_assert_msg(strstr(f->err.msg, needle), "%s %s: got '%s', want '%s'", name,
                  params ? params : "", f->err.msg, needle);
    ck_assert_msg(!rules_rng_exhausted(f->rng), "%s refused but drew a die", name);
    ck_assert_msg(json_equal(enc, f->enc) && json_equal(hid, f->hidden),
                  "%s refused but changed "
                  "the state",
                  name);
    ck_assert_uint_eq(json_array_size(f->e.log), logs);
    ck_assert_uint_eq(json_array_size(f->e.gm_log), gm_logs);
    json_decref(enc);
    json_decref(hid);
}

START_TEST(describes_actions_and_who)
{
    const rules_module *m = mod();
    ck_assert_str_eq(m->system, "fivey");
    ck_assert_int_eq(rules_module_action(m, "reaction")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "reveal")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "talker")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "terms")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "request")->who, RULES_ENC_OWNER);
    ck_assert_int_eq(rules_module_action(m, "morale")->who, RULES_ENC_GM);
    for (const rules_enc_action *a = m->actions; a->name; a++)
        ck_assert_msg(a->cite && strncmp(a->cite, "004:", 4) == 0, "%s cites the rulebook",
                      a->name);
    const rules_system *s = rules_system_find("fivey");
    ck_assert_str_eq(s->modules[1]->id, "fivey.social");
}
END_TEST

/* 004:653-656 with 004:649's advantage and disadvantage: the table, GM-only. */
START_TEST(reaction_table_is_rolled_for_the_gm_only)
{
    static const struct {
        int faces[2];
        const char *params;
        const char *want;
        int natural;
    } rows[] = {
        {{1, 0}, "{}", "hostile", 1},
        {{6, 0}, "{}", "hostile", 6},
        {{7, 0}, "{}", "uncertain", 7},
        {{14, 0}, "{}", "uncertain", 14},
        {{15, 0}, "{}", "friendly", 15},
        {{20, 0}, "{}", "friendly", 20},
        {{5, 15}, "{\"adv\":1}", "friendly", 15},
        {{5, 15}, "{\"dis\":1}", "hostile", 5},
        {{14, 7}, "{\"dis\":1}", "uncertain", 7},
    };
    for (size_t i = 0; i < N_ELEMS(rows); i++) {
        fixture f;
        fx_init(&f);
        fx_scene(&f);
        fx_dice(&f, rows[i].faces, rows[i].faces[1] ? 2 : 1);
        ck_assert_int_eq(fx_act(&f, "gm", NULL, "reaction", rows[i].params), 0);
        assert_used_up(&f);
        ck_assert_str_eq(str_at(f.hidden, "disposition"), rows[i].want);
        ck_assert_int_eq(ru_ival(json_object_get(f.hidden, "reaction"), "natural"),
                         rows[i].natural);
        /* what the disposition will and won't do: the GM's text */
        ck_assert_ptr_nonnull(strstr(str_at(f.hidden, "will"), rows[i].want + 1));
        /* the table knows the GM rolled, not what */
        ck_assert(json_is_true(json_object_get(f.enc, "reacted")));
        ck_assert_ptr_null(json_object_get(f.enc, "disposition"));
        json_t *pub = last(f.e.log), *gm = last(f.e.gm_log);
        ck_assert_ptr_null(strstr(str_at(pub, "text"), rows[i].want));
        ck_assert_ptr_null(json_object_get(pub, "dice"));
        ck_assert_ptr_nonnull(strstr(str_at(gm, "text"), rows[i].want + 1));
        ck_assert_str_eq(str_at(json_object_get(gm, "result"), "disposition"), rows[i].want);
        ck_assert_uint_eq(json_array_size(json_object_get(gm, "dice")), rows[i].faces[1] ? 2 : 1);
        fx_free(&f);
    }
}
END_TEST

START_TEST(reveal_makes_the_disposition_public)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    assert_refused(&f, "gm", NULL, "reveal", NULL, TB_RULE, "no reaction to reveal");
    DICE(&f, 16);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "reaction", NULL), 0);
    /* rolled once per encounter; the GM's own pick may still correct it */
    assert_refused(&f, "gm", NULL, "reaction", NULL, TB_RULE, "rolled already");
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "reveal", NULL), 0);
    ck_assert_str_eq(str_at(f.enc, "disposition"), "friendly");
    ck_assert_ptr_nonnull(strstr(str_at(last(f.e.log), "text"), "friendly"));
    assert_refused(&f, "gm", NULL, "reveal", NULL, TB_RULE, "revealed already");
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "reaction", "{\"disposition\":\"uncertain\"}"), 0);
    assert_used_up(&f);
    ck_assert_str_eq(str_at(f.hidden, "disposition"), "uncertain");
    ck_assert_str_eq(str_at(f.enc, "disposition"), "uncertain");
    ck_assert_ptr_nonnull(strstr(str_at(f.hidden, "will"), "never put themselves in danger"));
    fx_free(&f);
}
END_TEST

/* 004:658 what each disposition grants, 004:660 the charisma check: every disposition, every
 * kind of request, a success and a failure. Vesper: CHA 4, DC 14: a 10 succeeds, a 9 fails. */
START_TEST(request_outcome_for_every_disposition_and_ask)
{
    static const struct {
        const char *disp, *ask;
        int face, success, granted;
    } rows[] = {
        {"hostile", "spare", 10, 1, 1},    {"hostile", "spare", 9, 0, 0},
        {"hostile", "help", 10, 1, 0},     {"hostile", "help", 9, 0, 0},
        {"hostile", "danger", 20, 1, 0},   {"hostile", "danger", 9, 0, 0},
        {"uncertain", "spare", 10, 1, 1},  {"uncertain", "spare", 1, 0, 1},
        {"uncertain", "help", 10, 1, 1},   {"uncertain", "help", 9, 0, 0},
        {"uncertain", "danger", 20, 1, 0}, {"uncertain", "danger", 9, 0, 0},
        {"friendly", "spare", 10, 1, 1},   {"friendly", "spare", 1, 0, 1},
        {"friendly", "help", 10, 1, 1},    {"friendly", "help", 1, 0, 1},
        {"friendly", "danger", 10, 1, 1},  {"friendly", "danger", 9, 0, 0},
    };
    for (size_t i = 0; i < N_ELEMS(rows); i++) {
        fixture f;
        fx_init(&f);
        fx_scene(&f);
        char terms[64];
        snprintf(terms, sizeof terms, "{\"ask\":\"%s\"}", rows[i].ask);
        fx_ready(&f, rows[i].disp, terms);
        fx_dice(&f, &rows[i].face, 1);
        ck_assert_int_eq(fx_act(&f, "p1", "e1", "request", "{\"what\":\"Let us pass\"}"), 0);
        assert_used_up(&f);
        json_t *req = json_object_get(f.enc, "request");
        ck_assert_int_eq(ru_ival(req, "total"), rows[i].face + 4);
        ck_assert_int_eq(ru_ival(req, "dc"), 14);
        ck_assert_msg(ru_bval(req, "success") == rows[i].success, "row %zu success", i);
        ck_assert_msg(ru_bval(req, "granted") == rows[i].granted, "row %zu: %s %s", i, rows[i].disp,
                      rows[i].ask);
        /* the table sees the roll and the answer; why is the GM's */
        json_t *pub = last(f.e.log);
        ck_assert_int_eq(ru_bval(json_object_get(pub, "result"), "granted"), rows[i].granted);
        ck_assert_ptr_null(strstr(str_at(pub, "text"), rows[i].disp));
        ck_assert_ptr_null(json_object_get(json_object_get(pub, "result"), "disposition"));
        ck_assert_ptr_nonnull(strstr(str_at(last(f.e.gm_log), "text"), rows[i].disp));
        /* one request per encounter (004:660) */
        assert_refused(&f, "p1", "e1", "request", "{\"what\":\"And gold\"}", TB_RULE,
                       "one request");
        fx_free(&f);
    }
}
END_TEST

/* 004:120 a relevant skill doubles charisma; 004:662 the conversation's edge; 004:660 a
 * difficult request; 004:146 an inspiration die. */
START_TEST(request_with_skill_edge_difficulty_and_inspiration)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    fx_ready(&f, "uncertain", "{\"ask\":\"help\", \"hard\":1, \"adv\":1}");
    json_t *terms = json_object_get(f.enc, "terms");
    ck_assert_int_eq(ru_ival(terms, "dc"), 16);
    ck_assert_str_eq(str_at(terms, "edge"), "adv");
    DICE(&f, 3, 7, 2);
    ck_assert_int_eq(
        fx_act(&f, "p1", "e1", "request",
               "{\"what\":\"Hide us in the cellar\", \"skill\":\"Deception\", \"insp\":1}"),
        0);
    assert_used_up(&f);
    json_t *req = json_object_get(f.enc, "request");
    /* best of 3 and 7, +8 (4 doubled), +2 from the d6 = 17 vs 16 */
    ck_assert_int_eq(ru_ival(req, "natural"), 7);
    ck_assert_int_eq(ru_ival(req, "bonus"), 8);
    ck_assert_int_eq(ru_ival(req, "total"), 17);
    ck_assert(ru_bval(req, "granted"));
    ck_assert_str_eq(str_at(req, "skill"), "Deception");
    ck_assert_int_eq(ru_ival(rules_enc_stats(&f.e, "e1"), "inspiration"), 1);
    ck_assert_uint_eq(json_array_size(json_object_get(last(f.e.log), "dice")), 3);
    fx_free(&f);

    /* disadvantage keeps the worse d20; the GM's own DC */
    fx_init(&f);
    fx_scene(&f);
    fx_ready(&f, "friendly", "{\"ask\":\"danger\", \"dc\":12, \"dis\":1}");
    DICE(&f, 18, 7);
    ck_assert_int_eq(fx_act(&f, "p1", "e1", "request", "{\"what\":\"Fight beside us\"}"), 0);
    req = json_object_get(f.enc, "request");
    ck_assert_int_eq(ru_ival(req, "total"), 11);
    ck_assert(!ru_bval(req, "granted"));
    fx_free(&f);
}
END_TEST

START_TEST(every_refusal_draws_no_die_and_changes_nothing)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    const char *ask = "{\"what\":\"Help us\"}";
    /* the reaction's own parameters */
    assert_refused(&f, "gm", NULL, "reaction", "{\"disposition\":\"angry\"}", TB_BAD_REQUEST,
                   "hostile, uncertain or friendly");
    assert_refused(&f, "gm", NULL, "reaction", "{\"adv\":1, \"dis\":1}", TB_BAD_REQUEST,
                   "exclusive");
    assert_refused(&f, "gm", NULL, "reaction", "{\"disposition\":\"friendly\", \"adv\":1}",
                   TB_BAD_REQUEST, "no advantage");
    /* a request before the GM decided the reaction */
    assert_refused(&f, "p1", "e1", "request", ask, TB_RULE, "first react");
    DICE(&f, 12);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "reaction", NULL), 0);
    assert_refused(&f, "p1", "e1", "request", ask, TB_RULE, "who drives the negotiation");
    /* only the party's own speaker */
    assert_refused(&f, "gm", NULL, "talker", "{\"target\":\"e3\"}", TB_RULE, "not of the party");
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "talker", "{\"target\":\"e1\"}"), 0);
    assert_refused(&f, "p2", "e2", "request", ask, TB_RULE, "Vesper drives the negotiation");
    assert_refused(&f, "p1", "e1", "request", ask, TB_RULE, "sets what the request asks");
    /* the terms' parameters */
    assert_refused(&f, "gm", NULL, "terms", "{\"ask\":\"gold\"}", TB_BAD_REQUEST, "'ask'");
    assert_refused(&f, "gm", NULL, "terms", "{\"ask\":\"help\", \"adv\":1, \"dis\":1}",
                   TB_BAD_REQUEST, "exclusive");
    assert_refused(&f, "gm", NULL, "terms", "{\"ask\":\"help\", \"dc\":31}", TB_BAD_REQUEST, "dc");
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "terms", "{\"ask\":\"help\"}"), 0);
    /* the request's own parameters */
    assert_refused(&f, "p1", "e1", "request", "{}", TB_BAD_REQUEST, "what");
    assert_refused(&f, "p1", "e1", "request", "{\"what\":\"Help\", \"skill\":\"Masonry\"}", TB_RULE,
                   "no skill 'Masonry'");
    rules_enc_stat_set(&f.e, "e1", "inspiration", 0);
    assert_refused(&f, "p1", "e1", "request", "{\"what\":\"Help\", \"insp\":1}", TB_RULE,
                   "no inspiration die");
    /* nobody left to ask: both commoners fled */
    rules_enc_set_out(&f.e, "e3", "fled");
    rules_enc_set_out(&f.e, "e4", "fled");
    assert_refused(&f, "p1", "e1", "request", ask, TB_RULE, "nobody is left");
    assert_refused(&f, "gm", NULL, "morale", NULL, TB_RULE, "nobody but the party");
    rules_enc_set_out(&f.e, "e3", NULL);
    /* after the one request: no second, no new speaker, no new terms */
    DICE(&f, 15);
    ck_assert_int_eq(fx_act(&f, "p1", "e1", "request", ask), 0);
    assert_refused(&f, "p1", "e1", "request", ask, TB_RULE, "one request");
    assert_refused(&f, "gm", NULL, "talker", "{\"target\":\"e2\"}", TB_RULE, "one request");
    assert_refused(&f, "gm", NULL, "terms", "{\"ask\":\"spare\"}", TB_RULE, "one request");
    assert_refused(&f, "gm", NULL, "morale", "{\"side\":\"party\"}", TB_RULE, "not the party");
    fx_free(&f);
}
END_TEST

/* 004:670 in the same scene: the other party checks, DC 14, then 16; failing, they flee, and
 * the party has nobody left to ask. */
START_TEST(morale_in_a_conversation)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    fx_ready(&f, "hostile", "{\"ask\":\"spare\"}");
    /* d20 13 + INT 1 = 14 vs DC 14: they keep order */
    DICE(&f, 13);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", NULL), 0);
    assert_used_up(&f);
    json_t *m = json_object_get(json_object_get(f.enc, "morale"), "villagers");
    ck_assert_int_eq(ru_ival(m, "checks"), 1);
    ck_assert(ru_bval(json_object_get(last(f.e.log), "result"), "hold"));
    ck_assert_int_eq(ru_ival(json_object_get(last(f.e.gm_log), "result"), "dc"), 14);
    /* the next is difficult: 14 + 1 = 15 vs 16: they flee */
    DICE(&f, 14);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", NULL), 0);
    ck_assert_int_eq(ru_ival(json_object_get(last(f.e.gm_log), "result"), "dc"), 16);
    ck_assert(rules_enc_is_out(&f.e, "e3") && rules_enc_is_out(&f.e, "e4"));
    assert_refused(&f, "p1", "e1", "request", "{\"what\":\"Wait!\"}", TB_RULE, "nobody is left");
    fx_free(&f);
}
END_TEST

/* enc.remove of the speaker (found by tests/fuzz/fuzz_enc): the state stays usable and nobody
 * speaks until the GM names another. */
START_TEST(a_removed_speaker_speaks_no_more)
{
    fixture f;
    fixture *fp = &f;
    fx_init(fp);
    fx_scene(fp);
    fx_ready(fp, "friendly", "{\"ask\":\"help\"}");
    json_object_del(json_object_get(f.enc, "combatants"), "e1");
    ck_assert_int_eq(mod()->check(&f.e, &f.err), 0);
    assert_refused(fp, "p2", "e2", "request", "{\"what\":\"Help\"}", TB_RULE,
                   "who drives the negotiation");
    ck_assert_int_eq(fx_act(fp, "gm", NULL, "talker", "{\"target\":\"e2\"}"), 0);
    DICE(fp, 12);
    ck_assert_int_eq(fx_act(fp, "p2", "e2", "request", "{\"what\":\"Help\"}"), 0);
    ck_assert(ru_bval(json_object_get(f.enc, "request"), "granted"));
    fx_free(fp);
}
END_TEST

START_TEST(a_damaged_state_is_named)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    ck_assert_int_eq(mod()->check(&f.e, &f.err), 0);
    json_object_set_new(f.hidden, "disposition", json_string("grumpy"));
    ck_assert_int_eq(mod()->check(&f.e, &f.err), TB_RULE);
    ck_assert_ptr_nonnull(strstr(f.err.msg, "disposition"));
    json_object_set_new(f.hidden, "disposition", json_string("hostile"));
    json_object_set_new(f.enc, "terms", json_pack("{s:i}", "dc", 14));
    ck_assert_int_eq(mod()->check(&f.e, &f.err), TB_RULE);
    ck_assert_ptr_nonnull(strstr(f.err.msg, "request terms"));
    fx_free(&f);
}
END_TEST

/* The choices the module offers for parameter `param` of action `name` (a new array). */
static json_t *choices_of(fixture *f, const char *name, const char *param, const char *actor,
                          int *kind)
{
    const rules_enc_action *a = rules_module_action(mod(), name);
    const rules_param *p = a->params;
    while (p->name && strcmp(p->name, param) != 0)
        p++;
    ck_assert_ptr_nonnull(p->name);
    json_t *out = json_array();
    *kind = mod()->choices(&f->e, actor, a, p, out);
    return out;
}

/* Issue 24: "Who speaks for the party" opened on the NPC, and the request's ask was free text
 * matched exactly ("Help" refused). The speakers offered are the party's standing members, a
 * player's character first, and the first passes the check; the asks are the three the rules
 * know, each passing as it is offered; the talker's skills are a pick too. */
START_TEST(the_speaker_and_the_ask_are_picks_that_pass)
{
    fixture f;
    fx_init(&f);
    json_t *c = efx_combatant(&f, NULL, "Hireling", "party", "gm", 1);
    DICE(&f, 3, 3); /* a grunt's 2 hit dice (004:742) */
    efx_join(&f, efx_cid(c), NULL);
    fx_add(&f, "Vesper", "p1", 0, "vesper.json");
    DICE(&f, 4, 4);
    fx_add(&f, "Mayor", "gm", 1, NULL);
    assert_used_up(&f);
    int kind;
    json_t *who = choices_of(&f, "talker", "target", NULL, &kind);
    ck_assert_int_eq(kind, RULES_CHOICES_PICK);
    ck_assert_uint_eq(json_array_size(who), 2); /* not the Mayor: not of the party */
    ck_assert_str_eq(str_at(json_array_get(who, 0), "value"), "e2");
    ck_assert_str_eq(str_at(json_array_get(who, 0), "label"), "Vesper");
    ck_assert_str_eq(str_at(json_array_get(who, 1), "value"), "e1");
    rules_args args;
    json_t *params = json_pack("{s:O}", "target", json_object_get(json_array_get(who, 0), "value"));
    f.e.seat = "gm";
    f.e.is_gm = 1;
    const rules_enc_action *talker = rules_module_action(mod(), "talker");
    ck_assert_int_eq(rules_enc_act_check(&f.e, talker, NULL, params, &args, &f.err), 0);
    json_decref(params);
    json_decref(who);

    json_t *asks = choices_of(&f, "terms", "ask", NULL, &kind);
    ck_assert_int_eq(kind, RULES_CHOICES_PICK);
    ck_assert_uint_eq(json_array_size(asks), 3);
    const char *want[] = {"help", "danger", "spare"};
    const rules_enc_action *terms = rules_module_action(mod(), "terms");
    for (size_t i = 0; i < 3; i++) {
        json_t *v = json_object_get(json_array_get(asks, i), "value");
        ck_assert_str_eq(json_string_value(v), want[i]);
        params = json_pack("{s:O}", "ask", v);
        ck_assert_int_eq(rules_enc_act_check(&f.e, terms, NULL, params, &args, &f.err), 0);
        json_decref(params);
    }
    ck_assert_str_eq(str_at(json_array_get(asks, 0), "label"), "Help (at no risk to them)");
    json_decref(asks);

    json_t *skills = choices_of(&f, "request", "skill", "e2", &kind);
    ck_assert_int_eq(kind, RULES_CHOICES_PICK);
    ck_assert(json_is_null(json_object_get(json_array_get(skills, 0), "value")));
    ck_assert_str_eq(str_at(json_array_get(skills, 1), "value"), "Deception");
    json_decref(skills);
    fx_free(&f);
}
END_TEST

/* Found by the moves' property (issue 23): a form sends every flag, adv and dis both false
 * among them; that is no edge, not two (the reaction and the terms were never offered as
 * moves). A morale check of a side nobody stands on is refused even with the GM's wisdom. */
START_TEST(both_edges_false_are_no_edge_and_morale_needs_someone)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    DICE(&f, 12);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "reaction", "{\"adv\":false,\"dis\":false}"), 0);
    assert_used_up(&f);
    fx_no_dice(&f);
    ck_assert_int_eq(
        fx_act(&f, "gm", NULL, "terms", "{\"ask\":\"help\",\"adv\":false,\"dis\":false}"), 0);
    assert_refused(&f, "gm", NULL, "morale", "{\"side\":\"bandits\",\"wis\":2}", TB_RULE,
                   "nobody of the bandits is left standing");
    f.e.seat = "gm";
    f.e.is_gm = 1;
    json_t *moves = rules_enc_moves(&f.e);
    int reaction = 0;
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m) reaction |= strcmp(str_at(m, "action"), "reaction") == 0;
    ck_assert_msg(reaction, "the GM's pick of the reaction is a move");
    json_decref(moves);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 21. 004:489 Charm in a conversation (reading 14): Sylla charms the first
 * commoner: d20 15 + INT 1 = 16 against 10 + CHA 1; charmed for 1d6 = 3 hours; a cast spent, no
 * ◆. What the charm does to the talk is the GM's. */
START_TEST(charm_in_a_conversation)
{
    fixture f;
    fx_init(&f);
    fx_scene(&f);
    fx_add(&f, "Sylla", "p3", 0, "sylla.json");
    DICE(&f, 15, 3);
    ck_assert_int_eq(fx_act(&f, "p3", "e5", "cast", "{\"spell\":\"Charm\",\"target\":\"e3\"}"), 0);
    assert_used_up(&f);
    ck_assert_str_eq(str_at(last(f.e.log), "text"),
                     "Sylla casts Charm on Commoner: charmed, friendly for 3 hours");
    json_t *c = rules_enc_cond(&f.e, "e3", "charmed");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(ru_ival(c, "hours"), 3);
    ck_assert_int_eq(ru_ival(json_object_get(rules_enc_stats(&f.e, "e5"), "spell_slots"), "used"),
                     1);
    assert_refused(&f, "p3", "e5", "cast", "{\"spell\":\"Charm\",\"target\":\"e4\"}", TB_RULE,
                   "no spell casts left");
    fx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_fivey_social");
    TCase *tc = tcase_create("module");
    tcase_add_test(tc, describes_actions_and_who);
    tcase_add_test(tc, reaction_table_is_rolled_for_the_gm_only);
    tcase_add_test(tc, reveal_makes_the_disposition_public);
    tcase_add_test(tc, request_outcome_for_every_disposition_and_ask);
    tcase_add_test(tc, request_with_skill_edge_difficulty_and_inspiration);
    tcase_add_test(tc, every_refusal_draws_no_die_and_changes_nothing);
    tcase_add_test(tc, morale_in_a_conversation);
    tcase_add_test(tc, a_removed_speaker_speaks_no_more);
    tcase_add_test(tc, a_damaged_state_is_named);
    tcase_add_test(tc, the_speaker_and_the_ask_are_picks_that_pass);
    tcase_add_test(tc, both_edges_false_are_no_edge_and_morale_needs_someone);
    tcase_add_test(tc, charm_in_a_conversation);
    suite_add_tcase(s, tc);
    int rc = ru_run_suite(s);
    return rc;
}
