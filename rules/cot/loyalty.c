/*
 * loyalty.c — what each side of City of Thieves' Social Call knows (cot.social, rules/cot/social.c;
 * cot_enc.h, "what each side knows"): identities, Loyalties and agendas learned, by seat, and
 * every combatant's Loyalties (000:224-271). The rulebook is 000_d2a475e9ec148dd1.txt, cited as
 * 000:LINE.
 */
#include "cot_enc.h"

#include <stdio.h>
#include <string.h>

/* The seat whose knowledge cid's learning is: its controller ("gm" for an NPC). */
const char *cot_seat_of(const rules_enc *e, const char *cid)
{
    const char *s = cot_str(rules_enc_combatant(e, cid), "seat");
    return rules_enc_is_npc(e, cid) || !s ? "gm" : s;
}

/* What `seat` knows about combatant `about`: a player's seat under /private/<seat>/social, the
 * GM's side under /gm/enc/known (also without a /private: a unit test without one); NULL when
 * nothing is known yet. */
json_t *cot_known_get(const rules_enc *e, const char *seat, const char *about)
{
    int player = strcmp(seat, "gm") != 0 && e->priv;
    json_t *root = player ? json_object_get(json_object_get(e->priv, seat), "social")
                          : json_object_get(e->hidden, "known");
    return json_object_get(root, about);
}

/* The same, created when missing. */
json_t *cot_known(rules_enc *e, const char *seat, const char *about)
{
    int player = strcmp(seat, "gm") != 0 && e->priv;
    json_t *root =
        player ? cot_child(cot_child(e->priv, seat), "social") : cot_child(e->hidden, "known");
    json_t *k = cot_child(root, about);
    if (!json_is_object(json_object_get(k, "loyalties")))
        json_object_set_new(k, "loyalties", json_object());
    return k;
}

int cot_identified(const rules_enc *e, const char *seat, const char *about)
{
    return json_is_true(json_object_get(cot_known_get(e, seat, about), "identified"));
}

json_t *cot_loyalties_of(const rules_enc *e, const char *cid)
{
    return json_object_get(json_object_get(json_object_get(e->hidden, "combatants"), cid),
                           "loyalties");
}

/* The agenda cid pushes, as its side knows it (its own seat's copy), or NULL. */
json_t *cot_agenda_of(const rules_enc *e, const char *cid, const char *target)
{
    json_t *k = cot_known_get(e, cot_seat_of(e, cid), target);
    json_t *a = json_object_get(json_object_get(k, "agendas"), cid);
    if (!json_is_object(a)) /* a call saved before agendas were kept per pusher */
        a = json_object_get(k, "agenda");
    return json_is_object(a) && rules_enc_streq(cot_str(a, "by"), cid) ? a : NULL;
}

/* Writes `key` = v (stolen) into the knowledge of every seat controlling a combatant of side
 * (and the GM's own copy, /gm/enc/known, which the GM reads anyway). */
/* seat learns about `about` the agenda v (borrowed) pushed by `by`. */
static void learn_agenda(rules_enc *e, const char *seat, const char *about, const char *by,
                         const json_t *v)
{
    json_t *k = cot_known(e, seat, about);
    json_object_set_new(cot_child(k, "agendas"), by, json_deep_copy(v));
    json_object_set_new(k, "agenda", json_deep_copy(v));
}

void cot_side_learns_agenda(rules_enc *e, const char *side, const char *about, json_t *v)
{
    const char *by = cot_str(v, "by"), *cid;
    learn_agenda(e, "gm", about, by, v);
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (strcmp(rules_enc_side(e, cid), side) == 0 && strcmp(cot_seat_of(e, cid), "gm") != 0)
            learn_agenda(e, cot_seat_of(e, cid), about, by, v);
    json_decref(v);
}

/* Forgets what every seat learned of Loyalty n of cid (after it changed): the learned text is
 * no longer true, and learning it again is a Read Room. */
void cot_forget_loyalty(rules_enc *e, const char *cid, int n)
{
    char key[8];
    snprintf(key, sizeof key, "%d", n);
    json_object_del(json_object_get(cot_known_get(e, "gm", cid), "loyalties"), key);
    const char *seat;
    json_t *mine;
    json_object_foreach(e->priv, seat, mine) json_object_del(
        json_object_get(json_object_get(json_object_get(mine, "social"), cid), "loyalties"), key);
}

void cot_copy_loyalties(rules_enc *e, const char *cid, const json_t *sheet)
{
    /* 000:227 Loyalties are the owner's and the GM's: a PC's live at
     * /private/<seat>/sheets/<char> (rules_system.sheet_private), an NPC's in its GM sheet */
    const json_t *loy = json_object_get(sheet, "loyalties");
    const char *ch = cot_str(rules_enc_combatant(e, cid), "char");
    if (!rules_enc_is_npc(e, cid) && ch && e->priv) {
        json_t *ps = json_object_get(
            json_object_get(json_object_get(e->priv, cot_seat_of(e, cid)), "sheets"), ch);
        if (json_is_array(json_object_get(ps, "loyalties")))
            loy = json_object_get(ps, "loyalties");
    }
    json_object_set_new(rules_enc_hidden_of(e, cid), "loyalties",
                        json_is_array(loy) ? json_deep_copy(loy) : json_array());
}

int cot_lean_own(const rules_enc *e, const rules_args *a, int *bonus, tb_err *err)
{
    int own = rules_arg_int(a, "lean_onto");
    *bonus = 0;
    if (!own)
        return 0;
    if (!json_array_get(cot_loyalties_of(e, e->actor), (size_t)own - 1))
        return rules_enc_rule(err, "%s has no Loyalty %d to Lean Onto (000:239)",
                              rules_enc_name(e, e->actor), own);
    *bonus = 1; /* 000:239 "to add 1k0 to a roll" */
    return 0;
}

void cot_choose_loyalties(const rules_enc *e, const char *actor, int first, const char *none,
                          json_t *out)
{
    json_t *loy = cot_loyalties_of(e, actor);
    char text[160];
    if (none)
        cot_choice(out, NULL, none);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < json_array_size(loy); i++)
            if ((first == (int)i + 1) == !pass) {
                cot_loyalty_text(json_array_get(loy, i), text, sizeof text);
                cot_choice(out, json_integer((json_int_t)i + 1), text);
            }
}
