/* The load walk: the per-file reference list in emission order (a pure
** function of the AST), the engine's depth-first pre-order walk over a game
** directory, its link errors, developer blocks per profile, the engine's
** registrations after the scripts and mp/playeranim.script. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/profile.h"
#include "tmpdir_testlib.h"
#include "atrc.h"
#include "compile/context.h"
#include "tree/playeranim.h"
#include "script/script_parse.h"
#include "script/script_refs.h"
#include "compile/walk.h"

/* ---- the reference list of one file ---- */

static char out[65536];

static const char *refs_of(const char *text)
{
    source_file *src = source_from_buffer("t.gsc", text, strlen(text));
    diag_list d;
    diag_init(&d);
    arena a;
    arena_init(&a);
    ast_node *root = script_parse(src, profile_get(ATRC_PROFILE_COD2), NULL, &a, &d);
    ck_assert_int_eq(d.errors, 0);
    script_refs r;
    script_refs_init(&r);
    for (ast_node *item = root->child; item; item = item->next) script_refs_collect(&r, item);
    size_t n = 0;
    out[0] = 0;
    static const char *const kinds[] = {"include", "far", "local"};
    for (size_t i = 0; i < r.refs.count; i++) {
        const script_ref *x = &r.refs.items[i];
        n += (size_t)snprintf(out + n, sizeof out - n, "%s %s%s%s %d:%d%s%s\n", kinds[x->kind],
                              x->file ? x->file : "", x->func ? "::" : "", x->func ? x->func : "",
                              x->line, x->col, x->developer ? " dev" : "", x->maybe_builtin ? " builtin?" : "");
    }
    for (size_t i = 0; i < r.funcs.count; i++)
        n += (size_t)snprintf(out + n, sizeof out - n, "def %s %d:%d%s\n", r.funcs.items[i].name, r.funcs.items[i].line,
                              r.funcs.items[i].col, r.funcs.items[i].developer ? " dev" : "");
    for (size_t i = 0; i < r.trees.count; i++)
        n += (size_t)snprintf(out + n, sizeof out - n, "tree %s\n", r.trees.items[i].name);
    script_refs_free(&r);
    arena_free_all(&a);
    diag_free(&d);
    source_free(src);
    return out;
}

START_TEST(call_arguments_last_to_first_then_callee)
{
    ck_assert_str_eq(refs_of("f() { a::x(b::y(), c\\C::z()); }\n"),
                     "far c/c::z 1:20\nfar b::y 1:12\nfar a::x 1:7\ndef f 1:1\n");
}
END_TEST

START_TEST(assignment_right_side_first_index_before_object)
{
    ck_assert_str_eq(refs_of("f() {\n  w[b::y()] = c::z();\n  w[d::i()] += e::r();\n}\n"),
                     "far c::z 2:15\nfar b::y 2:5\nfar d::i 3:5\nfar e::r 3:16\ndef f 1:1\n");
}
END_TEST

START_TEST(for_step_after_body)
{
    ck_assert_str_eq(refs_of("f() { for (a::i(); b::c(); d::s()) e::b(); }\n"),
                     "far a::i 1:12\nfar b::c 1:20\nfar e::b 1:36\nfar d::s 1:28\ndef f 1:1\n");
}
END_TEST

START_TEST(method_call_arguments_object_callee)
{
    ck_assert_str_eq(refs_of("f() { c::h() thread a::f(b::g()); [[ p::q ]](r::s()); }\n"),
                     "far b::g 1:26\nfar c::h 1:7\nfar a::f 1:21\nfar r::s 1:46\nfar p::q 1:38\ndef f 1:1\n");
}
END_TEST

START_TEST(includes_locals_developer_code_and_definitions)
{
    ck_assert_str_eq(refs_of("#include maps\\MP\\_Utility;\n"
                             "#using_animtree(\"Gh\");\n"
                             "f() { g(); thread h(); x = ::k; o m(); /# d::x(); #/ }\n"
                             "/#\ndev() { e::y(); }\n#/\n"),
                     "include maps/mp/_utility 1:1\n"
                     "local ::g 3:7 builtin?\nlocal ::h 3:19\nlocal ::k 3:28\nlocal ::m 3:35 builtin?\n"
                     "far d::x 3:43 dev\nfar e::y 5:9 dev\n"
                     "def f 3:1\ndef dev 5:1 dev\ntree gh\n");
}
END_TEST

