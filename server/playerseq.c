#include "playerseq.h"

#include <stdio.h>
#include <string.h>

#include "protocol.h"

int64_t playerseq_get(const json_t *state, int64_t seq)
{
    json_t *v = json_object_get(json_object_get(state, "gm"), "player_seq");
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : seq;
}

/* 1 when some player (any seat but the GM) may see a change of the patch. */
static int playerseq__visible(const json_t *patch)
{
    json_t *everyone = NULL, *touched = NULL;
    int r = proto_patch_audiences(patch, &everyone, &touched);
    int visible = r != 0 || json_array_size(everyone) > 0 || json_object_size(touched) > 0;
    json_decref(everyone);
    json_decref(touched);
    return visible;
}

int64_t playerseq_advance(const json_t *base, int64_t base_seq, json_t *new_state, json_t *patch)
{
    json_t *had = json_object_get(json_object_get(base, "gm"), "player_seq");
    int64_t before = json_is_integer(had) ? (int64_t)json_integer_value(had) : base_seq;
    int visible = playerseq__visible(patch);
    if (json_is_integer(had) && !visible)
        return before;
    int64_t after = before + visible;
    json_t *gm = json_object_get(new_state, "gm");
    if (json_is_object(gm)) {
        /* /gm may be shared with the committed state (server/workcopy.h): a shallow copy */
        json_t *copy = json_copy(gm);
        json_object_set_new(copy, "player_seq", json_integer(after));
        json_object_set_new(new_state, "gm", copy);
        json_array_append_new(patch, json_pack("{s:s, s:s, s:I}", "op", had ? "replace" : "add",
                                               "path", PLAYERSEQ_PATH, "value", (json_int_t)after));
    } else {
        json_object_set_new(new_state, "gm", json_pack("{s:I}", "player_seq", (json_int_t)after));
        json_array_append_new(patch, json_pack("{s:s, s:s, s:{s:I}}", "op", "add", "path", "/gm",
                                               "value", "player_seq", (json_int_t)after));
    }
    return after;
}

int playerseq_in_patch(const json_t *patch, int64_t *value, int *intro)
{
    size_t i;
    json_t *op;
    *intro = 0;
    json_array_foreach(patch, i, op)
    {
        const char *path = json_string_value(json_object_get(op, "path"));
        const char *kind = json_string_value(json_object_get(op, "op"));
        json_t *v = json_object_get(op, "value");
        if (!path || !kind)
            continue;
        if (strcmp(path, PLAYERSEQ_PATH) == 0 && json_is_integer(v)) {
            *value = (int64_t)json_integer_value(v);
            *intro = strcmp(kind, "add") == 0;
            return 1;
        }
        if (strcmp(path, "/gm") == 0 && json_is_integer(json_object_get(v, "player_seq"))) {
            *value = (int64_t)json_integer_value(json_object_get(v, "player_seq"));
            *intro = 1;
            return 1;
        }
    }
    return 0;
}

int playerseq_patch_adds_seat(const json_t *patch, const char *seat)
{
    size_t i;
    json_t *op;
    char want[64];
    snprintf(want, sizeof want, "/seats/%s", seat);
    json_array_foreach(patch, i, op)
    {
        const char *path = json_string_value(json_object_get(op, "path"));
        const char *kind = json_string_value(json_object_get(op, "op"));
        if (path && kind && strcmp(kind, "add") == 0 && strcmp(path, want) == 0)
            return 1;
    }
    return 0;
}
