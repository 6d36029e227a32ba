/*
 * body.c — body parts, injuries and their effects, damage (001:119-168, 409-414), for the Heimr
 * encounter modules (heimr_enc.h). The injury level is public (the table sees blood); an NPC's
 * HP are the GM's.
 */
#include <stdio.h>
#include <string.h>

#include "heimr_enc.h"

void heimr_add_effect(rules_enc *e, const char *cid, const char *name, int turns, int level)
{
    json_t *old = rules_enc_cond(e, cid, name);
    if (old && !json_object_get(old, "turns") && turns > 0)
        return;
    rules_enc_cond_add(e, cid, name, turns, level);
}

/* 001:153-157 the effect of an injured body part, lasting as long as the character is injured:
 * either arm → drop item, leg(s) → fall, torso → daze. */
static const char *injury_effect(rules_enc *e, const char *cid, const char *part)
{
    if (strcmp(part, "torso") == 0) {
        heimr_add_effect(e, cid, "daze", 0, 0);
        return "daze";
    }
    if (strstr(part, "arm")) {
        heimr_add_effect(e, cid, "drop", 0, 0);
        return "drop item";
    }
    heimr_add_effect(e, cid, "fall", 0, 0);
    heimr_add_effect(e, cid, "prone", 0, 0); /* 001:125 fall to the ground; 001:434 prone */
    return "fall";
}

/*
 * The injury level on the combatant (public: the table sees blood), and the clock of 001:165-166
 * in rounds of 2 seconds: mangled dies in 10 minutes, unconscious after 5; mutilated falls
 * unconscious at once and dies after two minutes.
 */
void heimr_update_injury(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    const char *lvl = heimr_injury_level(rules_enc_stat(e, cid, "hp", 1));
    const char *was = json_string_value(json_object_get(c, "injury"));
    if (!lvl) {
        json_object_del(c, "injury");
        return;
    }
    if (was && strcmp(was, lvl) == 0)
        return;
    json_object_set_new(c, "injury", json_string(lvl)); /* frees `was` */
    int round = rules_enc_round(e) > 0 ? rules_enc_round(e) : 1;
    json_t *dying = json_object_get(c, "dying");
    int dead = json_is_object(dying) ? (int)json_integer_value(json_object_get(dying, "dead")) : 0;
    if (strcmp(lvl, "mangled") == 0 && !json_is_object(dying)) {
        json_object_set_new(c, "dying",
                            json_pack("{s:i, s:i}", "unconscious",
                                      round + 5 * HEIMR_ROUNDS_PER_MINUTE, "dead",
                                      round + 10 * HEIMR_ROUNDS_PER_MINUTE));
        rules_log *x = rules_log_begin(e, "injury", "mangled");
        rules_log_who(x, "who", cid);
        rules_log_int(x, "unconscious", round + 5 * HEIMR_ROUNDS_PER_MINUTE, RULES_AUD_PUBLIC);
        rules_log_int(x, "dead", round + 10 * HEIMR_ROUNDS_PER_MINUTE, RULES_AUD_PUBLIC);
        rules_log_end(x);
    } else if (strcmp(lvl, "mutilated") == 0) {
        int d = round + 2 * HEIMR_ROUNDS_PER_MINUTE;
        if (dead && dead < d)
            d = dead;
        json_object_set_new(c, "dying", json_pack("{s:i, s:i}", "unconscious", round, "dead", d));
        if (!rules_enc_is_out(e, cid))
            rules_enc_set_out(e, cid, "unconscious");
        rules_log *x = rules_log_begin(e, "injury", "mutilated");
        rules_log_who(x, "who", cid);
        rules_log_int(x, "dead", d, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
}

void heimr_join_injuries(rules_enc *e, const char *cid)
{
    /* injuries the sheet already has keep their effects (001:153 "as long as the character is
     * injured") */
    if (rules_enc_stat(e, cid, "hp", 1) <= 0) {
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(rules_enc_stats(e, cid), "injuries"), i, v)
        {
            if (json_is_string(v))
                injury_effect(e, cid, json_string_value(v));
        }
    }
    heimr_update_injury(e, cid);
}

/* 001:327 an upcoming action "can be interrupted if you are attacked, if you receive an effect,
 * or if you use a skill ... You do not lose the standard action of your next turn". */
void heimr_interrupt_upcoming(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *up = json_object_get(c, "upcoming");
    if (!up)
        return;
    rules_log *x = rules_log_begin(e, "interrupt", "interrupt");
    rules_log_who(x, "who", cid);
    rules_log_name(x, "what", json_string_value(json_object_get(up, "what")), RULES_AUD_PUBLIC);
    rules_log_end(x);
    json_object_del(c, "upcoming");
}

int heimr_take_damage(rules_enc *e, const char *cid, int dmg, const char *part, rules_log *x)
{
    int before = rules_enc_stat(e, cid, "hp", 1);
    int hp = rules_enc_stat_add(e, cid, "hp", -dmg, HEIMR_HP_FLOOR, 100);
    if (!rules_enc_is_npc(e, cid)) { /* a PC's HP are open; an NPC's the GM's */
        rules_log_word(x, "hurt", "hurt", RULES_AUD_PUBLIC);
        rules_log_int(x, "hp_was", before, RULES_AUD_PUBLIC);
        rules_log_int(x, "hp", hp, RULES_AUD_PUBLIC);
    }
    if (hp <= 0 && part) {
        /* 001:153 "When a character is hit with an attack that causes an injury, they receive an
         * effect based on what body part got hit"; more parts while injured, more effects */
        json_t *stats = rules_enc_stats(e, cid);
        json_t *inj = json_object_get(stats, "injuries");
        if (!json_is_array(inj)) {
            inj = json_array();
            json_object_set_new(stats, "injuries", inj);
        }
        int have = 0;
        size_t i;
        json_t *v;
        json_array_foreach(inj, i, v) have |= rules_enc_streq(json_string_value(v), part);
        if (!have)
            json_array_append_new(inj, json_string(part));
        rules_log_word(x, "injured", "injured", RULES_AUD_PUBLIC);
        rules_log_name(x, "at", heimr_part_words(part), RULES_AUD_PUBLIC);
        rules_log_name(x, "injury", injury_effect(e, cid, part), RULES_AUD_PUBLIC);
    }
    heimr_update_injury(e, cid);
    return hp;
}

/* ---- effects the GM applies (001:119-141, 268-280) ---- */

static const char *const TIMED[] = {"fall", "drop", "stumble", "daze", "weaken", "bind", NULL};

int heimr_effect_check(const char *eff, const char *part, tb_err *err)
{
    if (part && !heimr_is_part(part))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act effect: 'part' must be one of torso, "
                       "sword_arm, other_arm, right_leg, left_leg (001:413)");
    int known = eff && (strcmp(eff, "hit") == 0 || strcmp(eff, "drain") == 0);
    for (int i = 0; eff && TIMED[i]; i++)
        known |= strcmp(eff, TIMED[i]) == 0;
    if (!known)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act effect: 'effect' must be hit, drain, fall, "
                       "drop, stumble, daze, weaken or bind (001:121-136)");
    return 0;
}

