/*
 * enc_fivey.c — the fivey encounter modules (rules/encounter.h). SKELETON: being written (issue 5).
 */
#include "encounter.h"

static const rules_enc_action ACTIONS[] = {
    {0},
};

const rules_module rules_module_fivey_combat = {
    .id = "fivey.combat",
    .system = "fivey",
    .name = "Combat",
    .actions = ACTIONS,
};

const rules_module *const rules_modules_fivey[] = {&rules_module_fivey_combat, NULL};