START_TEST(canonical_names)
{
    arena a;
    arena_init(&a);
    ck_assert_str_eq(script_canonical_name(&a, "\\Maps//MP\\\\_Utility", 19), "maps/mp/_utility");
    ck_assert_str_eq(script_canonical_name(&a, "maps/x.gsc", 10), "maps/x.gsc");
    /* bytes below 0x20 are skipped (stock-behavior.md 5.6); they were kept */
    ck_assert_str_eq(script_canonical_name(&a, "maps/\tmp\x01/_util\x1fity", 19), "maps/mp/_utility");
    ck_assert_str_eq(script_canonical_name(&a, "\x7f\x20x", 3), "\x7f\x20x");
    /* only len bytes are read */
    ck_assert_str_eq(script_canonical_name(&a, "MAPS\\x", 4), "maps");
    arena_free_all(&a);
}
END_TEST

/* ---- the walk over a game directory ---- */

static tmp_game game;

static void write_file(const char *rel, const char *data)
{
    tmp_game_put(&game, rel, data);
}

static void setup(void)
{
    tmp_game_make(&game, "walk");
}

static void teardown(void)
{
    tmp_game_remove(&game);
}

/* msg with every "GAME_DIR/" dropped (the paths messages name), in a static buffer. */
static const char *relative_message(const char *msg)
{
    static char buf[1 << 14];
    size_t dl = strlen(game.dir), k = 0;
    for (const char *p = msg; *p && k + 1 < sizeof buf;) {
        if (strncmp(p, game.dir, dl) == 0 && p[dl] == '/') p += dl + 1;
        else buf[k++] = *p++;
    }
    buf[k] = 0;
    return buf;
}

/* "name <- from [trees]" per script in load order, then the diagnostics as
** "file:L:C: severity: message" (file relative to the game directory, also
** inside the message). */
static const char *render(atrc_ctx *ctx)
{
    size_t n = 0;
    out[0] = 0;
    size_t skip = strlen(game.dir) + 1;
    if (ctx->walk)
        for (size_t i = 0; i < ctx->walk->scripts.count; i++) {
            const walk_script *s = ctx->walk->scripts.items[i];
            n += (size_t)snprintf(out + n, sizeof out - n, "%s <- %s%s", s->name,
                                  s->from ? s->from->name : "engine", s->file ? "" : " (missing)");
            for (size_t k = 0; k < s->trees.count; k++)
                n += (size_t)snprintf(out + n, sizeof out - n, " %s[%d]", s->trees.items[k]->name, s->trees.items[k]->index);
            n += (size_t)snprintf(out + n, sizeof out - n, "\n");
        }
    for (size_t i = 0; i < ctx->diags.count; i++) {
        const diag *g = &ctx->diags.items[i];
        const char *sev = g->severity == DIAG_ERROR ? "error" : "warning";
        if (g->src)
            n += (size_t)snprintf(out + n, sizeof out - n, "%s:%d:%d: %s: %s\n",
                                  strlen(g->src->path) > skip ? g->src->path + skip : g->src->path, g->line,
                                  g->col, sev, relative_message(g->message));
        else
            n += (size_t)snprintf(out + n, sizeof out - n, "%s: %s\n", sev, relative_message(g->message));
    }
    return out;
}

static atrc_ctx *new_ctx(atrc_profile profile, int developer)
{
    atrc_options o = {0};
    o.profile = profile;
    o.developer_script = developer;
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, game.dir);
    return ctx;
}

static const char *walk(atrc_profile profile, int developer, const char *entry)
{
    atrc_ctx *ctx = new_ctx(profile, developer);
    atrc_walk_script(ctx, entry);
    render(ctx);
    atrc_free(ctx);
    return out;
}

START_TEST(includes_first_then_emission_order_depth_first)
{
    write_file("maps/top.gsc", "#include maps\\inc_b;\n#include maps\\inc_a;\n#using_animtree(\"t_top\");\n"
                               "main() { maps\\one::f(maps\\two::g()); }\n");
    write_file("maps/inc_b.gsc", "#using_animtree(\"t_b\");\nb() { maps\\deep::d(); }\n");
    write_file("maps/inc_a.gsc", "#using_animtree(\"t_a\");\na() {}\n");
    write_file("maps/deep.gsc", "#using_animtree(\"t_deep\");\nd() {}\n");
    write_file("maps/one.gsc", "#using_animtree(\"t_one\");\nf(x) {}\n");
    write_file("maps/two.gsc", "#using_animtree(\"t_two\");\n#using_animtree(\"t_top\");\ng() {}\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 0, "maps/top"),
                     "maps/top <- engine t_top[1]\n"
                     "maps/inc_b <- maps/top t_b[2]\n"
                     "maps/deep <- maps/inc_b t_deep[3]\n"
                     "maps/inc_a <- maps/top t_a[4]\n"
                     "maps/two <- maps/top t_two[5] t_top[1]\n"
                     "maps/one <- maps/top t_one[6]\n");
}
END_TEST

