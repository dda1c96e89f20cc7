/* Fuzz harness 4: the whole pipeline through the public API, against a small
** generated game directory (made once per process in a temporary directory:
** several trees, header-only xanims, some missing, one out of date, one
** truncated).
**
** Input layout: byte 0 = options, the rest = the script.
**   bits 0-1 profile (uo, cod1, cod2, cod4); bit 2 anim_check; bit 3 no_xanim;
**   bit 4 register engine anims first (multiplayer:torso, human:root);
**   bit 5 compile the script a second time as another file;
**   bits 6-7 == 3: syntax_only. */
#include "fuzz_common.h"
#include "os/os.h"
#include "atrc.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

/* The game directory: trees by file name, then assets. */
static const char *const pipef_trees[][2] = {
    {"human.atr",
     "// a small human tree\n"
     "stand\n{\n\tidle\n\talert\n\taim_up\n}\n"
     "walk : complete loopsync\n{\n\twalk_f\n\twalk_l\n\twalk_r\n}\n"
     "pose\n{\n\tpose_a\n\tpose_b\n}\n"
     "death : nonloopsync\n{\n\tdie_front\n\tdie_back\n}\n"
     "reload\n"},
    {"Turret.ATR", "turret_idle\nturret_fire : nonloopsync\n{\n\tfire_l\n\tfire_r\n}\n"},
    {"multiplayer.atr", "torso\n{\n\ttorso_idle\n}\nlegs\n{\n\tlegs_run\n}\n"},
    {"broken.atr", "a\n{\n\tb c\n}\n"},
    {"empty.atr", ""},
    {"dup.atr", "p\n{\n\tshared\n}\nq\n{\n\tshared\n}\n"},
    {"sync.atr",
     "g : loopsync\n{\n\tlooped\n\tnot_looped\n\tinner : nonloopsync\n\t{\n\t\tlooped\n\t}\n}\n"
     "both : loopsync nonloopsync\n{\n\tlooped\n}\n"
     "missing_asset\n"},
    {"cod4.atr", "base\n{\n\tidle\n}\nadd : additive\n{\n\tlean : additive\n\t{\n\t\tlean_l\n\t}\n}\n"},
};

/* name, looping (-1: out of date, -2: truncated) */
static const struct { const char *name; int looping; } pipef_assets[] = {
    {"idle", 1}, {"alert", 1}, {"aim_up", 0}, {"walk_f", 1}, {"walk_l", 1}, {"walk_r", 0},
    {"pose_a", 0}, {"pose_b", 0}, {"die_front", 0}, {"die_back", 0}, {"reload", -1},
    {"turret_idle", 1}, {"fire_l", 0}, {"FIRE_R", 0}, {"torso_idle", 1}, {"legs_run", -2},
    {"shared", 0}, {"looped", 1}, {"not_looped", 0}, {"void", 0}, {"void_loop", 1},
    {"lean_l", 0},
};

static char pipef_dir[64];

static void pipef_write(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    if (!fp || (len && fwrite(data, 1, len, fp) != len) || fclose(fp) != 0) abort();
}

static void pipef_cleanup(void)
{
    char path[256];
    for (size_t i = 0; i < sizeof pipef_trees / sizeof *pipef_trees; i++) {
        snprintf(path, sizeof path, "%s/animtrees/%s", pipef_dir, pipef_trees[i][0]);
        unlink(path);
    }
    for (size_t i = 0; i < sizeof pipef_assets / sizeof *pipef_assets; i++) {
        snprintf(path, sizeof path, "%s/xanim/%s", pipef_dir, pipef_assets[i].name);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/animtrees", pipef_dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/xanim", pipef_dir);
    rmdir(path);
    rmdir(pipef_dir);
}

