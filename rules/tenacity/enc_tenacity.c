/*
 * enc_tenacity.c — the tenacity encounter modules (rules/encounter.h). SKELETON: being written (issue 5).
 */
#include "encounter.h"

static const rules_enc_action ACTIONS[] = {
    {0},
};

const rules_module rules_module_tenacity_spotlight = {
    .id = "tenacity.spotlight",
    .system = "tenacity",
    .name = "Spotlight",
    .actions = ACTIONS,
};

const rules_module *const rules_modules_tenacity[] = {&rules_module_tenacity_spotlight, NULL};