START_TEST(cycles_and_repeats_load_once)
{
    write_file("maps/a.gsc", "main() { maps\\b::f(); maps\\a::g(); maps\\b::f(); }\ng() {}\n");
    write_file("maps/b.gsc", "f() { maps\\a::g(); maps\\c::h(); }\n");
    write_file("maps/c.gsc", "h() { maps\\b::f(); }\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_UO, 0, "maps/a.gsc"),
                     "maps/a <- engine\nmaps/b <- maps/a\nmaps/c <- maps/b\n");
}
END_TEST

START_TEST(reference_into_a_file_still_loading_sees_its_includes)
{
    write_file("maps/a.gsc", "#include maps\\i;\nmain() { maps\\b::x(); }\n");
    write_file("maps/i.gsc", "from_i() {}\n");
    write_file("maps/b.gsc", "x() { maps\\a::from_i(); maps\\a::nowhere(); }\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD4, 0, "maps/a"),
                     "maps/a <- engine\nmaps/i <- maps/a\nmaps/b <- maps/a\n"
                     "maps/b.gsc:1:25: error: unknown function 'nowhere': 'maps/a' (maps/a.gsc) does not define it "
                     "nor do its #includes\n");
}
END_TEST

START_TEST(includes_are_not_transitive)
{
    /* Two includes sharing an include do not clash: only each file's own
    ** functions are copied into the includer. */
    write_file("maps/a.gsc", "#include maps\\b;\n#include maps\\c;\nmain() { thread from_b(); thread from_c(); }\n");
    write_file("maps/b.gsc", "#include maps\\c;\nfrom_b() { thread from_c(); }\n");
    write_file("maps/c.gsc", "from_c() {}\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 0, "maps/a"), "maps/a <- engine\nmaps/b <- maps/a\nmaps/c <- maps/b\n");
    write_file("maps/a.gsc", "#include maps\\b;\nmain() { thread from_b(); thread from_c(); }\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 0, "maps/a"),
                     "maps/a <- engine\nmaps/b <- maps/a\nmaps/c <- maps/b\n"
                     "maps/a.gsc:2:34: error: unknown function 'from_c': not defined in this file or its #includes; "
                     "'maps/c' defines it (maps/c.gsc:1), which this file does not #include: add #include maps\\c; "
                     "or call maps\\c::from_c\n");
}
END_TEST

START_TEST(cod4_pending_list_limit)
{
    /* 1000 entries held by a while b compiles: b's 25th is the 1025th. */
    char *a = malloc(20000), *b = malloc(2000);
    size_t n = (size_t)sprintf(a, "main() {\n");
    for (int i = 0; i < 1000; i++) n += (size_t)sprintf(a + n, "maps\\b::f();\n");
    sprintf(a + n, "}\n");
    n = (size_t)sprintf(b, "f() {\n");
    for (int i = 0; i < 30; i++) n += (size_t)sprintf(b + n, "maps\\a::main();\n");
    sprintf(b + n, "}\n");
    write_file("maps/a.gsc", a);
    write_file("maps/b.gsc", b);
    free(a);
    free(b);
    ck_assert_str_eq(walk(ATRC_PROFILE_COD4, 0, "maps/a"),
                     "maps/a <- engine\nmaps/b <- maps/a\nmaps/b.gsc:26:1: error: MAX_PRECACHE_ENTRIES exceeded\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 0, "maps/a"), "maps/a <- engine\nmaps/b <- maps/a\n");
}
END_TEST

START_TEST(developer_references_follow_only_with_developer_script)
{
    write_file("maps/a.gsc", "main() { /# maps\\dev::x(); #/ maps\\b::y(); }\n/#\nd() { maps\\dev2::z(); }\n#/\n");
    write_file("maps/b.gsc", "y() {}\n");
    write_file("maps/dev.gsc", "x() {}\n");
    write_file("maps/dev2.gsc", "z() {}\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 0, "maps/a"), "maps/a <- engine\nmaps/b <- maps/a\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 1, "maps/a"),
                     "maps/a <- engine\nmaps/dev <- maps/a\nmaps/b <- maps/a\nmaps/dev2 <- maps/a\n");
}
END_TEST

START_TEST(missing_scripts_and_functions)
{
    write_file("maps/a.gsc", "#include maps\\inc;\n"
                             "main() {\n"
                             "  maps\\nope::f();\n"
                             "  maps\\b::missing();\n"
                             "  maps\\nope::g();\n"
                             "  thread local_missing();\n"
                             "  x = ::inc_fn;\n"
                             "  builtin_or_not();\n"
                             "  maps\\b::dev_only();\n"
                             "}\n");
    write_file("maps/inc.gsc", "inc_fn() {}\n");
    write_file("maps/b.gsc", "present() {}\n/#\ndev_only() {}\n#/\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 0, "maps/a"),
                     "maps/a <- engine\nmaps/inc <- maps/a\nmaps/nope <- maps/a (missing)\nmaps/b <- maps/a\n"
                     "maps/a.gsc:3:3: error: Could not find script 'maps/nope'\n"
                     "maps/a.gsc:4:3: error: unknown function 'missing': 'maps/b' (maps/b.gsc) does not define it\n"
                     "maps/a.gsc:9:3: error: unknown function 'dev_only': defined only inside /# ... #/ "
                     "(maps/b.gsc:3), which the game does not compile unless developer_script is set "
                     "(--developer-script)\n"
                     "maps/a.gsc:6:10: error: unknown function 'local_missing': not defined in this file or its "
                     "#includes\n"
                     "maps/a.gsc:8:3: warning: 'builtin_or_not' is not defined in this file or an included one "
                     "and is not a known cod2 builtin function; it may still be a single-player builtin (atrc "
                     "has the cod2 multiplayer table and the single-player names stock scripts use, not the "
                     "single-player table)\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD2, 1, "maps/a"),
                     "maps/a <- engine\nmaps/inc <- maps/a\nmaps/nope <- maps/a (missing)\nmaps/b <- maps/a\n"
                     "maps/a.gsc:3:3: error: Could not find script 'maps/nope'\n"
                     "maps/a.gsc:4:3: error: unknown function 'missing': 'maps/b' (maps/b.gsc) does not define it\n"
                     "maps/a.gsc:9:3: error: normal script cannot reference a function in a /# ... #/ comment\n"
                     "maps/a.gsc:6:10: error: unknown function 'local_missing': not defined in this file or its "
                     "#includes\n"
                     "maps/a.gsc:8:3: warning: 'builtin_or_not' is not defined in this file or an included one "
                     "and is not a known cod2 builtin function; it may still be a single-player builtin (atrc "
                     "has the cod2 multiplayer table and the single-player names stock scripts use, not the "
                     "single-player table)\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_UO, 1, "maps/b"), "maps/b <- engine\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_UO, 0, "maps/none"),
                     "maps/none <- engine (missing)\nerror: Could not find script 'maps/none'\n");
    /* The nearest script of the directory (a typo'd map or gametype). */
    ck_assert_str_eq(walk(ATRC_PROFILE_UO, 0, "maps/incc"),
                     "maps/incc <- engine (missing)\nerror: Could not find script 'maps/incc'; did you mean "
                     "'maps/inc'?\n");
}
END_TEST