static const char *pipef_game_dir(void)
{
    if (pipef_dir[0]) return pipef_dir;
    const char *tmp = getenv("TMPDIR");
    snprintf(pipef_dir, sizeof pipef_dir, "%s/atrc-fuzz-game-XXXXXX",
             tmp && *tmp && strlen(tmp) < 30 ? tmp : "/tmp");
    if (!os_make_temp_dir(pipef_dir)) abort();
    atexit(pipef_cleanup);
    char path[256];
    snprintf(path, sizeof path, "%s/animtrees", pipef_dir);
    if (os_mkdir(path, 0777) != 0) abort();
    snprintf(path, sizeof path, "%s/xanim", pipef_dir);
    if (os_mkdir(path, 0777) != 0) abort();
    for (size_t i = 0; i < sizeof pipef_trees / sizeof *pipef_trees; i++) {
        snprintf(path, sizeof path, "%s/animtrees/%s", pipef_dir, pipef_trees[i][0]);
        pipef_write(path, pipef_trees[i][1], strlen(pipef_trees[i][1]));
    }
    for (size_t i = 0; i < sizeof pipef_assets / sizeof *pipef_assets; i++) {
        int loop = pipef_assets[i].looping;
        /* version 14, 30 frames, 1 bone, flags, rate 30 */
        unsigned char h[9] = {14, 0, 30, 0, 1, 0, (unsigned char)(loop == 1), 30, 0};
        if (loop == -1) h[0] = 17;
        snprintf(path, sizeof path, "%s/xanim/%s", pipef_dir, pipef_assets[i].name);
        pipef_write(path, h, loop == -2 ? 4 : sizeof h);
    }
    return pipef_dir;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    unsigned opt = data[0];
    atrc_options o;
    memset(&o, 0, sizeof o);
    o.profile = (atrc_profile)(opt & 3u);
    o.anim_check = (opt & 4u) != 0;
    o.no_xanim = (opt & 8u) != 0;
    o.syntax_only = (opt & 0xC0u) == 0xC0u;
    o.show_pruned = (opt & 0xC0u) == 0x40u;
    const char *script = (const char *)data + 1;
    size_t len = size - 1;

    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, pipef_game_dir());
    if (opt & 16u) {
        if (atrc_add_engine_anim(ctx, "multiplayer", "torso") != 0) abort();
        if (atrc_add_engine_anim(ctx, "human", "root") != 0) abort();
    }
    if (atrc_add_script_buffer(ctx, "a.gsc", script, len) != 0) abort();
    if ((opt & 32u) && atrc_add_script_buffer(ctx, "b.gsc", script, len) != 0) abort();
    atrc_build_trees(ctx);

    FILE *sink = fuzz_sink();
    if (atrc_emit(ctx, ATRC_FORMAT_TEXT, 1, sink) != 0) abort();
    if (atrc_emit(ctx, ATRC_FORMAT_DOT, 1, sink) != 0) abort();
    /* atrc's own JSON must read back, and a run compared with itself has no differences. */
    char *json = NULL;
    size_t json_len = 0;
    FILE *mem = os_memstream_open(&json, &json_len);
    if (!mem || atrc_emit(ctx, ATRC_FORMAT_JSON, 1, mem) != 0 || os_memstream_close(mem, &json, &json_len) != 0) abort();
    if (atrc_diff_buffers("a.json", json, json_len, "b.json", json, json_len, ATRC_FORMAT_JSON, sink, sink) != 0)
        abort();
    free(json);
    atrc_print_diagnostics(ctx, sink);
    int trees = atrc_tree_count(ctx);
    if (trees < 0 || trees > ATRC_MAX_TREES) abort();
    for (int i = 1; i <= trees; i++) {
        if (!atrc_tree_name(ctx, i)) abort();
        const atrc_tree *t = atrc_get_tree(ctx, i);
        int nodes = t ? t->node_count : 1;
        atrc_explain(ctx, ((uint32_t)i << 16) | (uint32_t)(nodes - 1), ATRC_FORMAT_TEXT, sink, sink);
        atrc_explain(ctx, ((uint32_t)i << 16) | (uint32_t)nodes, ATRC_FORMAT_JSON, sink, sink);
    }
    atrc_explain(ctx, 0xFFFFFFFFu, ATRC_FORMAT_TEXT, sink, sink);
    atrc_free(ctx);
    return 0;
}
