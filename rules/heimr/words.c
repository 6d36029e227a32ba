/*
 * words.c — the phrasings of the Heimr system (rules/encounter.h, "The log"): the events of the
 * layers the modules share (turns, injuries, defences, grabs, attacks, readied actions). A
 * module's own events are in its file (combat.c, chase.c, between.c). For each reader the
 * first phrasing of an event whose values that reader may see is used: the GM reads an NPC's
 * numbers, the table the phrasing without them.
 */
#include "heimr_enc.h"

/* clang-format off */
const rules_phrase heimr_phrases[] = {
    /* turns.c */
    {"initiative", "{who} rolls initiative (dexterity {consistency} as C, willpower {potential} "
                   "as P): {result}"},
    {"dies", "{who} dies of their injuries (001:165-166)"},
    {"unconscious", "{who} falls unconscious from their injuries (001:165)"},
    {"ready-lost", "{who}'s readied action is lost: its trigger did not occur before their turn "
                   "(001:250)"},
    {"lent", "{who}'s standard action this turn went into moving {whom} (001:460-465)"},
    {"continue", "{who} continues {what} with this turn's standard action (or cancels it) "
                 "(001:327)"},
    {"complete", "{who} completes {what}"},
    {"complete", "{who} completes their upcoming action"},
    {"end-turn", "{who} ends their turn"},
    {"over", "Nobody is left to act"},
    {"breather", "{who} takes a breather: fatigue {fatigue} (001:383-384)"},
    {"breather", "{who} takes a breather"},
    {"breather-done", "{who} finishes taking a breather: fatigue {fatigue} (001:383)"},
    {"breather-done", "{who} finishes taking a breather"},
    {"breath-back", "{who} gets their breath back: fatigue {fatigue} (001:292)"},
    {"delay", "{who} delays until {when} {whom} (001:246)"},
    {"delay.after", "after"},
    {"delay.before", "just before"},

    /* body.c */
    {"mangled", "{who} is mangled: unconscious in 5 minutes (round {unconscious}), dead in 10 "
                "(round {dead}) unless stabilised (001:165)"},
    {"mutilated", "{who} is mutilated: unconscious at once, dead in two minutes (round {dead}) "
                  "unless stabilised (001:166)"},
    {"interrupt", "{who}'s upcoming action ({what}) is interrupted (001:327)"},
    {"hurt", "; {whom} loses {damage} HP ({hp_was} → {hp})"},
    {"injured", "; {whom} is injured ({at}): {injury} (001:153-157)"},
    {"drain", "{whom} is drained: willpower {willpower} (001:124)"},
    {"drain", "{whom} is drained (001:124)"},
    {"hit", "{whom} takes hit {damage} (001:123){hurt?}{injured?}"},
    {"hit-hp", "{whom}: HP {hp}"},
    {"timed", "{whom}: {what} {seconds} — {turns} turn{plural?} (001:270)"},
    /* a timed effect that ends (rules/encounter.c, "expire": "{who} is no longer {state}") */
    {"cond.fall", "down from the fall"},
    {"cond.drop", "kept from picking up what they dropped"},
    {"cond.stumble", "stumbling"},
    {"cond.daze", "dazed"},
    {"cond.weaken", "weakened"},
    {"cond.bind", "bound"},

    /* defence.c */
    {"defend", "{who} pre-rolls a {stance} ({with}, C{consistency} P{potential}): {result}"},
    {"defend", "{who} pre-rolls a {stance}: {result}"},

    /* grip.c */
    {"release", "{who} no longer holds {whom}: {why}"},
    {"release", "{who} no longer holds anyone: {why}"},
    {"release.lost", "the grip is lost"},
    {"release.hit", "the hit loosens their grip (001:407)"},
    {"release.attack", "the attack breaks the grip (001:407)"},
    {"release.effect", "the effect loosens their grip (001:407)"},
    {"release.go", "they let go (001:407)"},
    {"release.broken", "the grip is broken (001:407)"},
    {"hold", "{who} holds on to {whom}: Brawl {result} to beat"},
    {"hold", "{who} holds on to {whom}"},
    {"hold-tired", "{who} holds on to {whom}: Brawl {result}, {before_potential} before "
                   "potential is below fatigue {fatigue} — no grip"},
    {"hold-tired", "{who} holds on to {whom}"},
    {"break", "{who} tries to break {whom}'s grip: {outcome} ({with} {result}{tired?})"},
    {"break", "{who} tries to break {whom}'s grip: {outcome}"},
    {"break.free", "free"},
    {"break.held", "still held"},
    {"break.tired", "; {before_potential} before potential is below fatigue {fatigue}"},
    {"carry", "{movers} move{s?} {whom}{dest?}: {whom} {why}, {need} needed (001:460-465)"},
    {"carry.to", " {to}"},
    {"carry.neither", HEIMR_CARRY_NEITHER},
    {"carry.leg", HEIMR_CARRY_LEG},
    {"carry.willing", HEIMR_CARRY_WILLING},
    {"carry.held", HEIMR_CARRY_HELD},
    {"carry.unwilling", HEIMR_CARRY_UNWILLING},

    /* attack.c: an attack, what the defender used, where it landed, what it did */
    {"attack", "{how?}{who} attacks {whom}{outcome}{grab?}{hurt?}{injured?}{stats?}{def?}"
               "{hp_gm?}"},
    {"attack.tired-npc", ": the attack fails (fatigue) and {whom} need not defend (001:284)"},
    {"attack.tired", ": {before_potential} before potential is below fatigue {fatigue_checked} — "
                     "the attack fails and {whom} need not defend (001:284)"},
    {"attack.met", " ({against}): {verdict}{where?}"},
    {"attack.undefended", "no defence"},
    {"verdict.hit", "hit"},
    {"verdict.graze", "a hit without damage (001:401)"},
    {"verdict.miss", "miss"},
    {"attack.where", ", {at} (d6 {spot}{aimed?})"},
    {"attack.aimed", ", aimed"},
    {"attack.grab", "; {who} grabs {whom} by the {at_words} (001:401)"},
    {"attack.stats", " — {with} {result} (C{consistency} P{potential}, before potential "
                     "{before_potential} vs fatigue {fatigue_checked})"},
    {"attack.def", "; {whom}'s {against}: {defended}"},
    {"attack.def-tired", "; {whom}'s {against} ({defended}) fails its fatigue requirement"},
    {"attack.hp", "; {whom} HP {hp}"},
    {"stopped", "{how?}{who} tries to attack {whom}, but {holder}'s grip stops it{own?} "
                "(001:407)"},
    {"stopped.own", " ({with} {result})"},
    {"guard-step", "{who} steps in front of {whom}: {by}'s attack is directed at {who} "
                   "(001:450-452)"},
    {"guard-dodge", "{who} dodges: the shot flies on to {whom} (001:450)"},

    /* attack.c: readied actions; an NPC's trigger and action are the GM's */
    {"ready", "{who} readies an action{secret}"},
    {"ready", "{who} readies {what}{on?} until: {trigger} (001:248)"},
    {"ready", "{who} readies an action"},
    {"ready.secret", ": {what}{on?} until: {trigger} (001:248)"},
    {"ready.attack", "an attack"},
    {"ready.on", " on {aimed_at}"},
    {"trigger", "{who}'s trigger ({trigger}) occurs: {who} acts just before {whom} (001:250)"},
    {"trigger", "{who}'s readied action fires: {who} acts just before {whom} (001:250)"},
    {"readied", "{who} does what they readied: {what} (the GM resolves it)"},
    {"readied", "{who} does what they readied (the GM resolves it)"},
    {NULL, NULL},
};
/* clang-format on */
