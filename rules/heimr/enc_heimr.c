/*
 * enc_heimr.c — the heimr encounter modules (rules/encounter.h). SKELETON: being written (issue 5).
 */
#include "encounter.h"

static const rules_enc_action ACTIONS[] = {
    {0},
};

const rules_module rules_module_heimr_combat = {
    .id = "heimr.combat",
    .system = "heimr",
    .name = "Combat",
    .actions = ACTIONS,
};

const rules_module *const rules_modules_heimr[] = {&rules_module_heimr_combat, NULL};
