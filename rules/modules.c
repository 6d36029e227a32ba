/*
 * modules.c — the registry of encounter modules (encounter.h). Each system's encounter file
 * (rules/<system>/enc_<system>.c) defines a NULL-terminated array `rules_modules_<system>` of
 * its modules; adding a system is its extern and one line below. A module is found by its id
 * ("cot.initiative"); the order below is the order of rules_module_at.
 */
#include <string.h>

#include "encounter.h"

extern const rules_module *const rules_modules_cot[];
extern const rules_module *const rules_modules_heimr[];
extern const rules_module *const rules_modules_heimr_between[];
extern const rules_module *const rules_modules_grimwire[];
extern const rules_module *const rules_modules_grimwire_between[];
extern const rules_module *const rules_modules_tenacity[];
extern const rules_module *const rules_modules_fivey[];

/* clang-format off */
static const rules_module *const *const ALL[] = {
    rules_modules_cot,
    rules_modules_heimr,
    rules_modules_heimr_between,
    rules_modules_grimwire,
    rules_modules_grimwire_between,
    rules_modules_tenacity,
    rules_modules_fivey,
    NULL,
};
/* clang-format on */

const rules_module *rules_module_at(size_t i)
{
    for (size_t s = 0; ALL[s]; s++)
        for (size_t m = 0; ALL[s][m]; m++)
            if (i-- == 0)
                return ALL[s][m];
    return NULL;
}

const rules_module *rules_module_find(const char *id)
{
    const rules_module *m;
    for (size_t i = 0; (m = rules_module_at(i)); i++)
        if (strcmp(m->id, id) == 0)
            return m;
    return NULL;
}
