/*
 * words.c — every word the 10acity encounter modules log (rules/encounter.h, "The log"): the
 * system's phrasings (what the shared layers say: rolls, stress, wounds, conditions, grips, the
 * spotlight) and each module's. A phrasing names the values it needs ({key}) or may do without
 * ({key?}); the renderer takes, for each reader, the first phrasing of the event whose values that
 * reader may see, so where the GM reads more than the table the fuller phrasing comes first. A
 * rulebook line in a phrasing ("(003:66)") leaves the text for the entry's cite. Data, and the
 * lines that only name combatants (ten_say, ten_say_to).
 */
#include <string.h>

#include "tenacity_enc.h"

/* clang-format off */
const rules_phrase ten_phrases[] = {
    /* pieces of a roll's line */
    {"w.with", " with {skill}"},
    {"w.vs", ": {va} vs {vb}"},
    {"w.gm", ""}, /* a line only the GM reads: required, and the GM's */
    {"w.s", "s"},
    /* stress, wounds, unconsciousness, death (003:66, 003:106-109) */
    {"stress", "{who} takes {stress} stress ({why}): {current}/{max}"},
    {"stress_npc", "{who} takes {n} stress: {current}/{max}"},
    {"stress_npc", "{who} takes {n} stress ({why})"},
    {"stress_npc", "{who} takes the hit ({why})"},
    {"wound", "{who} marks a wound ({wounds}/{max}); stress back to 0 (003:66)"},
    {"wound_npc", "{who} marks a wound ({wounds}/{max}); stress back to 0"},
    {"unconscious", "{who} falls unconscious (003:106)"},
    {"death", "{who} perishes: {why}"},
    {"recovers", "{who} recovers all stress at the end of the scene{aud}"},
    {"death.choice", "their player's choice (003:108)"},
    {"death.hardcore", "no wound left to take (hardcore mode, 003:109)"},
    {"death.coup", "{by}'s coup de grâce (003:107)"},
    {"coup_fail", "{who}'s coup de grâce fails: {why} (003:107)"},
    {"why.defend", "its performer had to defend"},
    {"why.unconscious", "its performer fell unconscious"},
    {"why.died", "its performer died"},
    {"why.stopped", "its performer was stopped"},
    {"why.second", "its second action was not spent on it"},
    /* shaking a condition off (003:97), grips (003:104-105) */
    {"shake", "{who} tries to shake off {cond}{with?}{free?}{vs?}: {outcome}"},
    {"shake.free", " (free, end of turn, 003:97)"},
    {"shake.gone", "it is gone"},
    {"shake.stays", "it remains"},
    {"free", "{who} is free: {holder} holds nobody now"},
    {"lock_broken", "{who} breaks the lock: it is a grapple again (003:105)"},
    {"grapple_broken", "{who} breaks free of the grapple (003:104)"},
    /* the spotlight (003:84-92) */
    {"hold_lapse", "{who}'s held action lapses unused"},
    {"back", "{who} is back in the spotlight after acting: chooses who goes next, or spends "
             "10acity/spin to respond (003:89, 003:91)"},
    {"takes", "{who} takes the spotlight"},
    {"defence_over", "{who} is no longer on full defence"},
    {"round", "Round {round}: everyone has acted; turns reset (003:90)"},
    {"initiative_roll", "{who} rolls {skillname} for initiative: {total}"},
    {"first", "{who} rolled highest: acts first or passes the initiative (003:86)"},
    {"first_group", "{who} rolled highest: their group goes first, or they pass to the other "
                    "group (003:92)"},
    {"nobody", "Nobody is left to take the spotlight"},
    {"goes", "The spotlight goes to {who}: {why}"},
    {"next.group", "the rest of the group acts in any order it chooses (003:92)"},
    {"next.brought", "brought into the spotlight (003:87)"},
    {"next.back", "back in the spotlight after acting: chooses who goes next (003:89)"},
    {"next.passed", "passed by a character who has already acted (003:84)"},
    {"next.opposing", "an opposing character goes next (003:88)"},
    {"next.anyone", "nobody opposing is left to act: anyone who has not acted (003:88, 003:90)"},
    {"end_turn", "{who} ends the turn"},
    {"response_over", "{who}'s response is over; {holder} has the spotlight"},
    {"group_first", "{who} lets the {side} go first (003:92)"},
    {"passes", "{who} passes the spotlight to {to} (003:86)"},
    {"respond", "{who} spends a point of {paid} to respond with a standard action (003:91)"},
    {"pay.spin", "spin"},
    {"pay.tenacity", "10acity"},
    {"gm_spotlight", "The GM puts {who} in the spotlight"},
    /* the fight's states in an attack (003:110-123) */
    {"resist_hit", "{who} ignores {n} of the {dtype} damage (003:120)"},
    {"resist_hit_npc", "{who} ignores {n} of the {dtype} damage (resistance {resist})"},
    {"blind", "{who} {verb} {target} blindly through soft cover: {outcome}"},
    {"blind.found", "found (003:115)"},
    {"blind.miss", "a miss, nothing found (003:115)"},
    {"blind_need", "{who}'s blind roll needed {need}"},
    {"verb.attack", "attacks"},
    {"verb.parting", "strikes in parting at"},
    {"strike", "{who} {verb} {target}{with?}{vs?}{states?}{outcome}{tie?}"},
    {"strike.miss", ": a miss"},
    {"strike.impact", ": a hit, {impact} impact"},
    {"strike.stress", ": a hit, {impact} stress"},
    {"strike.tie", " (a tie goes to the defender, 003:66)"},
    {"st.1", " ({st1})"},
    {"st.2", " ({st1}, {st2})"},
    {"st.3", " ({st1}, {st2}, {st3})"},
    {"st.partial", "behind partial cover"},
    {"st.sees", "the high ground sees past the cover"},
    {"st.prone_far", "prone, at range"},
    {"st.prone_close", "prone, up close"},
    {"st.larger", "{steps} size step{s?} larger"},
    {"st.smaller", "{steps} size step{s?} smaller"},
    {"size_damage", "{who}'s damage is {how} for size: {damage} (003:122-123)"},
    {"size.halved", "halved"},
    {"size.doubled", "doubled"},
    {"flank", "{who} flanks with {ally}: {ally} gains 1 spin (003:110)"},
    /* cooperating on an impact action (003:57, 003:79-80) */
    {"cooperate", "{who} cooperates with {helped}{with?}{vs?}: {outcome}"},
    {"coop.adds", "+{impact} impact (003:80)"},
    {"coop.fails", "no impact added"},
    {"help_rolls", "{who} rolls for {helped}, with the higher rank (003:79)"},
    {NULL, NULL},
};