START_TEST(duplicate_include_and_missing_include)
{
    write_file("maps/a.gsc", "#include maps\\i;\n#include maps\\gone;\n#include MAPS\\I;\nmain() {}\nG() {}\n");
    write_file("maps/i.gsc", "f() {}\ng() {}\nmain() {}\n/#\ndev() {}\n#/\n");
    ck_assert_str_eq(walk(ATRC_PROFILE_COD4, 0, "maps/a"),
                     "maps/a <- engine\nmaps/i <- maps/a\nmaps/gone <- maps/a (missing)\n"
                     "maps/a.gsc:1:1: error: function 'g' already defined in 'maps/a.gsc'\n"
                     "maps/a.gsc:1:1: error: function 'main' already defined in 'maps/a.gsc'\n"
                     "maps/a.gsc:2:1: error: Could not find script 'maps/gone'\n"
                     "maps/a.gsc:3:1: error: Duplicate #include\n");
}
END_TEST

static const char playeranim[] =
    "// player animations\n"
    "defines\n"
    "set weapons mg42 = mg42 mg34\n"
    "animations\n"
    "state combat\n"
    "{\n"
    "  idle\n"
    "  {\n"
    "    weapons mg42,\n"
    "    {\n"
    "      both standMG42_aim turretanim\n"
    "      legs pb_walk torso PT_Aim duration 100 blendtime 50\n"
    "    }\n"
    "    default\n"
    "    {\n"
    "      torso pt_aim\n"
    "    }\n"
    "  }\n"
    "}\n"
    "events\n"
    "fireweapon\n"
    "{\n"
    "  default\n"
    "  {\n"
    "    legs pb_fire sound weap_fire\n"
    "  }\n"
    "}\n";

