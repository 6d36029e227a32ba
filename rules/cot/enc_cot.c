/*
 * enc_cot.c — the cot encounter modules (rules/encounter.h). SKELETON: being written (issue 5).
 */
#include "encounter.h"

static const rules_enc_action ACTIONS[] = {
    {0},
};

const rules_module rules_module_cot_initiative = {
    .id = "cot.initiative",
    .system = "cot",
    .name = "Initiative slots",
    .actions = ACTIONS,
};

const rules_module *const rules_modules_cot[] = {&rules_module_cot_initiative, NULL};