void heimr_effect(rules_enc *e, const char *tgt, const char *eff, int value, const char *part)
{
    heimr_interrupt_upcoming(e, tgt); /* 001:327 "if you receive an effect" */
    /* 001:407 "the bind effect also ends if you receive an effect" */
    heimr_bind_end(e, tgt, "release.effect");
    rules_log *x;
    if (strcmp(eff, "drain") == 0) {
        /* 001:121 a number "either two (as in seconds) or one (as in point)"; 001:124 */
        int w = rules_enc_stat_add(e, tgt, "willpower", -(value ? value : 1), 0, 50);
        x = rules_log_begin(e, "effect", "drain");
        rules_log_who(x, "whom", tgt);
        rules_log_int(x, "willpower", w, rules_enc_aud_of(e, tgt));
        rules_log_end(x);
        return;
    }
    if (strcmp(eff, "hit") == 0) {
        x = rules_log_begin(e, "effect", "hit");
        rules_log_who(x, "whom", tgt);
        rules_log_int(x, "damage", value ? value : 1, RULES_AUD_PUBLIC); /* 001:123 */
        int hp = heimr_take_damage(e, tgt, value ? value : 1, part, x);
        rules_log_end(x);
        if (rules_enc_is_npc(e, tgt)) { /* the GM's line of the NPC's HP */
            x = rules_log_begin(e, "effect", "hit-hp");
            rules_log_who(x, "whom", tgt);
            rules_log_int(x, "hp", hp, RULES_AUD_GM);
            rules_log_end(x);
        }
        return;
    }
    int secs = value ? value : 2;
    /* 001:270 "The number of turns an effect lasts is ... half the effect's duration, rounded
     * down." */
    int turns = secs / 2;
    if (turns > 0) {
        heimr_add_effect(e, tgt, eff, turns, strcmp(eff, "daze") == 0 ? secs : 0);
        if (strcmp(eff, "fall") == 0)
            rules_enc_cond_add(e, tgt, "prone", 0, 0); /* 001:125 on the ground */
    } else if (strcmp(eff, "daze") == 0) {
        /* 001:280 an odd daze: no defence "until the start of the turn in which the effect
         * ends"; one second ends in the next turn */
        rules_enc_cond_add(e, tgt, "no_defence", 0, 0);
    }
    x = rules_log_begin(e, "effect", "timed");
    rules_log_who(x, "whom", tgt);
    rules_log_name(x, "what", eff, RULES_AUD_PUBLIC);
    rules_log_json(x, "effect", json_string(eff), RULES_AUD_PUBLIC);
    rules_log_int(x, "seconds", secs, RULES_AUD_PUBLIC);
    rules_log_int(x, "turns", turns, RULES_AUD_PUBLIC);
    if (turns != 1)
        rules_log_word(x, "plural", "plural", RULES_AUD_PUBLIC);
    rules_log_end(x);
}