static void write_mp(const char *extra_tree_user)
{
    write_file("maps/mp/gametypes/tdm.gsc", "main() { maps\\mp\\_util::f(); }\n");
    write_file("maps/mp/_util.gsc", "#using_animtree(\"gear\");\nf() { x = %a; }\n");
    write_file("maps/mp/gametypes/_callbacksetup.gsc",
               "CodeCallback_StartGameType() {}\nCodeCallback_PlayerConnect() {}\n"
               "CodeCallback_PlayerDisconnect() {}\nCodeCallback_PlayerDamage() {}\n"
               "CodeCallback_PlayerKilled() {}\n");
    if (extra_tree_user) write_file("maps/mp/mp_x.gsc", extra_tree_user);
    write_file("mp/playeranim.script", playeranim);
}

static const char *engine_refs(atrc_ctx *ctx)
{
    size_t n = strlen(out);
    for (const anim_ref *r = ctx->refs; r; r = r->next)
        if (r->kind == REF_ENGINE)
            n += (size_t)snprintf(out + n, sizeof out - n, "engine %s[%d] %s\n", r->tree->name, r->tree->index,
                                  r->name);
    return out;
}

START_TEST(multiplayer_registrations_after_the_scripts)
{
    write_mp("#using_animtree(\"level\");\nmain() {}\n");
    atrc_ctx *ctx = new_ctx(ATRC_PROFILE_COD1, 0);
    ck_assert_int_eq(atrc_load_level(ctx, "mp_x", "tdm", NULL), 0);
    render(ctx);
    ck_assert_str_eq(engine_refs(ctx),
                     "maps/mp/gametypes/tdm <- engine\n"
                     "maps/mp/_util <- maps/mp/gametypes/tdm gear[1]\n"
                     "maps/mp/gametypes/_callbacksetup <- engine\n"
                     "maps/mp/mp_x <- engine level[2]\n"
                     "engine multiplayer[3] root\nengine multiplayer[3] torso\nengine multiplayer[3] legs\n"
                     "engine multiplayer[3] turning\nengine multiplayer[3] standmg42_aim\n"
                     "engine multiplayer[3] pb_walk\nengine multiplayer[3] pt_aim\nengine multiplayer[3] pb_fire\n");
    atrc_free(ctx);
}
END_TEST

START_TEST(cod4_multiplayer_entries_and_names)
{
    write_mp("#using_animtree(\"multiplayer\");\nmain() {}\n");
    write_file("codescripts/delete.gsc", "main() {}\n");
    write_file("codescripts/struct.gsc", "initstructs() {}\n");
    atrc_ctx *ctx = new_ctx(ATRC_PROFILE_COD4, 0);
    atrc_load_level(ctx, "mp_x", "tdm", NULL);
    render(ctx);
    ck_assert_str_eq(engine_refs(ctx),
                     "codescripts/delete <- engine\ncodescripts/struct <- engine\n"
                     "maps/mp/gametypes/tdm <- engine\n"
                     "maps/mp/_util <- maps/mp/gametypes/tdm gear[1]\n"
                     "maps/mp/gametypes/_callbacksetup <- engine\n"
                     "maps/mp/mp_x <- engine multiplayer[2]\n"
                     "error: Could not find label 'createstruct' in script 'codescripts/struct'\n"
                     "error: Could not find label 'CodeCallback_PlayerLastStand' in script "
                     "'maps/mp/gametypes/_callbacksetup'\n"
                     "engine multiplayer[2] torso\nengine multiplayer[2] legs\nengine multiplayer[2] turning\n"
                     "engine multiplayer[2] standmg42_aim\nengine multiplayer[2] pb_walk\n"
                     "engine multiplayer[2] pt_aim\nengine multiplayer[2] pb_fire\n");
    atrc_free(ctx);
}
END_TEST

