/*
 * registry.c — the table of rule systems. Adding a system: its extern and one entry below
 * (see the top of system.h). Order is the order of rules_system_at and of `tabled roll` help.
 */
#include "system.h"

extern const rules_system rules_system_dice;
extern const rules_system rules_system_cot;
extern const rules_system rules_system_heimr;
extern const rules_system rules_system_grimwire;
extern const rules_system rules_system_tenacity;
extern const rules_system rules_system_fivey;

/* One line per system (kept so by the formatter guards). */
/* clang-format off */
const rules_system *const rules_registry[] = {
    &rules_system_dice,
    &rules_system_cot,
    &rules_system_heimr,
    &rules_system_grimwire,
    &rules_system_tenacity,
    &rules_system_fivey,
    NULL,
};
/* clang-format on */
