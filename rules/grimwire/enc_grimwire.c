/*
 * enc_grimwire.c — the grimwire encounter modules (rules/encounter.h). SKELETON: being written (issue 5).
 */
#include "encounter.h"

static const rules_enc_action ACTIONS[] = {
    {0},
};

const rules_module rules_module_grimwire_conflict = {
    .id = "grimwire.conflict",
    .system = "grimwire",
    .name = "Conflict",
    .actions = ACTIONS,
};

const rules_module *const rules_modules_grimwire[] = {&rules_module_grimwire_conflict, NULL};