START_TEST(missing_mandatory_entries_and_optional_level_script)
{
    atrc_ctx *ctx = new_ctx(ATRC_PROFILE_UO, 0);
    atrc_load_level(ctx, "mp_none", "ctf", NULL);
    ck_assert_str_eq(render(ctx),
                     "maps/mp/gametypes/ctf <- engine (missing)\n"
                     "maps/mp/gametypes/_callbacksetup <- engine (missing)\n"
                     "maps/mp/mp_none <- engine (missing)\n"
                     "error: unknown gametype 'ctf': no gametype script is on the search path "
                     "(a UO server would run dm instead)\n"
                     "warning: no map script maps/mp/mp_none.gsc and no map 'mp_none' (maps/mp/mp_none.bsp or "
                     ".d3dbsp) on the search path: is the map name right? (a map without a script is allowed, "
                     "so nothing of it is compiled)\n"
                     "error: Could not find script 'maps/mp/gametypes/ctf'\n"
                     "error: Could not find script 'maps/mp/gametypes/_callbacksetup'\n"
                     "error: Couldn't load player animation script mp/playeranim.script\n");
    atrc_free(ctx);
}
END_TEST

/* The UO server's fallback to dm is UO's alone (its row's note). */
START_TEST(unknown_gametype_note_is_uo_only)
{
    const atrc_profile others[] = {ATRC_PROFILE_COD1, ATRC_PROFILE_COD2, ATRC_PROFILE_COD4};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        atrc_ctx *ctx = new_ctx(others[i], 0);
        atrc_load_level(ctx, "mp_none", "ctf", NULL);
        const char *text = render(ctx);
        ck_assert_ptr_nonnull(strstr(text, "error: unknown gametype 'ctf': no gametype script is on the search path\n"));
        ck_assert_ptr_null(strstr(text, "UO server"));
        atrc_free(ctx);
    }
}
END_TEST

START_TEST(single_player_orders)
{
    write_file("maps/sp1.gsc", "#using_animtree(\"generic_human\");\nmain() { maps\\_u::f(); }\n");
    write_file("maps/_u.gsc", "f() {}\n");
    atrc_ctx *ctx = new_ctx(ATRC_PROFILE_COD2, 0);
    atrc_load_level(ctx, "sp1", NULL, NULL);
    ck_assert_str_eq(render(ctx),
                     "maps/sp1 <- engine generic_human[1]\nmaps/_u <- maps/sp1\n"
                     "warning: the cod2 single-player load order is not known: only maps/sp1 and what it "
                     "reaches are loaded, so tree indices and node numbers may differ from the game's\n");
    atrc_free(ctx);

    /* cod4: codescripts, animscripts, the level, then the entity-driven scripts. */
    write_file("codescripts/delete.gsc", "main() {}\n");
    write_file("codescripts/struct.gsc", "initstructs() {}\ncreatestruct() {}\n");
    static const char *const anims[] = {"combat", "concealment_crouch", "concealment_prone",
        "concealment_stand", "cover_arrival", "cover_crouch", "cover_left", "cover_prone", "cover_right",
        "cover_stand", "cover_wide_left", "cover_wide_right", "death", "grenade_return_throw", "init",
        "pain", "move", "stop", "grenade_cower", "flashed"};
    char rel[128];
    for (size_t i = 0; i < sizeof anims / sizeof *anims; i++) {
        snprintf(rel, sizeof rel, "animscripts/%s.gsc", anims[i]);
        write_file(rel, "main() {}\n");
    }
    write_file("animscripts/scripted.gsc", "main() {}\ninit() {}\n");
    write_file("aitype/axis_dog.gsc", "#using_animtree(\"dog\");\nmain() {}\nprecache() {}\nspawner() {}\n");
    write_file("animscripts/traverse/wall.gsc", "main() {}\n");
    write_file("entities.txt", "actor_Axis_Dog\nactor_axis_dog\n\nnode_negotiation_begin wall\nbogus line\n");
    char entities[512];
    snprintf(entities, sizeof entities, "%s/entities.txt", game.dir);
    ctx = new_ctx(ATRC_PROFILE_COD4, 0);
    ck_assert_int_eq(atrc_load_level(ctx, "sp1", NULL, entities), 0);
    render(ctx);
    const char *dogs = strstr(out, "animscripts/dog_combat <- engine (missing)\n");
    ck_assert_ptr_nonnull(dogs);
    ck_assert_ptr_nonnull(strstr(out, "maps/sp1 <- engine generic_human[1]\nmaps/_u <- maps/sp1\n"
                                      "animscripts/dog_combat"));
    ck_assert_ptr_nonnull(strstr(out, "animscripts/dog_flashed <- engine (missing)\n"
                                      "aitype/axis_dog <- engine dog[2]\nanimscripts/traverse/wall <- engine\n"));
    ck_assert_ptr_nonnull(strstr(out, "error: Could not find script 'animscripts/dog_combat'\n"));
    ck_assert_ptr_nonnull(strstr(out, "entities.txt:5:1: error: expected 'actor_<type>', "
                                      "'node_negotiation_begin <animscript>' or 'turret <script>'\n"));
    ck_assert_ptr_null(strstr(out, "Could not find label"));
    ck_assert_ptr_null(strstr(out, "Could not find animation tree"));
    atrc_free(ctx);

    write_file("maps/sp2.gsc", "main() {}\n");
    ctx = new_ctx(ATRC_PROFILE_COD4, 0);
    atrc_load_level(ctx, "sp2", NULL, NULL);
    ck_assert_ptr_nonnull(strstr(render(ctx), "error: Could not find animation tree 'generic_human'\n"));
    atrc_free(ctx);
}
END_TEST

