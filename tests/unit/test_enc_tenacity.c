/* The tenacity encounter modules (rules/tenacity/enc_tenacity.c), driven directly with a scripted RNG. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"

START_TEST(registered)
{
    const rules_module *m = rules_module_find("tenacity.spotlight");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->system, "tenacity");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_tenacity");
    TCase *tc = tcase_create("module");
    tcase_add_test(tc, registered);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