const rules_phrase ten_phrases_spotlight[] = {
    /* the combat options (options.c) */
    {"grapple", "{who} tries to grapple {target}{with?}{vs?}{states?}: {outcome}"},
    {"grapple.held", "grappled, hindered by {hinder}"},
    {"grapple.slips", "slips the grab"},
    {"lock", "{who} locks {target}: no movement at all, and {impact} impact of damage (003:105)"},
    {"lock_again", "{who} works the lock on {target}: {impact} impact of damage (003:105)"},
    {"lock_dice", "{who}'s damage dice for the lock{gm}"},
    {"hold", "{who} holds the {noun} until: {until} (003:81)"},
    {"hold_npc", "{who} holds its {noun}"},
    {"hold_trigger", "{who} holds its {noun} until: {until}"},
    {"noun.action", "action"},
    {"noun.move", "movement"},
    {"release", "{who}'s trigger happens: {who} takes the held {noun} now (003:81)"},
    {"help", "{who} helps {target} with {skill}: an advantage die on a quick roll, or cooperating on "
             "an impact action (003:57)"},
    {"help", "{who} helps {target}: an advantage die on a quick roll, or cooperating on an impact "
             "action (003:57)"},
    {"hide", "{who} hides{with?}: {total} to find them (003:73)"},
    {"hide", "{who} hides"},
    {"seek", "{who} looks for {target}{with?}{vs?}: {outcome}"},
    {"seek.found", "found"},
    {"seek.unseen", "still unseen"},
    {"state", "{who} {how}"},
    {"cover.none", "leaves cover"},
    {"cover.partial", "takes partial cover (003:114)"},
    {"cover.full", "is completely behind hard cover (003:114)"},
    {"cover.soft", "hides behind soft cover (003:115)"},
    {"prone.down", "goes prone (003:117)"},
    {"prone.up", "stands up"},
    {"high.up", "takes the high ground (003:116)"},
    {"high.down", "leaves the high ground"},
    {"size.above", "is {steps} size step{s?} above a one-space creature (003:121)"},
    {"size.below", "is {steps} size step{s?} below a one-space creature (003:121)"},
    {"resist_set", "{who} resists {dtype} {value} (003:120)"},
    {"resist_set_npc", "{who} resists {dtype} {value}{gm}"},
    {"offer", "The GM offers {who}: {costname}, for {negative} negative spin (003:39)"},
    {"accept", "{who} accepts: {costname}; {negative} negative spin is gone (003:39)"},
    {"decline", "{who} declines the GM's offer"},
    /* the module's own actions (spotlight.c) */
    {"condition", "{who} tries to {kind} {target}'s {what}{vs?}: {outcome}"},
    {"cond.success", "success"},
    {"cond.failure", "failure (ties to the defender)"},
    {"cond_keeps", "{who} keeps {kind}:{what} at {level}: the original penalty remains (003:99)"},
    {"cond_on", "{who} is {kind}:{what} ({level})"},
    {"cond_on", "{who} is {kind}:{what}"},
    {"advantage", "{who} creates an advantage{with?}{vs?}: {outcome}"},
    {"adv.success", "success"},
    {"adv.failure", "failure"},
    {"adv_spin", "{who} gains {spin} spin (003:67)"},
    {"defend", "{who} goes on full defence (003:117)"},
    {"generate_spin", "{who} concentrates and gains 1 spin (003:76)"},
    {"coup_begin", "{who} begins a coup de grâce on {target}: it completes with the action of "
                   "their next turn (003:107)"},
    {"coup_done", "{who} completes the coup de grâce: {target} perishes at the end of this turn "
                  "(003:107)"},
    {"recover", "{who} tries to recover{with?}{against?}: {outcome}"},
    {"recover.against", " against {dice_n}d6"},
    {"recover.wakes", "wakes up"},
    {"recover.stays", "stays unconscious"},
    {"move", "{who} moves: {what}"},
    {"move", "{who} moves"},
    {"sprint", "{who} sprints: {spaces} more spaces of movement this round{spin_w?}"},
    {"sprint", "{who} sprints"},
    {"sprint.gain", ", +1 spin"},
    {"sprint.loss", ", 1 negative spin"},
    {"withdraw", "{who} withdraws: no parting strike from anyone in melee range at the start of "
                 "the turn"},
    {"interact", "{who}: {what}"},
    {"interact", "{who}: an interaction"},
    {"overflow", "Over their maximum stress, {who} will {choice} (003:106)"},
    {"overflow.wound", "take a wound while one is left"},
    {"overflow.unconscious", "fall unconscious"},
    {"social", "{who} works on {target}{with?}{vs?}: standing {before} → {standing} of {top}{end?}"},
    {"social.won", ": the social challenge is won (003:70)"},
    {"social.lost", ": all credibility lost (003:70)"},
    {"standing", "{who}'s standing with {eyes} is {value} of {top} (003:70)"},
    {NULL, NULL},
};

