/*
 * test_dice.c — dice expressions: what the parser accepts and how it says no, canonical forms,
 * the exact shape of a roll result, every limit at and just over its boundary, the
 * distributions of 4d6kh3, 2d20kl1 and 3d6-1 against exact enumerations, and each form players
 * type from Roll20 (explode, compound, reroll, reroll once, successes and failures, a bare 'd'
 * drop, Fate dice, arithmetic with * / ( ), labels) against its exact distribution with a wrong
 * reading rejected by the same sample; the roll in words.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "stats.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- parser: accepted inputs and their canonical text ---- */

static const struct {
    const char *text;
    const char *canonical;
} accepted[] = {
    {"4d6kh3+2", "4d6kh3+2"},
    {"2d20kl1", "2d20kl1"},
    {"d20+5", "1d20+5"},
    {"3d6-1", "3d6-1"},
    {"2d6+1d4", "2d6+1d4"},
    {"4d6dl1", "4d6dl1"},
    {"4d6dh1", "4d6dh1"},
    {"1d100", "1d100"},
    {"10", "10"},
    {"-1d4+3", "-1d4+3"},
    {"+5", "5"},
    {"-0", "-0"},
    {"4d6k3", "4d6kh3"},
    {" 4D6K3 + 2 ", "4d6kh3+2"},
    {"2D20KL1", "2d20kl1"},
    {"4D6DL1", "4d6dl1"},
    {"4 d 6 kh 3", "4d6kh3"},
    {"\t1d8\t-\t2", "1d8-2"},
    {"007", "7"},
    {"d06", "1d6"},
    {"04d6kh03", "4d6kh3"},
    {"4d6dl0", "4d6dl0"},
    {"2d6-3d4+10-1", "2d6-3d4+10-1"},
    {"d20-d20", "1d20-1d20"},
    /* the forms players know from Roll20 */
    {"3d6!", "3d6!"},
    {"5d10!!>9", "5d10!!>9"},
    {"1d6!=5", "1d6!5"},
    {"2d6r<2", "2d6r<2"},
    {"1d20ro1", "1d20ro1"},
    {"1d20RO", "1d20ro1"},
    {"1d6r", "1d6r1"},
    {"6d10>8f1", "6d10>8f1"},
    {"6d10f1>8", "6d10>8f1"},
    {"3d6=6", "3d6=6"},
    {"3d6<2", "3d6<2"},
    {"8d100d3", "8d100dl3"},
    {"2d6kh1!", "2d6!kh1"},
    {"4dF+1", "4dF+1"},
    {"4df", "4dF"},
    {"(2d6+3)*2", "(2d6+3)*2"},
    {" ( 1d4 + 1 ) * 2 ", "(1d4+1)*2"},
    {"1d8/2", "1d8/2"},
    {"-(1d4+2)", "-(1d4+2)"},
    {"2*3-4/2", "2*3-4/2"},
    {"d20+5 [to hit]", "1d20+5[to hit]"},
    {"1d8 [fire] + 2d6 [slashing]", "1d8[fire]+2d6[slashing]"},
};

START_TEST(parser_accepts_and_canonicalizes)
{
    const char *text = accepted[_i].text;
    rules_dice_expr *e = NULL;
    tb_err err;
    tb_err_clear(&err);
    ck_assert_msg(rules_dice_parse(text, &e, &err) == 0, "'%s' rejected: %s", text, err.msg);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(rules_dice_canonical(e), accepted[_i].canonical);

    /* The canonical text parses back to itself. */
    rules_dice_expr *again = NULL;
    ck_assert_int_eq(rules_dice_parse(rules_dice_canonical(e), &again, &err), 0);
    ck_assert_str_eq(rules_dice_canonical(again), accepted[_i].canonical);
    rules_dice_free(again);
    rules_dice_free(e);
}
END_TEST

/* ---- parser: rejected inputs and the words the error must contain ---- */

static const struct {
    const char *text;
    const char *message; /* a substring of err.msg */
} rejected[] = {
    {"", "empty dice expression"},
    {"   ", "empty dice expression"},
    {NULL, "empty dice expression"},
    {"3d6+", "trailing operator '+' at position 4"},
    {"3d6 - ", "trailing operator '-' at position 5"},
    {"-", "trailing operator '-' at position 1"},
    {"1d6 x", "unknown character 'x' at position 5"},
    {"2d6%2", "unknown character '%' at position 4"},
    {"1d6\xc3\xa9", "unknown character 0xC3 at position 4"},
    {"1d6\n", "unknown character 0x0A at position 4"},
    {"3d", "missing number of sides after 'd' at position 2"},
    {"3d+1", "missing number of sides after 'd' at position 2"},
    {"d", "missing number of sides after 'd' at position 1"},
    {"d0", "sides out of range at position 2: d0 (allowed 1..1000)"},
    {"2+3d0", "sides out of range at position 5: d0"},
    {"0d6", "dice count out of range at position 1: 0 (need at least 1 die)"},
    {"4d6kh5", "keep count out of range at position 4: kh5 with 4 dice (allowed 1..4)"},
    {"4d6kh0", "keep count out of range at position 4: kh0 with 4 dice (allowed 1..4)"},
    {"2d20kl3", "keep count out of range at position 5: kl3 with 2 dice (allowed 1..2)"},
    {"4d6k9", "keep count out of range at position 4: k9 with 4 dice (allowed 1..4)"},
    {"4d6dl4", "drop count out of range at position 4: dl4 with 4 dice (allowed 0..3)"},
    {"4d6dh4", "drop count out of range at position 4: dh4 with 4 dice (allowed 0..3)"},
    {"d6dl1", "drop count out of range at position 3: dl1 with 1 dice (allowed 0..0)"},
    {"4d6k", "missing count after 'k' at position 4"},
    {"4d6kh", "missing count after 'kh' at position 4"},
    {"4d6 dl +1", "missing count after 'dl' at position 5"},
    {"100001", "constant out of range at position 1: 100001 (allowed 0..100000)"},
    {"1d6+99999999999999999999", "constant out of range at position 5"},
    {"101d6", "too many dice at position 1: at most 100 dice in the whole expression"},
    {"99999999999999999999d6", "too many dice at position 1"},
    {"50d6+51d6", "too many dice at position 6"},
    {"1d99999999999999999999", "sides out of range at position 3"},
    {"3d6 2", "expected '+', '-', '*' or '/' at position 5, found '2'"},
    {"3d6d6", "drop count out of range at position 4: d6 with 3 dice (allowed 0..2)"},
    {"2d6kh1kl1", "'kl' at position 7: a dice term takes each kind of modifier once"},
    {"1d6!!!", "'!' at position 6: a dice term takes each kind of modifier once"},
    {"1d6r1r2", "'r' at position 6: a dice term takes each kind of modifier once"},
    {"1d6!>1", "explosion at position 4 matches every face: it would never stop"},
    {"1d1!", "explosion at position 4 matches every face"},
    {"4dF!<1", "explosion at position 4 matches every face"},
    {"1d6r<6", "reroll at position 4 matches every face: it would never stop"},
    {"6d10f1", "failures at position 5 count only with a success target (e.g. 6d10>8f1)"},
    {"1d6>", "missing number after '>' at position 4"},
    {"1d6!>", "missing number after '!' at position 4"},
    {"1d6>1001", "compare number out of range at position 5: 1001 (allowed 0..1000)"},
    {"1d6/0", "the divisor could be 0"},
    {"1d6/(1d2-1)", "the divisor could be 0"},
    {"(1d6", "'(' at position 1 is not closed"},
    {"1d6)", "')' at position 4 closes nothing"},
    {"((((((((((1))))))))))", "too many parentheses inside each other at position 9 (at most 8)"},
    {"1d6[abc", "label not closed with ']' at position 4"},
    {"1d6[[1d6]]", "'[' inside a label at position 5"},
    {"1d6[0123456789012345678901234567890123456789x]",
     "label too long at position 4: 41 characters (limit 40)"},
    {"(1d6)[x]", "a label at position 6 must follow dice or a number"},
    {"[x]1d6", "expected dice or a number at position 1, found '[x]'"},
    {"(50d1000!!)*(50d1000!!)", "the total could pass 1000000000"},
    {"1d6*", "trailing operator '*' at position 4"},
    {"3d6++2", "expected dice or a number at position 5, found '+'"},
    {"--1", "expected dice or a number at position 2, found '-'"},
    {"kh3", "expected dice or a number at position 1, found 'kh'"},
};