/* ---- developer blocks per profile (load-order.md 4.6) ---- */

static const char *dev_anim(atrc_profile profile, int developer)
{
    write_file("animtrees/t.atr", "a\nb\n");
    atrc_ctx *ctx = new_ctx(profile, developer);
    const char *script = "#using_animtree(\"t\");\nf() { x = %a; /# y = %b; #/ }\n";
    atrc_add_script_buffer(ctx, "s.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    render(ctx);
    size_t n = strlen(out);
    for (const anim_ref *r = ctx->refs; r; r = r->next)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s %lld%s\n", r->name, (long long)r->value,
                              r->developer ? " developer" : "");
    atrc_free(ctx);
    return out;
}

START_TEST(developer_anim_references_per_profile)
{
    /* cod4 prunes like the game: b is not referenced, so a is node 1. */
    ck_assert_str_eq(dev_anim(ATRC_PROFILE_COD4, 0), "a 65537\nb -1 developer\n");
    ck_assert_str_eq(dev_anim(ATRC_PROFILE_COD4, 1), "a 65538\nb 65537\n");
    ck_assert_str_eq(dev_anim(ATRC_PROFILE_COD2, 0), "a 65538\nb 65537\n");
    ck_assert_str_eq(dev_anim(ATRC_PROFILE_UO, 0),
                     "s.gsc:2:22: error: cannot reference animation from /# ... #/ comment\na 65537\nb -1\n");
}
END_TEST

/* ---- mp/playeranim.script ---- */

static const char *read_playeranim(const char *text)
{
    source_file *src = source_from_buffer("mp/playeranim.script", text, strlen(text));
    diag_list d;
    diag_init(&d);
    playeranim_names names;
    int rc = playeranim_read(src, 0, &d, &names);
    size_t n = (size_t)snprintf(out, sizeof out, "rc %d:", rc);
    for (size_t i = 0; i < names.names.count; i++)
        n += (size_t)snprintf(out + n, sizeof out - n, " %s", names.names.items[i]);
    n += (size_t)snprintf(out + n, sizeof out - n, "\n");
    for (size_t i = 0; i < d.count; i++)
        n += (size_t)snprintf(out + n, sizeof out - n, "%d:%d: %s\n", d.items[i].line, d.items[i].col,
                              d.items[i].message);
    playeranim_names_free(&names);
    diag_free(&d);
    source_free(src);
    return out;
}

START_TEST(playeranim_names_in_first_seen_order)
{
    ck_assert_str_eq(read_playeranim(playeranim), "rc 0: standMG42_aim pb_walk PT_Aim pb_fire\n");
    /* Tokens in comments, conditions and defines never count. */
    ck_assert_str_eq(read_playeranim("defines\nset weapons legs = x\nstatechanges\n"
                                     "statechange idle walk\n{\n  legs /* torso no */ turning\n  {\n"
                                     "    both \"quoted name\"\n  }\n}\n"),
                     "rc 0: quoted name\n");
}
END_TEST

