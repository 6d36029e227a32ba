/*
 * modules.c — the registry of encounter modules (encounter.h): every module of every registered
 * system, in the order of the systems (rules/registry.c) and of each system's `modules` list
 * (system.h). A module is registered in one place only: its system's list.
 */
#include <string.h>

#include "encounter.h"

const rules_module *rules_module_at(size_t i)
{
    const rules_system *s;
    for (size_t k = 0; (s = rules_system_at(k)); k++)
        for (size_t m = 0; s->modules && s->modules[m]; m++)
            if (i-- == 0)
                return s->modules[m];
    return NULL;
}

const rules_module *rules_module_find(const char *id)
{
    const rules_module *m;
    for (size_t i = 0; id && (m = rules_module_at(i)); i++)
        if (strcmp(m->id, id) == 0)
            return m;
    return NULL;
}