START_TEST(parser_rejects_with_a_clear_message)
{
    const char *text = rejected[_i].text;
    rules_dice_expr *e = (rules_dice_expr *)&e; /* must be reset to NULL */
    tb_err err;
    tb_err_clear(&err);
    ck_assert_int_eq(rules_dice_parse(text, &e, &err), TB_BAD_REQUEST);
    ck_assert_ptr_null(e);
    ck_assert_int_eq(err.code, TB_BAD_REQUEST);
    ck_assert_msg(strstr(err.msg, rejected[_i].message) != NULL, "'%s': message '%s' lacks '%s'",
                  text ? text : "(null)", err.msg, rejected[_i].message);
    /* A NULL err is allowed. */
    ck_assert_int_eq(rules_dice_parse(text, &e, NULL), TB_BAD_REQUEST);
    ck_assert_ptr_null(e);
}
END_TEST

/* ---- limits at and just over each boundary ---- */

/* Returns a malloc'd string: n copies of unit joined by sep. */
static char *repeat(const char *unit, const char *sep, int n)
{
    size_t len = (strlen(unit) + strlen(sep)) * (size_t)n + 1;
    char *s = malloc(len);
    s[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strcat(s, sep);
        strcat(s, unit);
    }
    return s;
}

/* Parses text; returns 0 or the error code, and copies the message into msg. */
static int try_parse(const char *text, char *msg)
{
    rules_dice_expr *e = NULL;
    tb_err err;
    tb_err_clear(&err);
    int rc = rules_dice_parse(text, &e, &err);
    strcpy(msg, err.msg);
    rules_dice_free(e);
    return rc;
}