START_TEST(playeranim_errors_in_the_engine_words)
{
    ck_assert_str_eq(read_playeranim("animations\nstat combat\n"),
                     "rc -1:\n2:1: BG_AnimParseAnimScript: expected 'state'\n");
    ck_assert_str_eq(read_playeranim("animations\nstate combat x\n"),
                     "rc -1:\n2:14: BG_AnimParseAnimScript: expected '{'\n");
    ck_assert_str_eq(read_playeranim("animations\nstate\n{\n"),
                     "rc -1:\n2:1: BG_AnimParseAnimScript: expected state type\n");
    ck_assert_str_eq(read_playeranim("statechanges\nchange a b\n"),
                     "rc -1:\n2:1: BG_AnimParseAnimScript: expected 'statechange', got 'change'\n");
    ck_assert_str_eq(read_playeranim("statechanges\nstatechange a\n{\n"),
                     "rc -1:\n2:13: BG_AnimParseAnimScript: expected <state type>\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n  {\n"),
                     "rc -1:\n4:3: BG_ParseConditions: no conditions found\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n  default\n  {\n    legs\n"),
                     "rc -1:\n6:5: BG_ParseCommands: expected animation\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n  default\n  {\n    arms a\n"),
                     "rc -1:\n6:5: BG_IndexForString: unknown token 'arms'\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n  legs a duration\n"),
                     "rc -1: a\n6:10: BG_ParseCommands: expected duration value\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n  legs a blendtime\n"),
                     "rc -1: a\n6:10: BG_ParseCommands: expected blendtime value\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n  legs a sound\n"),
                     "rc -1: a\n6:10: BG_ParseCommands: expected sound\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n  legs a sound x.WAV\n"),
                     "rc -1: a\n6:16: BG_ParseCommands: wav files not supported, only sound scripts\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n  torso a turretanim\n"),
                     "rc -1: a\n6:11: BG_ParseCommands: Turret animations can only be played on the 'both' "
                     "body part\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n  both a fast\n"),
                     "rc -1: a\n6:10: BG_ParseCommands: unknown parameter 'fast'\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n legs a\n legs a\n legs a\n legs a\n"
                                     " legs a\n legs a\n legs a\n legs a\n legs b\n"),
                     "rc -1: a\n14:2: BG_ParseCommands: exceeded maximum number of animations (8)\n");
    ck_assert_str_eq(read_playeranim("events\nfire\n{\n default\n {\n legs a\n"),
                     "rc -1: a\n6:7: BG_AnimParseAnimScript: unexpected end of file: mp/playeranim.script\n");
}
END_TEST

Suite *make_walk_suite(void)
{
    Suite *s = suite_create("walk");
    TCase *tc = tcase_create("refs");
    tcase_add_test(tc, call_arguments_last_to_first_then_callee);
    tcase_add_test(tc, assignment_right_side_first_index_before_object);
    tcase_add_test(tc, for_step_after_body);
    tcase_add_test(tc, method_call_arguments_object_callee);
    tcase_add_test(tc, includes_locals_developer_code_and_definitions);
    tcase_add_test(tc, canonical_names);
    tcase_add_test(tc, playeranim_names_in_first_seen_order);
    tcase_add_test(tc, playeranim_errors_in_the_engine_words);
    suite_add_tcase(s, tc);
    tc = tcase_create("walk");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, includes_first_then_emission_order_depth_first);
    tcase_add_test(tc, cycles_and_repeats_load_once);
    tcase_add_test(tc, reference_into_a_file_still_loading_sees_its_includes);
    tcase_add_test(tc, includes_are_not_transitive);
    tcase_add_test(tc, cod4_pending_list_limit);
    tcase_add_test(tc, developer_references_follow_only_with_developer_script);
    tcase_add_test(tc, missing_scripts_and_functions);
    tcase_add_test(tc, duplicate_include_and_missing_include);
    tcase_add_test(tc, multiplayer_registrations_after_the_scripts);
    tcase_add_test(tc, cod4_multiplayer_entries_and_names);
    tcase_add_test(tc, missing_mandatory_entries_and_optional_level_script);
    tcase_add_test(tc, unknown_gametype_note_is_uo_only);
    tcase_add_test(tc, single_player_orders);
    tcase_add_test(tc, developer_anim_references_per_profile);
    suite_add_tcase(s, tc);
    return s;
}