const rules_phrase ten_phrases_social[] = {
    {"open", "{whoname} tries to win over {eyesname}: standing {standing} of {top}"},
    {"standing", "The GM sets {whoname}'s standing with {eyesname} to {standing} of {top}{end?}"},
    {"social_roll", "{roller} {verb} {opp}{in?}{with?}{vs?}: {outcome}; {whoname}'s standing "
                    "{before} → {standing} of {top}{end?}"},
    {"w.in", " in {eyesname}'s eyes"},
    {"verb.works_on", "works on"},
    {"verb.works_against", "works against"},
    {"sway.works", "it works"},
    {"sway.flat", "it falls flat"},
    {"scrutiny.lands", "it lands"},
    {"scrutiny.fails", "it fails"},
    {"scale.won", ": won over"},
    {"scale.lost", ": all credibility lost"},
    {"quit", "{whoname} gives up on winning over {eyesname}, at standing {standing} of {top}"},
    {NULL, NULL},
};

const rules_phrase ten_phrases_between[] = {
    {"scene_end", "The scene ends: stress is recovered"},
    {"task_deadline", "{task}: each character needs {need} impact within {rounds} rounds"},
    {"task_impact", "{task}: each character needs {need} impact"},
    {"task_craft", "{task}: crafting needs {need} impact in all"},
    {"task_explore", "{task}: a scene to explore; every success adds to the pool"},
    {"care", "{healer} tends {who}{day?}"},
    {"care.healed", ": {rolled} recovery; {healed} wound{s?} healed, {wounds} left"},
    {"care.progress", ": {rolled} recovery, {recovery} of {next} for the next wound"},
    {"day", "Day {day} passes"},
    {"care_done", "{who} needs no more care"},
    {"work", "{who} rolls{roll?}, {impact} impact: {tail}"},
    {"work.roll", " {skill}: {total} against {challenge}"},
    {"work.roll", ": {total} against {challenge}"},
    {"work.done", "{task} done"},
    {"work.late", "{progress} of {need}, out of time on {task}"},
    {"work.progress", "{progress} of {need}"},
    {"work.pool", "pool {pool}"},
    {"work.craft", "{task} {progress} of {need}{finished?}"},
    {"work.finished", ", finished"},
    {"spend", "{who} spends {cost} impact on {what}: {pool} left in the pool"},
    {"tend", "{who} takes {target} into care{skill_w?}"},
    {"tend.skill", " ({skill})"},
    {"heal_item", "{who} uses {item} on {target}{left?}"},
    {"heal_item.left", ": {recovered} stress recovered, {stress} left"},
    {"rest", "{who} takes a short rest and recovers 1 10acity"},
    {"pilot", "{who} pilots{detail?}, {outcome}"},
    {"pilot.detail", " (vehicle rank {vehicle}, +{pilot_bonus}): {total} against {challenge}"},
    {"pilot.success", "success"},
    {"pilot.failure", "failure"},
    {NULL, NULL},
};
/* clang-format on */

const char *ten_words(const char *event)
{
    for (const rules_phrase *p = ten_phrases; p->event; p++)
        if (strcmp(p->event, event) == 0)
            return p->text;
    return event;
}

void ten_say(rules_enc *e, const char *action, const char *event, const char *cid)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", cid);
    rules_log_end(x);
}

void ten_say_to(rules_enc *e, const char *action, const char *event, const char *cid,
                const char *key, const char *other)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", cid);
    rules_log_who(x, key, other);
    rules_log_end(x);
}