START_TEST(limit_expression_length_200)
{
    char msg[TB_ERR_MSG_MAX], text[256];
    memset(text, ' ', sizeof text);
    memcpy(text, "1d6", 3);
    text[200] = '\0';
    ck_assert_int_eq(try_parse(text, msg), 0);
    text[200] = ' ';
    text[201] = '\0';
    ck_assert_int_eq(try_parse(text, msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "dice expression too long: 201 characters (limit 200)");
}
END_TEST

START_TEST(limit_total_dice_100)
{
    char msg[TB_ERR_MSG_MAX];
    ck_assert_int_eq(try_parse("100d6", msg), 0);
    ck_assert_int_eq(try_parse("50d6+50d6", msg), 0);
    ck_assert_int_eq(try_parse("99d6+d4", msg), 0);
    ck_assert_int_eq(try_parse("99d6+2d4", msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "too many dice at position 6: at most 100 dice in the whole expression");
    ck_assert_int_eq(try_parse("101d6", msg), TB_BAD_REQUEST);

    /* Dice in subtracted terms count too. */
    ck_assert_int_eq(try_parse("-60d6-41d6", msg), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(msg, "at position 7"));
}
END_TEST

START_TEST(limit_sides_1_to_1000)
{
    char msg[TB_ERR_MSG_MAX];
    ck_assert_int_eq(try_parse("1d1", msg), 0);
    ck_assert_int_eq(try_parse("1d1000", msg), 0);
    ck_assert_int_eq(try_parse("1d1001", msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "sides out of range at position 3: d1001 (allowed 1..1000)");
    ck_assert_int_eq(try_parse("1d0", msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "sides out of range at position 3: d0 (allowed 1..1000)");
}
END_TEST

START_TEST(limit_dice_count_at_least_1)
{
    char msg[TB_ERR_MSG_MAX];
    ck_assert_int_eq(try_parse("1d6", msg), 0);
    ck_assert_int_eq(try_parse("0d6", msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "dice count out of range at position 1: 0 (need at least 1 die)");
}
END_TEST

START_TEST(limit_keep_and_drop_counts)
{
    char msg[TB_ERR_MSG_MAX];
    ck_assert_int_eq(try_parse("4d6kh1", msg), 0);
    ck_assert_int_eq(try_parse("4d6kh4", msg), 0);
    ck_assert_int_eq(try_parse("4d6kh0", msg), TB_BAD_REQUEST);
    ck_assert_int_eq(try_parse("4d6kh5", msg), TB_BAD_REQUEST);
    ck_assert_int_eq(try_parse("4d6kl1", msg), 0);
    ck_assert_int_eq(try_parse("4d6kl4", msg), 0);
    ck_assert_int_eq(try_parse("4d6kl0", msg), TB_BAD_REQUEST);
    ck_assert_int_eq(try_parse("4d6kl5", msg), TB_BAD_REQUEST);
    ck_assert_int_eq(try_parse("4d6dh0", msg), 0);
    ck_assert_int_eq(try_parse("4d6dh3", msg), 0);
    ck_assert_int_eq(try_parse("4d6dh4", msg), TB_BAD_REQUEST);
    ck_assert_int_eq(try_parse("4d6dl0", msg), 0);
    ck_assert_int_eq(try_parse("4d6dl3", msg), 0);
    ck_assert_int_eq(try_parse("4d6dl4", msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "drop count out of range at position 4: dl4 with 4 dice (allowed 0..3)");
    ck_assert_int_eq(try_parse("100d6kh100", msg), 0);
    ck_assert_int_eq(try_parse("100d6kh101", msg), TB_BAD_REQUEST);
}
END_TEST

START_TEST(limit_constants_0_to_100000)
{
    char msg[TB_ERR_MSG_MAX];
    ck_assert_int_eq(try_parse("0", msg), 0);
    ck_assert_int_eq(try_parse("100000", msg), 0);
    ck_assert_int_eq(try_parse("-100000", msg), 0);
    ck_assert_int_eq(try_parse("100001", msg), TB_BAD_REQUEST);
    ck_assert_int_eq(try_parse("d6-100001", msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "constant out of range at position 4: 100001 (allowed 0..100000)");
}
END_TEST

START_TEST(limit_20_terms)
{
    char msg[TB_ERR_MSG_MAX];
    char *twenty = repeat("1", "+", 20);
    char *twenty_one = repeat("1", "+", 21);
    char *dice_21 = repeat("d4", "-", 21);
    ck_assert_int_eq(try_parse(twenty, msg), 0);
    ck_assert_int_eq(try_parse(twenty_one, msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "too many terms at position 41: at most 20 terms");
    ck_assert_int_eq(try_parse(dice_21, msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "too many terms at position 61: at most 20 terms");

    /* A trailing operator after the 20th term is reported as such. */
    strcat(twenty, "+");
    ck_assert_int_eq(try_parse(twenty, msg), TB_BAD_REQUEST);
    ck_assert_str_eq(msg, "trailing operator '+' at position 40");
    free(twenty);
    free(twenty_one);
    free(dice_21);
}
END_TEST

/* ---- rolls with scripted faces: every field of the result ---- */

static const struct {
    const char *expr;
    int faces[8];
    size_t nfaces;
    const char *result; /* the whole expected result, as JSON */
} rolls[] = {
    {"4d6kh3",
     {2, 6, 3, 6},
     4,
     "{\"expr\":\"4d6kh3\",\"dice\":[{\"sides\":6,\"value\":2,\"kept\":false,\"term\":0},"
     "{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":3,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"4d6kh3\",\"sign\":1,\"subtotal\":15}],\"total\":15}"},
    {"4d6kh3+2",
     {2, 6, 3, 6},
     4,
     "{\"expr\":\"4d6kh3+2\",\"dice\":[{\"sides\":6,\"value\":2,\"kept\":false,\"term\":0},"
     "{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":3,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"4d6kh3\",\"sign\":1,\"subtotal\":15},"
     "{\"text\":\"2\",\"sign\":1,\"subtotal\":2}],\"total\":17}"},
    {"2d20kl1",
     {17, 4},
     2,
     "{\"expr\":\"2d20kl1\",\"dice\":[{\"sides\":20,\"value\":17,\"kept\":false,\"term\":0},"
     "{\"sides\":20,\"value\":4,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"2d20kl1\",\"sign\":1,\"subtotal\":4}],\"total\":4}"},
    /* ties: the earliest-rolled among equals is kept (the second 1 is dropped) */
    {"4d6dl1",
     {1, 5, 1, 3},
     4,
     "{\"expr\":\"4d6dl1\",\"dice\":[{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":5,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":1,\"kept\":false,\"term\":0},"
     "{\"sides\":6,\"value\":3,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"4d6dl1\",\"sign\":1,\"subtotal\":9}],\"total\":9}"},
    {"4d6k1",
     {6, 6, 2, 1},
     4,
     "{\"expr\":\"4d6kh1\",\"dice\":[{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":6,\"kept\":false,\"term\":0},"
     "{\"sides\":6,\"value\":2,\"kept\":false,\"term\":0},"
     "{\"sides\":6,\"value\":1,\"kept\":false,\"term\":0}],"
     "\"terms\":[{\"text\":\"4d6kh1\",\"sign\":1,\"subtotal\":6}],\"total\":6}"},
    {"4d6dh1",
     {6, 6, 2, 1},
     4,
     "{\"expr\":\"4d6dh1\",\"dice\":[{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":6,\"kept\":false,\"term\":0},"
     "{\"sides\":6,\"value\":2,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"4d6dh1\",\"sign\":1,\"subtotal\":9}],\"total\":9}"},
    {"3d8kl2",
     {5, 5, 5},
     3,
     "{\"expr\":\"3d8kl2\",\"dice\":[{\"sides\":8,\"value\":5,\"kept\":true,\"term\":0},"
     "{\"sides\":8,\"value\":5,\"kept\":true,\"term\":0},"
     "{\"sides\":8,\"value\":5,\"kept\":false,\"term\":0}],"
     "\"terms\":[{\"text\":\"3d8kl2\",\"sign\":1,\"subtotal\":10}],\"total\":10}"},
    {"-1d4+3",
     {2},
     1,
     "{\"expr\":\"-1d4+3\",\"dice\":[{\"sides\":4,\"value\":2,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"1d4\",\"sign\":-1,\"subtotal\":2},"
     "{\"text\":\"3\",\"sign\":1,\"subtotal\":3}],\"total\":1}"},
    {"3d6-1",
     {1, 1, 1},
     3,
     "{\"expr\":\"3d6-1\",\"dice\":[{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"3d6\",\"sign\":1,\"subtotal\":3},"
     "{\"text\":\"1\",\"sign\":-1,\"subtotal\":1}],\"total\":2}"},
    {"d20+5",
     {20},
     1,
     "{\"expr\":\"1d20+5\",\"dice\":[{\"sides\":20,\"value\":20,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"1d20\",\"sign\":1,\"subtotal\":20},"
     "{\"text\":\"5\",\"sign\":1,\"subtotal\":5}],\"total\":25}"},
    {"2d6+1d4",
     {3, 5, 4},
     3,
     "{\"expr\":\"2d6+1d4\",\"dice\":[{\"sides\":6,\"value\":3,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":5,\"kept\":true,\"term\":0},"
     "{\"sides\":4,\"value\":4,\"kept\":true,\"term\":1}],"
     "\"terms\":[{\"text\":\"2d6\",\"sign\":1,\"subtotal\":8},"
     "{\"text\":\"1d4\",\"sign\":1,\"subtotal\":4}],\"total\":12}"},
    {"1d20-1d20",
     {3, 15},
     2,
     "{\"expr\":\"1d20-1d20\",\"dice\":[{\"sides\":20,\"value\":3,\"kept\":true,\"term\":0},"
     "{\"sides\":20,\"value\":15,\"kept\":true,\"term\":1}],"
     "\"terms\":[{\"text\":\"1d20\",\"sign\":1,\"subtotal\":3},"
     "{\"text\":\"1d20\",\"sign\":-1,\"subtotal\":15}],\"total\":-12}"},
    {"4d6dl0",
     {1, 2, 3, 4},
     4,
     "{\"expr\":\"4d6dl0\",\"dice\":[{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":2,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":3,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":4,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"4d6dl0\",\"sign\":1,\"subtotal\":10}],\"total\":10}"},
    {"10",
     {0},
     0,
     "{\"expr\":\"10\",\"dice\":[],"
     "\"terms\":[{\"text\":\"10\",\"sign\":1,\"subtotal\":10}],\"total\":10}"},
    {"-5+2",
     {0},
     0,
     "{\"expr\":\"-5+2\",\"dice\":[],"
     "\"terms\":[{\"text\":\"5\",\"sign\":-1,\"subtotal\":5},"
     "{\"text\":\"2\",\"sign\":1,\"subtotal\":2}],\"total\":-3}"},
    {"2+2d4kh1",
     {1, 3},
     2,
     "{\"expr\":\"2+2d4kh1\",\"dice\":[{\"sides\":4,\"value\":1,\"kept\":false,\"term\":1},"
     "{\"sides\":4,\"value\":3,\"kept\":true,\"term\":1}],"
     "\"terms\":[{\"text\":\"2\",\"sign\":1,\"subtotal\":2},"
     "{\"text\":\"2d4kh1\",\"sign\":1,\"subtotal\":3}],\"total\":5}"},
    /* explode: the 6 brings a 3 right after it (an extra die), the 3 does not explode */
    {"2d6!",
     {6, 3, 2},
     3,
     "{\"expr\":\"2d6!\",\"dice\":[{\"sides\":6,\"value\":6,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":3,\"kept\":true,\"term\":0,\"exploded\":true},"
     "{\"sides\":6,\"value\":2,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"2d6!\",\"sign\":1,\"subtotal\":11}],\"total\":11}"},
    /* compound: 6 + 6 + 2 is one die of 14 */
    {"1d6!!",
     {6, 6, 2},
     3,
     "{\"expr\":\"1d6!!\",\"dice\":[{\"sides\":6,\"value\":14,\"kept\":true,\"term\":0,"
     "\"rolls\":[6,6,2]}],"
     "\"terms\":[{\"text\":\"1d6!!\",\"sign\":1,\"subtotal\":14}],\"total\":14}"},
    /* reroll until it is not a 1: two 1s are rerolled away and never count */
    {"2d6r1",
     {1, 1, 4, 5},
     4,
     "{\"expr\":\"2d6r1\",\"dice\":[{\"sides\":6,\"value\":1,\"kept\":false,\"term\":0,"
     "\"rerolled\":true},{\"sides\":6,\"value\":1,\"kept\":false,\"term\":0,"
     "\"rerolled\":true},{\"sides\":6,\"value\":4,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":5,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"2d6r1\",\"sign\":1,\"subtotal\":9}],\"total\":9}"},
    /* reroll once: the second 1 stands */
    {"2d6ro1",
     {1, 1, 5},
     3,
     "{\"expr\":\"2d6ro1\",\"dice\":[{\"sides\":6,\"value\":1,\"kept\":false,\"term\":0,"
     "\"rerolled\":true},{\"sides\":6,\"value\":1,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":5,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"2d6ro1\",\"sign\":1,\"subtotal\":6}],\"total\":6}"},
    /* successes: 8 or higher counts, a 1 takes one away: 9, 8, 10 less the 1 */
    {"4d10>8f1",
     {9, 1, 8, 10},
     4,
     "{\"expr\":\"4d10>8f1\",\"dice\":[{\"sides\":10,\"value\":9,\"kept\":true,\"term\":0,"
     "\"success\":true},{\"sides\":10,\"value\":1,\"kept\":true,\"term\":0,\"failure\":true},"
     "{\"sides\":10,\"value\":8,\"kept\":true,\"term\":0,\"success\":true},"
     "{\"sides\":10,\"value\":10,\"kept\":true,\"term\":0,\"success\":true}],"
     "\"terms\":[{\"text\":\"4d10>8f1\",\"sign\":1,\"subtotal\":2}],\"total\":2}"},
    /* Fate dice: faces 1, 2, 3 of the rng are -1, 0, +1 */
    {"4dF",
     {1, 2, 3, 3},
     4,
     "{\"expr\":\"4dF\",\"dice\":[{\"sides\":3,\"value\":-1,\"kept\":true,\"term\":0,"
     "\"fate\":true},{\"sides\":3,\"value\":0,\"kept\":true,\"term\":0,\"fate\":true},"
     "{\"sides\":3,\"value\":1,\"kept\":true,\"term\":0,\"fate\":true},"
     "{\"sides\":3,\"value\":1,\"kept\":true,\"term\":0,\"fate\":true}],"
     "\"terms\":[{\"text\":\"4dF\",\"sign\":1,\"subtotal\":1}],\"total\":1}"},
    /* arithmetic: the formula shows each term's subtotal; signs are 1 */
    {"(1d4+1)*2",
     {3},
     1,
     "{\"expr\":\"(1d4+1)*2\",\"dice\":[{\"sides\":4,\"value\":3,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"1d4\",\"sign\":1,\"subtotal\":3},"
     "{\"text\":\"1\",\"sign\":1,\"subtotal\":1},{\"text\":\"2\",\"sign\":1,\"subtotal\":2}],"
     "\"total\":8,\"formula\":\"(3+1)*2\"}"},
    /* a division rounds down */
    {"1d8/2",
     {7},
     1,
     "{\"expr\":\"1d8/2\",\"dice\":[{\"sides\":8,\"value\":7,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"1d8\",\"sign\":1,\"subtotal\":7},"
     "{\"text\":\"2\",\"sign\":1,\"subtotal\":2}],\"total\":3,\"formula\":\"7/2\"}"},
    {"-(1d4+2)",
     {4},
     1,
     "{\"expr\":\"-(1d4+2)\",\"dice\":[{\"sides\":4,\"value\":4,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"1d4\",\"sign\":-1,\"subtotal\":4},"
     "{\"text\":\"2\",\"sign\":-1,\"subtotal\":2}],\"total\":-6}"},
    /* a label names its term; a bare 'd' drops the lowest */
    {"3d6d1 [stats]+1",
     {2, 5, 4},
     3,
     "{\"expr\":\"3d6dl1[stats]+1\",\"dice\":[{\"sides\":6,\"value\":2,\"kept\":false,"
     "\"term\":0},{\"sides\":6,\"value\":5,\"kept\":true,\"term\":0},"
     "{\"sides\":6,\"value\":4,\"kept\":true,\"term\":0}],"
     "\"terms\":[{\"text\":\"3d6dl1\",\"sign\":1,\"subtotal\":9,\"label\":\"stats\"},"
     "{\"text\":\"1\",\"sign\":1,\"subtotal\":1}],\"total\":10}"},
};

START_TEST(roll_with_scripted_faces_gives_exact_result)
{
    rules_dice_expr *e = NULL;
    ck_assert_int_eq(rules_dice_parse(rolls[_i].expr, &e, NULL), 0);
    rules_rng *rng = rules_rng_scripted(rolls[_i].faces, rolls[_i].nfaces);
    json_t *got = rules_dice_roll(e, rng);
    json_error_t jerr;
    json_t *want = json_loads(rolls[_i].result, 0, &jerr);
    ck_assert_msg(want != NULL, "bad expected JSON: %s", jerr.text);
    char *got_text = json_dumps(got, JSON_COMPACT | JSON_PRESERVE_ORDER);
    ck_assert_msg(json_equal(got, want), "%s: got %s", rolls[_i].expr, got_text);

    /* Exactly the scripted faces were used: none left over, none missing. */
    ck_assert_int_eq(rules_rng_exhausted(rng), 0);
    ck_assert_int_eq(rules_rng_die(rng, 6), 1);
    ck_assert_int_eq(rules_rng_exhausted(rng), 1);

    free(got_text);
    json_decref(got);
    json_decref(want);
    rules_rng_destroy(rng);
    rules_dice_free(e);
}
END_TEST

START_TEST(roll_result_keys_in_documented_order)
{
    static const int faces[] = {4};
    rules_rng *rng = rules_rng_scripted(faces, 1);
    json_t *r = NULL;
    ck_assert_int_eq(rules_dice_roll_text("d6+1", rng, &r, NULL), 0);
    char *text = json_dumps(r, JSON_COMPACT | JSON_PRESERVE_ORDER);
    ck_assert_str_eq(text, "{\"expr\":\"1d6+1\",\"dice\":[{\"sides\":6,\"value\":4,\"kept\":true,"
                           "\"term\":0}],\"terms\":[{\"text\":\"1d6\",\"sign\":1,\"subtotal\":4},"
                           "{\"text\":\"1\",\"sign\":1,\"subtotal\":1}],\"total\":5}");
    free(text);
    json_decref(r);
    rules_rng_destroy(rng);
}
END_TEST

START_TEST(roll_text_reports_parse_errors_and_null_result)
{
    rules_rng *rng = rules_rng_seeded(1);
    json_t *r = json_null();
    tb_err err;
    tb_err_clear(&err);
    ck_assert_int_eq(rules_dice_roll_text("3d", rng, &r, &err), TB_BAD_REQUEST);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(err.code, TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing number of sides"));

    ck_assert_int_eq(rules_dice_roll_text("2d6+3", rng, &r, &err), 0);
    ck_assert_ptr_nonnull(r);
    json_int_t total = json_integer_value(json_object_get(r, "total"));
    ck_assert(total >= 5 && total <= 15);
    json_decref(r);
    rules_rng_destroy(rng);
}
END_TEST

/* rules_dice_roll_text keeps the thread's last parsed text (dice.c): a text rolled again, after
 * another, after a refused one or after a text that only starts the same, rolls exactly what a
 * fresh parse and roll with the same seed roll, and a refused text is refused every time. */
START_TEST(roll_text_again_is_a_fresh_parse)
{
    static const char *const texts[] = {"d20+5", "d20+5", "4d6kh3",        "d20+5",
                                        "3d",    "d20+5", "d20",           "d20+5+1",
                                        "d20+5", "3d",    "2d6*(1d4+1)[x]"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        rules_rng *a = rules_rng_seeded(100 + i), *b = rules_rng_seeded(100 + i);
        json_t *got, *want = NULL;
        tb_err e1, e2;
        tb_err_clear(&e1);
        tb_err_clear(&e2);
        int rc = rules_dice_roll_text(texts[i], a, &got, &e1);
        rules_dice_expr *e;
        int want_rc = rules_dice_parse(texts[i], &e, &e2);
        ck_assert_int_eq(rc, want_rc);
        if (want_rc) {
            ck_assert_ptr_null(got);
            ck_assert_str_eq(e1.msg, e2.msg);
        } else {
            want = rules_dice_roll(e, b);
            rules_dice_free(e);
            char *x = json_dumps(got, JSON_COMPACT), *y = json_dumps(want, JSON_COMPACT);
            ck_assert_str_eq(x, y);
            free(x);
            free(y);
        }
        json_decref(got);
        json_decref(want);
        rules_rng_destroy(a);
        rules_rng_destroy(b);
    }
}
END_TEST

START_TEST(scripted_rng_running_out_is_visible_after_the_roll)
{
    static const int faces[] = {5};
    rules_rng *rng = rules_rng_scripted(faces, 1);
    json_t *r = NULL;
    ck_assert_int_eq(rules_dice_roll_text("2d6", rng, &r, NULL), 0);
    ck_assert_int_eq(rules_rng_exhausted(rng), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), 6); /* 5 + a 1 */
    json_decref(r);
    rules_rng_destroy(rng);
}
END_TEST

/* ---- invariants over many seeded rolls ---- */

static const char *const invariant_exprs[] = {
    "4d6kh3+2", "2d20kl1", "d20+5",    "3d6-1",    "2d6+1d4",        "4d6dl1",
    "1d100",    "10",      "-1d4+3",   "10d10dh3", "100d1000",       "5d4kl2-3d8kh1+7",
    "-0",       "8d2k4",   "20d6dl19", "1d1-1d1",  "3d6+3d6+3d6-18",
};

START_TEST(every_roll_adds_up)
{
    rules_dice_expr *e = NULL;
    ck_assert_int_eq(rules_dice_parse(invariant_exprs[_i], &e, NULL), 0);
    rules_rng *rng = rules_rng_seeded(1000 + (uint64_t)_i);
    for (int n = 0; n < 500; n++) {
        json_t *r = rules_dice_roll(e, rng);
        ck_assert_str_eq(json_string_value(json_object_get(r, "expr")), rules_dice_canonical(e));
        json_t *dice = json_object_get(r, "dice");
        json_t *terms = json_object_get(r, "terms");
        ck_assert(json_is_array(dice) && json_is_array(terms));
        size_t nterms = json_array_size(terms);
        long kept_sum[RULES_DICE_MAX_TERMS] = {0};
        int ndice[RULES_DICE_MAX_TERMS] = {0};
        long prev_term = 0;
        size_t i;
        json_t *d;
        json_array_foreach(dice, i, d)
        {
            json_int_t t = json_integer_value(json_object_get(d, "term"));
            json_int_t sides = json_integer_value(json_object_get(d, "sides"));
            json_int_t v = json_integer_value(json_object_get(d, "value"));
            ck_assert(t >= prev_term && (size_t)t < nterms); /* term by term */
            ck_assert(v >= 1 && v <= sides);
            ck_assert(json_is_boolean(json_object_get(d, "kept")));
            if (json_is_true(json_object_get(d, "kept")))
                kept_sum[t] += v;
            ndice[t]++;
            prev_term = t;
        }
        long total = 0;
        json_t *term;
        json_array_foreach(terms, i, term)
        {
            json_int_t sign = json_integer_value(json_object_get(term, "sign"));
            json_int_t sub = json_integer_value(json_object_get(term, "subtotal"));
            ck_assert(sign == 1 || sign == -1);
            ck_assert_int_ge(sub, 0);
            if (ndice[i] > 0)
                ck_assert_int_eq(sub, kept_sum[i]);
            total += sign * sub;
        }
        ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), total);
        json_decref(r);
    }
    rules_rng_destroy(rng);
    rules_dice_free(e);
}
END_TEST

/* ---- distributions against exact enumerations ---- */

/* Exact counts of 4d6kh3 totals (index 0..18) over all 6^4 outcomes; keep_high selects kh3
 * (sum minus the lowest) or kl3 (sum minus the highest) for the control. */
static void enumerate_4d6_keep3(long counts[19], int keep_high)
{
    memset(counts, 0, 19 * sizeof counts[0]);
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int c = 1; c <= 6; c++)
                for (int d = 1; d <= 6; d++) {
                    int lo = a, hi = a;
                    int v[3] = {b, c, d};
                    for (int i = 0; i < 3; i++) {
                        lo = v[i] < lo ? v[i] : lo;
                        hi = v[i] > hi ? v[i] : hi;
                    }
                    counts[a + b + c + d - (keep_high ? lo : hi)]++;
                }
}

/* Rolls expr n times with a fixed seed and histograms the totals (index = total); a total
 * outside 0..max fails the test. */
static void histogram(const char *expr, uint64_t seed, int n, long *hist, int max)
{
    rules_dice_expr *e = NULL;
    ck_assert_int_eq(rules_dice_parse(expr, &e, NULL), 0);
    rules_rng *rng = rules_rng_seeded(seed);
    memset(hist, 0, (size_t)(max + 1) * sizeof hist[0]);
    for (int i = 0; i < n; i++) {
        json_t *r = rules_dice_roll(e, rng);
        json_int_t total = json_integer_value(json_object_get(r, "total"));
        ck_assert_msg(total >= 0 && total <= max, "%s rolled %lld", expr, (long long)total);
        hist[total]++;
        json_decref(r);
    }
    rules_rng_destroy(rng);
    rules_dice_free(e);
}

START_TEST(dist_4d6kh3_matches_exact_distribution)
{
    enum { N = 200000 };
    long exact[19], wrong[19], hist[19];
    double expected[16], expected_wrong[16];
    enumerate_4d6_keep3(exact, 1);
    enumerate_4d6_keep3(wrong, 0);
    histogram("4d6kh3", 0x4d6c3ULL, N, hist, 18);
    for (int t = 0; t < 3; t++)
        ck_assert_int_eq(hist[t], 0);
    for (int t = 3; t <= 18; t++) {
        expected[t - 3] = (double)N * (double)exact[t] / 1296.0;
        expected_wrong[t - 3] = (double)N * (double)wrong[t] / 1296.0;
    }
    /* 16 categories (3..18), 15 degrees of freedom. */
    ck_assert_double_lt(stats_chi2(hist + 3, expected, 16), stats_chi2_p001_table(15));
    /* Control: the same sample is far from keep-lowest. */
    ck_assert_double_gt(stats_chi2(hist + 3, expected_wrong, 16), stats_chi2_p001_table(15));
}
END_TEST

START_TEST(dist_2d20kl1_matches_exact_distribution)
{
    enum { N = 200000 };
    long exact[21] = {0}, wrong[21] = {0}, hist[21];
    double expected[20], expected_wrong[20];
    for (int a = 1; a <= 20; a++)
        for (int b = 1; b <= 20; b++) {
            exact[a < b ? a : b]++;
            wrong[a > b ? a : b]++;
        }
    histogram("2d20kl1", 0x2d20c1ULL, N, hist, 20);
    ck_assert_int_eq(hist[0], 0);
    for (int t = 1; t <= 20; t++) {
        expected[t - 1] = (double)N * (double)exact[t] / 400.0;
        expected_wrong[t - 1] = (double)N * (double)wrong[t] / 400.0;
    }
    ck_assert_double_lt(stats_chi2(hist + 1, expected, 20), stats_chi2_p001_table(19));
    ck_assert_double_gt(stats_chi2(hist + 1, expected_wrong, 20), stats_chi2_p001_table(19));
}
END_TEST

START_TEST(exhaustive_4d6kh3_over_all_1296_outcomes)
{
    /* Every outcome through the real roller with a scripted rng equals the enumeration. */
    long exact[19], got[19] = {0};
    enumerate_4d6_keep3(exact, 1);
    rules_dice_expr *e = NULL;
    ck_assert_int_eq(rules_dice_parse("4d6kh3", &e, NULL), 0);
    for (int o = 0; o < 1296; o++) {
        int faces[4] = {o / 216 % 6 + 1, o / 36 % 6 + 1, o / 6 % 6 + 1, o % 6 + 1};
        rules_rng *rng = rules_rng_scripted(faces, 4);
        json_t *r = rules_dice_roll(e, rng);
        got[json_integer_value(json_object_get(r, "total"))]++;
        ck_assert_int_eq(rules_rng_exhausted(rng), 0);
        json_decref(r);
        rules_rng_destroy(rng);
    }
    rules_dice_free(e);
    for (int t = 0; t <= 18; t++)
        ck_assert_int_eq(got[t], exact[t]);
}
END_TEST

START_TEST(mean_of_3d6_minus_1_is_exactly_9_5)
{
    /* All 216 outcomes of 3d6-1 through the roller: the totals sum to 216 * 9.5 = 2052, each
     * total is the face sum minus one, and 3d6-1 spans 2..17. */
    rules_dice_expr *e = NULL;
    ck_assert_int_eq(rules_dice_parse("3d6-1", &e, NULL), 0);
    long sum = 0, lo = 100, hi = -100;
    for (int o = 0; o < 216; o++) {
        int faces[3] = {o / 36 + 1, o / 6 % 6 + 1, o % 6 + 1};
        rules_rng *rng = rules_rng_scripted(faces, 3);
        json_t *r = rules_dice_roll(e, rng);
        long total = (long)json_integer_value(json_object_get(r, "total"));
        ck_assert_int_eq(total, faces[0] + faces[1] + faces[2] - 1);
        sum += total;
        lo = total < lo ? total : lo;
        hi = total > hi ? total : hi;
        json_decref(r);
        rules_rng_destroy(rng);
    }
    rules_dice_free(e);
    ck_assert_int_eq(sum * 2, 216 * 19); /* mean 9.5, kept in integers */
    ck_assert_int_eq(lo, 2);
    ck_assert_int_eq(hi, 17);
}
END_TEST

/* ---- the forms players know from Roll20: each against its exact distribution ---- */

/* Rolls expr n times (seeded) and counts totals lo..hi into counts[total - lo]; a total outside
 * lo..hi fails the test. */
static void sample(const char *expr, uint64_t seed, long n, long *counts, int lo, int hi)
{
    rules_dice_expr *e = NULL;
    tb_err err;
    tb_err_clear(&err);
    ck_assert_msg(rules_dice_parse(expr, &e, &err) == 0, "%s: %s", expr, err.msg);
    rules_rng *rng = rules_rng_seeded(seed);
    memset(counts, 0, (size_t)(hi - lo + 1) * sizeof counts[0]);
    for (long i = 0; i < n; i++) {
        json_t *r = rules_dice_roll(e, rng);
        json_int_t total = json_integer_value(json_object_get(r, "total"));
        ck_assert_msg(total >= lo && total <= hi, "%s rolled %lld", expr, (long long)total);
        counts[total - lo]++;
        json_decref(r);
    }
    rules_rng_destroy(rng);
    rules_dice_free(e);
}

/* dist[k] of one die's face (1..sides), each 1/sides. */
static void uniform(double *dist, int size, int lo, int hi)
{
    memset(dist, 0, (size_t)size * sizeof dist[0]);
    for (int v = lo; v <= hi; v++)
        dist[v] = 1.0 / (hi - lo + 1);
}

/* out = a convolved with b (sizes na, nb; out has na + nb - 1 entries). */
static void convolve(const double *a, int na, const double *b, int nb, double *out)
{
    memset(out, 0, (size_t)(na + nb - 1) * sizeof out[0]);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            out[i + j] += a[i] * b[j];
}

enum { DN = 60000, XMAX = 90 };

/* One d6 that explodes on a 6: total 6a + b (b 1..5) with probability 6^-(a+1); index = total. */
static void exploding_d6(double *dist)
{
    memset(dist, 0, (XMAX + 1) * sizeof dist[0]);
    double p = 1.0 / 6;
    for (int a = 0; 6 * a + 5 <= XMAX; a++, p /= 6)
        for (int b = 1; b <= 5; b++)
            dist[6 * a + b] = p;
}

START_TEST(dist_1d6_explode)
{
    long counts[XMAX + 1];
    double right[XMAX + 1], plain[XMAX + 1];
    exploding_d6(right);
    uniform(plain, XMAX + 1, 1, 6);
    sample("1d6!", 0xe1ULL, DN, counts, 0, XMAX);
    const double *wrong[] = {plain};
    const char *names[] = {"no explosion"};
    stats_assert_fits_only("1d6!", counts, DN, right, wrong, names, 1, XMAX + 1);
}
END_TEST

START_TEST(dist_2d6_compound_keep_highest)
{
    /* !! adds the extra rolls into one die, so keeping the highest die keeps a whole chain:
     * max of two exploded totals. Read as '!' (extra dice apart), the highest die is at most 6. */
    long counts[XMAX + 1];
    double x[XMAX + 1], right[XMAX + 1], cdf = 0, wrong_d[XMAX + 1];
    exploding_d6(x);
    for (int t = 0; t <= XMAX; t++) {
        double next = cdf + x[t];
        right[t] = next * next - cdf * cdf;
        cdf = next;
    }
    /* '!' then kh1: the highest single face among the dice rolled: 6 whenever any die is 6 */
    memset(wrong_d, 0, sizeof wrong_d);
    for (int t = 1; t <= 5; t++)
        wrong_d[t] = (double)(t * t - (t - 1) * (t - 1)) / 36.0;
    wrong_d[6] = 11.0 / 36.0;
    sample("2d6!!kh1", 0xc0ULL, DN, counts, 0, XMAX);
    const double *wrong[] = {wrong_d};
    const char *names[] = {"exploded dice kept apart"};
    stats_assert_fits_only("2d6!!kh1", counts, DN, right, wrong, names, 1, XMAX + 1);
}
END_TEST

START_TEST(dist_reroll_and_reroll_once)
{
    long counts[7];
    double until[7], once[7];
    uniform(until, 7, 2, 6);
    memset(once, 0, sizeof once);
    once[1] = 1.0 / 36;
    for (int v = 2; v <= 6; v++)
        once[v] = 7.0 / 36;
    const double *w1[] = {once};
    const double *w2[] = {until};
    const char *n1[] = {"rerolled once"}, *n2[] = {"rerolled until it is not 1"};
    sample("1d6r1", 0x71ULL, DN, counts, 0, 6);
    stats_assert_fits_only("1d6r1", counts, DN, until, w1, n1, 1, 7);
    sample("1d6ro1", 0x72ULL, DN, counts, 0, 6);
    stats_assert_fits_only("1d6ro1", counts, DN, once, w2, n2, 1, 7);

    /* 2d6r<2: each die 3..6 */
    long c2[13];
    double one[7], right[13], wrong_once[13], die_once[7];
    uniform(one, 7, 3, 6);
    convolve(one, 7, one, 7, right);
    memset(die_once, 0, sizeof die_once);
    for (int v = 1; v <= 6; v++) /* a 1 or 2 rerolled once */
        die_once[v] = (v <= 2 ? 2.0 / 36 : 1.0 / 6 + 2.0 / 36);
    convolve(die_once, 7, die_once, 7, wrong_once);
    const double *w3[] = {wrong_once};
    const char *n3[] = {"rerolled once"};
    sample("2d6r<2", 0x73ULL, DN, c2, 0, 12);
    stats_assert_fits_only("2d6r<2", c2, DN, right, w3, n3, 1, 13);
}
END_TEST

/* Binomial(n, p) over 0..n into dist. */
static void binomial(double *dist, int n, double p)
{
    for (int k = 0; k <= n; k++) {
        double c = 1;
        for (int i = 0; i < k; i++)
            c = c * (n - i) / (i + 1);
        dist[k] = c * pow(p, k) * pow(1 - p, n - k);
    }
}

START_TEST(dist_successes_and_failures)
{
    /* 5d6>5: '>' is "5 or higher" (Roll20), p = 1/3; the wrong reading "higher than 5" 1/6 */
    long counts[6];
    double right[6], strict[6];
    binomial(right, 5, 1.0 / 3);
    binomial(strict, 5, 1.0 / 6);
    const double *w[] = {strict};
    const char *n[] = {"strictly greater"};
    sample("5d6>5", 0x55ULL, DN, counts, 0, 5);
    stats_assert_fits_only("5d6>5", counts, DN, right, w, n, 1, 6);

    /* 6d10>8f1: each die +1 (8, 9, 10), -1 (a 1) or 0; totals -6..6 at index total + 6 */
    long c2[13];
    double die[3] = {0.1, 0.6, 0.3}, acc[13] = {1}, tmp[13], nofail[13];
    int size = 1;
    for (int d = 0; d < 6; d++) {
        convolve(acc, size, die, 3, tmp);
        size += 2;
        memcpy(acc, tmp, (size_t)size * sizeof acc[0]);
    }
    memset(nofail, 0, sizeof nofail);
    binomial(nofail + 6, 6, 0.3);
    const double *w2[] = {nofail};
    const char *n2[] = {"failures not counted"};
    sample("6d10>8f1", 0x68ULL, DN, c2, -6, 6);
    stats_assert_fits_only("6d10>8f1", c2, DN, acc, w2, n2, 1, 13);
}
END_TEST

START_TEST(dist_bare_d_drops_the_lowest)
{
    long counts[19], exact[19], wrong[19];
    double right[19], high[19];
    enumerate_4d6_keep3(exact, 1);
    enumerate_4d6_keep3(wrong, 0);
    for (int t = 0; t <= 18; t++) {
        right[t] = exact[t] / 1296.0;
        high[t] = wrong[t] / 1296.0;
    }
    const double *w[] = {high};
    const char *n[] = {"drops the highest"};
    sample("4d6d1", 0x4d61ULL, DN, counts, 0, 18);
    stats_assert_fits_only("4d6d1", counts, DN, right, w, n, 1, 19);
}
END_TEST

START_TEST(dist_fate_dice)
{
    /* 4dF: four of -1/0/+1; index = total + 4. Wrong: a coin of -1/+1 (no blank). */
    long counts[9];
    double f[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3}, acc[9] = {1}, tmp[9], coin[9] = {0};
    int size = 1;
    for (int d = 0; d < 4; d++) {
        convolve(acc, size, f, 3, tmp);
        size += 2;
        memcpy(acc, tmp, (size_t)size * sizeof acc[0]);
    }
    double c[5];
    binomial(c, 4, 0.5);
    for (int k = 0; k <= 4; k++)
        coin[2 * k] = c[k]; /* k pluses of 4: total 2k - 4 */
    const double *w[] = {coin};
    const char *n[] = {"no blank face"};
    sample("4dF", 0xfULL, DN, counts, -4, 4);
    stats_assert_fits_only("4dF", counts, DN, acc, w, n, 1, 9);
}
END_TEST

START_TEST(dist_arithmetic)
{
    /* (1d4+1)*2: 4, 6, 8, 10; read without the parentheses (1d4+2): 3..6 */
    long counts[11];
    double right[11] = {0}, flat[11] = {0};
    for (int v = 1; v <= 4; v++) {
        right[(v + 1) * 2] = 0.25;
        flat[v + 2] = 0.25;
    }
    const double *w[] = {flat};
    const char *n[] = {"parentheses ignored"};
    sample("(1d4+1)*2", 0xa1ULL, DN, counts, 0, 10);
    stats_assert_fits_only("(1d4+1)*2", counts, DN, right, w, n, 1, 11);

    /* 1d6/2 rounds down: 0, 1, 1, 2, 2, 3; rounding up would give 1, 1, 2, 2, 3, 3 */
    long c2[4];
    double down[4] = {1.0 / 6, 2.0 / 6, 2.0 / 6, 1.0 / 6}, up[4] = {0, 2.0 / 6, 2.0 / 6, 2.0 / 6};
    const double *w2[] = {up};
    const char *n2[] = {"rounded up"};
    sample("1d6/2", 0xa2ULL, DN, c2, 0, 3);
    stats_assert_fits_only("1d6/2", c2, DN, down, w2, n2, 1, 4);

    /* exactly, over every face: -(1d4+2) is minus the sum; 2*3-4/2 is 4 */
    json_t *r = NULL;
    for (int f = 1; f <= 4; f++) {
        rules_rng *rng = rules_rng_scripted(&f, 1);
        ck_assert_int_eq(rules_dice_roll_text("-(1d4+2)", rng, &r, NULL), 0);
        ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), -(f + 2));
        json_decref(r);
        rules_rng_destroy(rng);
    }
    rules_rng *rng = rules_rng_seeded(1);
    ck_assert_int_eq(rules_dice_roll_text("2*3-4/2", rng, &r, NULL), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), 4);
    ck_assert_str_eq(json_string_value(json_object_get(r, "formula")), "2*3-4/2");
    json_decref(r);
    ck_assert_int_eq(rules_dice_roll_text("(0-7)/2", rng, &r, NULL), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), -4); /* down: -3.5 -> -4 */
    json_decref(r);
    rules_rng_destroy(rng);
}
END_TEST

START_TEST(explosions_stop_at_the_roll_cap)
{
    /* 100d1000!>2 explodes 999 times in 1000: the cap ends it, and says so */
    rules_rng *rng = rules_rng_seeded(7);
    json_t *r = NULL;
    ck_assert_int_eq(rules_dice_roll_text("100d1000!>2", rng, &r, NULL), 0);
    ck_assert(json_is_true(json_object_get(r, "capped")));
    ck_assert_int_eq(json_array_size(json_object_get(r, "dice")), RULES_DICE_MAX_ROLLS);
    json_decref(r);
    /* an ordinary explosion is not capped */
    ck_assert_int_eq(rules_dice_roll_text("3d6!", rng, &r, NULL), 0);
    ck_assert_ptr_null(json_object_get(r, "capped"));
    json_decref(r);
    rules_rng_destroy(rng);
}
END_TEST

static const struct {
    const char *expr;
    int faces[6];
    size_t nfaces;
    const char *words;
} worded[] = {
    {"4d6kh3", {3, 6, 6, 4}, 4, "4d6kh3: rolled 6, 6, 4 (kept) and 3 = 16"},
    {"d20+5 [to hit]", {14}, 1, "1d20+5[to hit]: rolled 14, plus 5 (to hit) = 19"},
    {"6d10>8", {9, 10, 3, 8, 1, 2}, 6, "6d10>8: rolled 9, 10, 3, 8, 1, 2: 3 successes = 3"},
    {"-1d4+3", {2}, 1, "-1d4+3: minus rolled 2, plus 3 = 1"},
    {"4dF", {1, 2, 3, 3}, 4, "4dF: rolled minus, blank, plus, plus = 1"},
    {"(1d4+1)*2", {3}, 1, "(1d4+1)*2: rolled 3, plus 1, plus 2; (3+1)*2 = 8"},
};

START_TEST(a_roll_in_words)
{
    rules_rng *rng = rules_rng_scripted(worded[_i].faces, worded[_i].nfaces);
    json_t *r = NULL;
    ck_assert_int_eq(rules_dice_roll_text(worded[_i].expr, rng, &r, NULL), 0);
    char buf[256];
    rules_dice_words(r, buf, sizeof buf);
    ck_assert_str_eq(buf, worded[_i].words);
    /* a short buffer is cut, never overrun */
    char small[8];
    rules_dice_words(r, small, sizeof small);
    ck_assert_int_eq(strlen(small), 7);
    json_decref(r);
    rules_rng_destroy(rng);
}
END_TEST

static Suite *dice_suite(void)
{
    Suite *s = suite_create("dice");
    TCase *tc = tcase_create("parser");
    tcase_add_loop_test(tc, parser_accepts_and_canonicalizes, 0, (int)N_ELEMS(accepted));
    tcase_add_loop_test(tc, parser_rejects_with_a_clear_message, 0, (int)N_ELEMS(rejected));
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_add_test(tc, limit_expression_length_200);
    tcase_add_test(tc, limit_total_dice_100);
    tcase_add_test(tc, limit_sides_1_to_1000);
    tcase_add_test(tc, limit_dice_count_at_least_1);
    tcase_add_test(tc, limit_keep_and_drop_counts);
    tcase_add_test(tc, limit_constants_0_to_100000);
    tcase_add_test(tc, limit_20_terms);
    suite_add_tcase(s, tc);

    tc = tcase_create("roll");
    tcase_add_loop_test(tc, roll_with_scripted_faces_gives_exact_result, 0, (int)N_ELEMS(rolls));
    tcase_add_test(tc, roll_result_keys_in_documented_order);
    tcase_add_test(tc, roll_text_reports_parse_errors_and_null_result);
    tcase_add_test(tc, roll_text_again_is_a_fresh_parse);
    tcase_add_test(tc, scripted_rng_running_out_is_visible_after_the_roll);
    tcase_add_loop_test(tc, every_roll_adds_up, 0, (int)N_ELEMS(invariant_exprs));
    suite_add_tcase(s, tc);

    tc = tcase_create("distribution");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dist_4d6kh3_matches_exact_distribution);
    tcase_add_test(tc, dist_2d20kl1_matches_exact_distribution);
    tcase_add_test(tc, exhaustive_4d6kh3_over_all_1296_outcomes);
    tcase_add_test(tc, mean_of_3d6_minus_1_is_exactly_9_5);
    tcase_add_test(tc, dist_1d6_explode);
    tcase_add_test(tc, dist_2d6_compound_keep_highest);
    tcase_add_test(tc, dist_reroll_and_reroll_once);
    tcase_add_test(tc, dist_successes_and_failures);
    tcase_add_test(tc, dist_bare_d_drops_the_lowest);
    tcase_add_test(tc, dist_fate_dice);
    tcase_add_test(tc, dist_arithmetic);
    tcase_add_test(tc, explosions_stop_at_the_roll_cap);
    tcase_add_loop_test(tc, a_roll_in_words, 0, (int)N_ELEMS(worded));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(dice_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
