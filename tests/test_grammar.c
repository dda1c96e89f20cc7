/* grammar.md 2.2, construct by construct and game by game: each row is
** accepted (no diagnostic) or rejected with exactly its messages at their
** positions, under G1 (cod1 and uo) and G2 (cod2 and cod4).  A row marked
** body=1 is a function body: it is wrapped in
** `f(a, b, c, x, y, i, n)` NEWLINE `{` NEWLINE TAB ... NEWLINE `}`, so its
** text starts at line 3, column 2.  `@P` in a message stands for the
** profile's name.  Then the cascade cases of issue 7 (one error each) and
** the hints for constructs from other languages. */
#include "gsc_testlib.h"

typedef struct construct {
    int body;
    const char *src;
    const char *g1; /* diagnostics under cod1 and uo ("" = accepted) */
    const char *g2; /* diagnostics under cod2 and cod4 */
} construct;

static const construct constructs[] = {
    {1, "f(, x);",
     "",
     "3:4: error: expected expression before ','@H\n"},
    {1, "self f(, x);",
     "",
     "3:9: error: expected expression before ','@H\n"},
    {1, "[[a]](, x);",
     "",
     "3:8: error: expected expression before ','@H\n"},
    {1, "x = (, b, c);",
     "",
     "3:7: error: expected expression before ','@H\n"},
    {0, "f(, a) {}\n",
     "",
     "1:3: error: expected identifier before ','@H\n"},
    {1, "f(,);",
     "3:5: error: expected expression before ')'\n",
     "3:5: error: expected expression before ')'\n"},
    {1, "f(1,);",
     "3:6: error: expected expression before ')'\n",
     "3:6: error: expected expression before ')'\n"},
    {1, "f(,,x);",
     "3:5: error: expected expression before ','\n",
     "3:5: error: expected expression before ','\n"},
    {1, "f(1,,2);",
     "3:6: error: expected expression before ','\n",
     "3:6: error: expected expression before ','\n"},
    {0, "main(a,) {}\n",
     "1:8: error: expected identifier before ')'\n",
     "1:8: error: expected identifier before ')'\n"},
    {0, "main(,) {}\n",
     "1:7: error: expected identifier before ')'\n",
     "1:7: error: expected identifier before ')'\n"},
    {1, "do { x = 1; } while (c);",
     "",
     "3:5: error: expected '=' before '{'@H\n3:25: error: expected statement before ';'@H\n"},
    {1, "do x = 1; while (c);",
     "",
     "3:7: error: expected '(' before '='@H\n3:21: error: expected statement before ';'@H\n"},
    {1, "do { } while (c)",
     "3:18: error: expected ';' before '}'\n",
     "3:5: error: expected '=' before '{'@H\n"},
    {1, "if (c) ;",
     "3:9: error: expected statement before ';'\n",
     "3:9: error: expected statement before ';'\n"},
    {1, "if (c) ; else ;",
     "3:9: error: expected statement before ';'\n3:16: error: expected statement before ';'\n",
     "3:9: error: expected statement before ';'\n3:16: error: expected statement before ';'\n"},
    {1, "if (c) {} else ;",
     "3:17: error: expected statement before ';'\n",
     "3:17: error: expected statement before ';'\n"},
    {1, "while (c) ;",
     "3:12: error: expected statement before ';'\n",
     "3:12: error: expected statement before ';'\n"},
    {1, "for (;;) ;",
     "3:11: error: expected statement before ';'\n",
     "3:11: error: expected statement before ';'\n"},
    {1, "; ;; { } ; x = 1;;",
     "",
     ""},
    {1, "if () x = 1;",
     "3:6: error: expected expression before ')'\n",
     "3:6: error: expected expression before ')'\n"},
    {1, "while () x = 1;",
     "3:9: error: expected expression before ')'\n",
     "3:9: error: expected expression before ')'\n"},
    {1, "if c x = 1;",
     "3:5: error: expected '(' before 'c'\n",
     "3:5: error: expected '(' before 'c'\n"},
    {1, "for (i = 0; i < n; i++) x = 1;",
     "",
     ""},
    {1, "for (;;) break;",
     "",
     ""},
    {1, "for (f();;) break;",
     "",
     ""},
    {1, "for (;; f()) break;",
     "",
     ""},
    {1, "for (;; wait 1) break;",
     "",
     ""},
    {1, "for (i = 0, j = 0;;) break;",
     "3:12: error: expected ';' before ','\n",
     "3:12: error: expected ';' before ','\n"},
    {1, "for (;; i++, j++) break;",
     "3:13: error: expected ')' before ','\n",
     "3:13: error: expected ')' before ','\n"},
    {1, "for (;; x = 1;) break;",
     "3:15: error: expected ')' before ';'\n",
     "3:15: error: expected ')' before ';'\n"},
    {1, "for (;; {}) break;",
     "3:10: error: expected ')' before '{'\n",
     "3:10: error: expected ')' before '{'\n"},
    {1, "for (if (a) b = 1;;) break;",
     "",
     ""},
    {1, "for ({} ;) break;",
     "",
     ""},
    {1, "for (case 1: ;) break;",
     "",
     ""},
    {1, "for (/# x = 1; #/ ;) break;",
     "",
     ""},
    {1, "switch (x) { case 1: break; default: break; }",
     "",
     ""},
    {1, "switch (x) y = 1;",
     "",
     "3:13: error: expected '{' before 'y'@H\n"},
    {1, "switch (x) { case 1+1: break; }",
     "3:21: error: expected ':' before '+'\n",
     "3:21: error: expected ':' before '+'\n"},
    {1, "switch (x) { case -1: case 1.5: case (1): case a: case f(): case &\"A\": case undefined: case %walk: break; }",
     "",
     ""},
    {1, "case 1: x = 1; default: y = 1;",
     "",
     ""},
    {1, "self waittill(\"a\"); self waittill(a); self waittill(\"a\", b, c);",
     "",
     ""},
    {1, "self waittill(\"a\", b.c);",
     "3:22: error: expected ')' before '.'\n",
     "3:22: error: expected ')' before '.'\n"},
    {1, "self waittill(\"a\", b[0]);",
     "3:22: error: expected ')' before '['\n",
     "3:22: error: expected ')' before '['\n"},
    {1, "self waittill(\"a\", self);",
     "3:21: error: expected identifier before 'self'\n",
     "3:21: error: expected identifier before 'self'\n"},
    {1, "self waittill();",
     "3:16: error: expected expression before ')'\n",
     "3:16: error: expected expression before ')'\n"},
    {1, "waittill(\"a\");",
     "3:2: error: expected statement before 'waittill'\n",
     "3:2: error: expected statement before 'waittill'\n"},
    {1, "x = self waittill(\"a\");",
     "3:11: error: expected ';' before 'waittill'\n",
     "3:11: error: expected ';' before 'waittill'\n"},
    {1, "self waittillmatch(\"a\"); self waittillmatch(\"a\", \"b\", \"c\"); self waittillmatch(\"a\", x.y);",
     "",
     ""},
    {1, "self notify(\"a\", 1, 2);",
     "",
     ""},
    {1, "self notify();",
     "3:14: error: expected expression before ')'\n",
     "3:14: error: expected expression before ')'\n"},
    {1, "self endon(\"a\"); self endon(a + b);",
     "",
     ""},
    {1, "self endon(\"a\", 1);",
     "3:16: error: expected ')' before ','\n",
     "3:16: error: expected ')' before ','\n"},
    {1, "1 notify(\"a\"); f() endon(\"a\"); level.x notify(\"a\"); (1,2,3) notify(\"a\"); -1 notify(\"a\"); %a notify(\"a\"); [] notify(\"a\"); undefined notify(\"a\");",
     "",
     ""},
    {1, "waittillframeend;",
     "3:18: error: expected '=' before ';'@H\n",
     ""},
    {1, "breakpoint;",
     "3:12: error: expected '=' before ';'@H\n",
     ""},
    {1, "prof_begin(\"a\");",
     "",
     ""},
    {1, "prof_begin(a);",
     "",
     "3:13: error: expected string before 'a'@H\n"},
    {1, "thread f(); self thread f(); x = thread f(); self thread [[f]]();",
     "",
     ""},
    {1, "thread self f();",
     "3:9: error: expected identifier before 'self'\n",
     "3:9: error: expected identifier before 'self'\n"},
    {1, "thread thread f();",
     "3:9: error: expected identifier before 'thread'\n",
     "3:9: error: expected identifier before 'thread'\n"},
    {1, "f()();",
     "3:5: error: expected identifier before '('\n",
     "3:5: error: expected identifier before '('\n"},
    {1, "(f)();",
     "3:5: error: expected identifier before '('\n",
     "3:5: error: expected identifier before '('\n"},
    {1, "::f();",
     "3:5: error: expected identifier before '('\n",
     "3:5: error: expected identifier before '('\n"},
    {1, "[[f]];",
     "3:7: error: expected '(' before ';'\n",
     "3:7: error: expected '(' before ';'\n"},
    {1, "f() g(); a f() g();",
     "",
     ""},
    {1, "x = ::f; x = a\\b::f; x = f;",
     "",
     ""},
    {1, "x = a\\b;",
     "3:9: error: expected '::' before ';'\n",
     "3:9: error: expected '::' before ';'\n"},
    {1, "self = level;",
     "3:7: error: expected identifier before '='\n",
     "3:7: error: expected identifier before '='\n"},
    {1, "level = 1;",
     "3:8: error: expected identifier before '='\n",
     "3:8: error: expected identifier before '='\n"},
    {1, "game = 1;",
     "3:7: error: expected identifier before '='\n",
     "3:7: error: expected identifier before '='\n"},
    {1, "anim = 1;",
     "3:7: error: expected identifier before '='\n",
     "3:7: error: expected identifier before '='\n"},
    {1, "f() = 1;",
     "3:6: error: expected identifier before '='\n",
     "3:6: error: expected identifier before '='\n"},
    {1, "x = y = 1;",
     "3:8: error: expected ';' before '='\n",
     "3:8: error: expected ';' before '='\n"},
    {1, "game[\"a\"] = 1; self.x = 1; f().x = 1; (a).x = 1; \"s\".x = 1; a[0][1] = 1;",
     "",
     ""},
    {1, "x;",
     "3:3: error: expected '=' before ';'\n",
     "3:3: error: expected '=' before ';'\n"},
    {1, "1;",
     "3:3: error: expected identifier before ';'\n",
     "3:3: error: expected identifier before ';'\n"},
    {1, "x == 1;",
     "3:4: error: expected '=' before '=='\n",
     "3:4: error: expected '=' before '=='\n"},
    {1, "f;",
     "3:3: error: expected '=' before ';'\n",
     "3:3: error: expected '=' before ';'\n"},
    {1, "++x;",
     "3:2: error: expected statement before '++'\n",
     "3:2: error: expected statement before '++'\n"},
    {1, "x = y++;",
     "3:7: error: expected ';' before '++'\n",
     "3:7: error: expected ';' before '++'\n"},
    {1, "self++;",
     "3:6: error: expected identifier before '++'\n",
     "3:6: error: expected identifier before '++'\n"},
    {1, "f()++;",
     "3:5: error: expected identifier before '++'\n",
     "3:5: error: expected identifier before '++'\n"},
    {0, "main(self) {}\n",
     "1:6: error: expected ')' before 'self'\n",
     "1:6: error: expected ')' before 'self'\n"},
    {0, "main(level) {}\n",
     "1:6: error: expected ')' before 'level'\n",
     "1:6: error: expected ')' before 'level'\n"},
    {0, "main(a\\b) {}\n",
     "1:6: error: expected ')' before 'a\\b'\n",
     "1:6: error: expected ')' before 'a\\b'\n"},
    {0, "main(a = 1) {}\n",
     "1:8: error: expected ')' before '='\n",
     "1:8: error: expected ')' before '='\n"},
    {0, "self() {}\n",
     "1:1: error: expected function definition before 'self'\n",
     "1:1: error: expected function definition before 'self'\n"},
    {0, "a\\b() {}\n",
     "1:1: error: expected function definition before 'a\\b'\n",
     "1:1: error: expected function definition before 'a\\b'\n"},
    {0, "::f() {}\n",
     "1:1: error: expected function definition before '::'\n",
     "1:1: error: expected function definition before '::'\n"},
    {0, "do() {}\n",
     "1:1: error: expected function definition before 'do'@H\n",
     ""},
    {0, "waittillframeend() {}\n",
     "",
     "1:1: error: expected function definition before 'waittillframeend'@H\n"},
    {1, "x = (1,2,3); x = (1,2); x = (1,2,3,4); x = (); x = ((1,2,3)); x = (1,2,3)[0];",
     "",
     ""},
    {1, "x = [];",
     "",
     ""},
    {1, "x = a[];",
     "3:8: error: expected expression before ']'\n",
     "3:8: error: expected expression before ']'\n"},
    {1, "x = a ? b : c;",
     "3:8: error: GSC has no '?:' operator: use if/else\n",
     "3:8: error: GSC has no '?:' operator: use if/else\n"},
    {1, "foreach (x in a) f();",
     "3:2: error: GSC has no foreach: use for (i = 0; i < a.size; i++)\n",
     "3:2: error: GSC has no foreach: use for (i = 0; i < a.size; i++)\n"},
    {1, "for (x in a) f();",
     "3:12: error: expected '(' before 'a'\n",
     "3:12: error: expected '(' before 'a'\n"},
    {1, "x = $e123;",
     "3:6: error: stray '$'@H\n",
     ""},
    {1, "x = a breakon(b);",
     "",
     ""},
    {1, "x = a.self;",
     "3:8: error: expected identifier before 'self'@H\n",
     ""},
    {0, "x = 1;\n",
     "1:3: error: expected '(' before '='\n",
     "1:3: error: expected '(' before '='\n"},
    {0, "f();\n",
     "1:4: error: expected '{' before ';'\n",
     "1:4: error: expected '{' before ';'\n"},
    {0, ";;\nf() {}\n",
     "",
     "1:1: error: expected function definition before ';'@H\n1:2: error: expected function definition before ';'@H\n"},
    {0, "f() {}\n;\n",
     "2:1: error: expected function definition before ';'\n",
     "2:1: error: expected function definition before ';'\n"},
    {0, "#include maps\\mp\\_utility;\n#include utility;\nf() {}\n",
     "1:1: error: '#include' does not exist in @P (cod2 and cod4 only)@H\n2:1: error: '#include' does not exist in @P (cod2 and cod4 only)@H\n",
     ""},
    {0, "#include \"a\\b\";\n",
     "1:1: error: '#include' does not exist in @P (cod2 and cod4 only)@H\n",
     "1:10: error: expected identifier before '\"a\\b\"'\n"},
    {0, "#include maps/mp/x;\n",
     "1:1: error: '#include' does not exist in @P (cod2 and cod4 only)@H\n",
     "1:14: error: #include paths separate folders with '\\', not '/'\n"},
    {0, "#include a\nf() {}\n",
     "1:1: error: '#include' does not exist in @P (cod2 and cod4 only)@H\n",
     "1:11: error: expected ';' before 'f'\n"},
    {0, "#include a;;\n",
     "1:1: error: '#include' does not exist in @P (cod2 and cod4 only)@H\n",
     "1:12: error: expected function definition before ';'\n"},
    {0, "f() {}\n#include a;\n",
     "2:1: error: '#include' does not exist in @P (cod2 and cod4 only)\n",
     "2:1: error: expected function definition before '#include'\n"},
    {0, "#using_animtree(\"t\");\n#include a;\n",
     "2:1: error: '#include' does not exist in @P (cod2 and cod4 only)\n",
     "2:1: error: expected function definition before '#include'\n"},
    {0, "#using_animtree(\"t\");\nf() {}\n#using_animtree(\"u\");\ng() {}\n#using_animtree(\"v\");\n",
     "",
     ""},
    {0, "#using_animtree(t);\n",
     "1:17: error: expected string before 't'\n",
     "1:17: error: expected string before 't'\n"},
    {0, "#using_animtree(&\"t\");\n",
     "1:17: error: expected string before '&\"t\"'\n",
     "1:17: error: expected string before '&\"t\"'\n"},
    {0, "#using_animtree(\"a\", \"b\");\n",
     "1:20: error: expected ')' before ','\n",
     "1:20: error: expected ')' before ','\n"},
    {0, "#using_animtree(\"t\")\nf() {}\n",
     "1:21: error: expected ';' before 'f'\n",
     "1:21: error: expected ';' before 'f'\n"},
    {1, "x = #animtree; f(#animtree);",
     "",
     ""},
    {1, "#using_animtree(\"t\");",
     "3:2: error: expected statement before '#using_animtree'\n",
     "3:2: error: expected statement before '#using_animtree'\n"},
    {0, "/#\n#using_animtree(\"t\");\n#/\n",
     "2:1: error: expected function definition before '#using_animtree'@H\n",
     ""},
    {0, "/#\nf() {}\n#/\n",
     "",
     ""},
    {0, "/#\nf() {}\ng() {}\n#/\n",
     "3:1: error: expected '#/' before 'g' (a /# #/ block holds one function in @P)@H\n",
     ""},
    {0, "/#\n#/\n",
     "2:1: error: expected function definition before '#/'@H\n",
     ""},
    {0, "/# /# f() {} #/ #/\n",
     "1:4: error: expected function definition before '/#'@H\n",
     ""},
    {1, "/# x = 1; #/ /# #/ if (a) /# x = 1; #/ switch (x) { /# case 1: #/ break; }",
     "",
     ""},
    {1, "/# /# x = 1; #/ #/",
     "",
     ""},
    {1, "/#/ x = 1;",
     "3:4: error: expected statement before '/'\n",
     "3:4: error: expected statement before '/'\n"},
    {1, "x = -1 + - 1 + -1.5 + -.5 + a - -1 + a -1;",
     "",
     ""},
    {1, "x = -a;",
     "3:7: error: expected expression before 'a'\n",
     "3:7: error: expected expression before 'a'\n"},
    {1, "x = -(1);",
     "3:7: error: expected expression before '('\n",
     "3:7: error: expected expression before '('\n"},
    {1, "x = -self.origin;",
     "3:7: error: expected expression before 'self'\n",
     "3:7: error: expected expression before 'self'\n"},
    {1, "x = -%walk;",
     "3:7: error: expected expression before '%'\n",
     "3:7: error: expected expression before '%'\n"},
    {1, "x = --1;",
     "3:6: error: expected expression before '--'\n",
     "3:6: error: expected expression before '--'\n"},
    {1, "x = +1;",
     "3:6: error: expected expression before '+'\n",
     "3:6: error: expected expression before '+'\n"},
    {1, "x = (int)a + (float)b + (string)c + (bool)d;",
     "",
     "3:13: error: expected '(' before '+'@H\n"},
    {1, "x = ( int )a;",
     "3:14: error: expected '(' before ';'\n",
     "3:14: error: expected '(' before ';'\n"},
    {1, "f(int);",
     "3:3: error: expected '=' before '(int)'@H\n",
     ""},
    {0, "f(string) {}\n",
     "1:2: error: expected '(' before '(string)'@H\n",
     ""},
    {1, "[ [ f ] ](); [[f]]();",
     "",
     ""},
    {1, "x = a.size; y = a . size; z = a.Size;",
     "",
     ""},
    {1, "x = a.sizex;",
     "3:13: error: expected '(' before ';'\n",
     "3:13: error: expected '(' before ';'\n"},
    {1, "x = a.anim;",
     "3:8: error: expected identifier before 'anim'\n",
     "3:8: error: expected identifier before 'anim'\n"},
    {1, "x = a.do;",
     "3:8: error: expected identifier before 'do'@H\n",
     ""},
    {1, "x = a.waittillframeend;",
     "",
     "3:8: error: expected identifier before 'waittillframeend'@H\n"},
    {1, "x = %walk + % walk;",
     "",
     ""},
    {1, "x = %1abc;",
     "3:7: error: expected identifier before '1'\n",
     "3:7: error: expected identifier before '1'\n"},
    {1, "x = %\"walk\";",
     "3:7: error: an animation name is written without quotes: %name, not %\"name\"\n",
     "3:7: error: an animation name is written without quotes: %name, not %\"name\"\n"},
    {1, "x = %self;",
     "3:7: error: expected identifier before 'self'\n",
     "3:7: error: expected identifier before 'self'\n"},
    {1, "x = %do;",
     "3:7: error: expected identifier before 'do'@H\n",
     ""},
    {1, "x = %waittillframeend;",
     "",
     "3:7: error: expected identifier before 'waittillframeend'@H\n"},
    {1, "x = %size;",
     "",
     ""},
    {1, "x = 0x1F;",
     "3:6: error: GSC has no hexadecimal numbers: write '0x1F' in decimal\n",
     "3:6: error: GSC has no hexadecimal numbers: write '0x1F' in decimal\n"},
    {1, "x = 1e5;",
     "3:6: error: GSC has no exponents: write '1e5' out in full\n",
     "3:6: error: GSC has no exponents: write '1e5' out in full\n"},
    {1, "x = 5.;",
     "3:6: error: a number cannot end with '.' in GSC: write '5.0'\n",
     "3:6: error: a number cannot end with '.' in GSC: write '5.0'\n"},
    {1, "x = 1.5f;",
     "3:10: error: expected '(' before ';'\n",
     "3:10: error: expected '(' before ';'\n"},
    {1, "x = .5 + 007;",
     "",
     ""},
    {1, "x = &\"MP_X\" + &\"\";",
     "",
     ""},
    {1, "x = & \"MP_X\";",
     "3:6: error: expected expression before '&'\n",
     "3:6: error: expected expression before '&'\n"},
    {1, "x = 'a';",
     "3:6: error: stray '\\''\n3:8: error: stray '\\''\n",
     "3:6: error: stray '\\''\n3:8: error: stray '\\''\n"},
    {1, "x = @\"x\";",
     "3:6: error: stray '@'\n",
     "3:6: error: stray '@'\n"},
    {1, "x = #\"x\";",
     "3:6: error: expected expression before '#'\n",
     "3:6: error: stray '#'\n"},
    {1, "x = maps\\mp\\_utility::f(); y = utility::f(); z = a\\b :: f();",
     "",
     ""},
    {0, "main() {}\n/* open",
     "2:1: warning: unterminated /* comment runs to the end of the file\n",
     "2:1: warning: unterminated /* comment runs to the end of the file\n"},
    {0, "main() {\n/* open",
     "2:1: warning: unterminated /* comment runs to the end of the file\n2:8: error: '{' opened at line 1 is never closed\n",
     "2:1: warning: unterminated /* comment runs to the end of the file\n2:8: error: '{' opened at line 1 is never closed\n"},
};

/* expected with every "@P" replaced by the profile's name, every "@H" by
** what a syntax error adds when the other grammar family accepts the
** construct there. */
static char *expand(const char *expected, const char *profile)
{
    int g1 = !strcmp(profile, "cod1") || !strcmp(profile, "uo");
    const char *hint = g1 ? "; cod2 and cod4 accept this (--profile cod2 or --profile cod4)"
                          : "; cod1 and uo accept this (--profile uo or --profile cod1)";
    char *out = malloc(strlen(expected) * 8 + 64), *w = out;
    for (const char *r = expected; *r;) {
        if (r[0] == '@' && r[1] == 'P') {
            w += sprintf(w, "%s", profile);
            r += 2;
        } else if (r[0] == '@' && r[1] == 'H') {
            w += sprintf(w, "%s", hint);
            r += 2;
        } else {
            *w++ = *r++;
        }
    }
    *w = 0;
    return out;
}

START_TEST(construct_table)
{
    static const atrc_profile profiles[] = {ATRC_PROFILE_COD1, ATRC_PROFILE_UO,
                                            ATRC_PROFILE_COD2, ATRC_PROFILE_COD4};
    const construct *c = &constructs[_i];
    char src[1024];
    if (c->body) snprintf(src, sizeof src, "f(a, b, c, x, y, i, n)\n{\n\t%s\n}\n", c->src);
    else snprintf(src, sizeof src, "%s", c->src);
    for (int k = 0; k < 4; k++) {
        atrc_profile p = profiles[k];
        char *want = expand(p == ATRC_PROFILE_COD1 || p == ATRC_PROFILE_UO ? c->g1 : c->g2,
                            atrc_profile_name(p));
        char *got = gsc_parse_np(src, strlen(src), 0, p);
        ck_assert_msg(strcmp(got, want) == 0, "%s under %s:\n%s\ngot:\n%swant:\n%s", c->src,
                      atrc_profile_name(p), src, got, want);
        free(got);
        free(want);
    }
}
END_TEST

/* The AST of the G1-only and G2-only constructs (shapes, not positions). */
START_TEST(profile_construct_shapes)
{
    assert_shape_p(ATRC_PROFILE_UO, "f(, a)\n{\n\tsetanimknobrestart(, x);\n\tdo { x = 1; } while (c);\n\tswitch (x) y = 1;\n\tx = (, b, c);\n}\n",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params\n"
                   "      (ident \"a\"))\n"
                   "    (block\n"
                   "      (expr_stmt\n"
                   "        (call\n"
                   "          (ident \"setanimknobrestart\")\n"
                   "          (args\n"
                   "            (ident \"x\"))))\n"
                   "      (do_while\n"
                   "        (block\n"
                   "          (assign \"=\"\n"
                   "            (ident \"x\")\n"
                   "            (int \"1\")))\n"
                   "        (ident \"c\"))\n"
                   "      (switch\n"
                   "        (ident \"x\")\n"
                   "        (assign \"=\"\n"
                   "          (ident \"y\")\n"
                   "          (int \"1\")))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"x\")\n"
                   "        (vector\n"
                   "          (ident \"b\")\n"
                   "          (ident \"c\"))))))\n");
    assert_shape_p(ATRC_PROFILE_COD2, "f(a)\n{\n\tself waittill(\"a\", b, c);\n\tlevel notify(\"x\", 1);\n\tself endon(\"death\");\n\tself waittillmatch(\"a\", \"b\");\n\tprof_begin(\"p\");\n\tx = a.size + $e1 + a breakon(b);\n\t[ [ f ] ]();\n}\n",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params\n"
                   "      (ident \"a\"))\n"
                   "    (block\n"
                   "      (waittill\n"
                   "        (ident \"self\")\n"
                   "        (args\n"
                   "          (string \"a\")\n"
                   "          (ident \"b\")\n"
                   "          (ident \"c\")))\n"
                   "      (notify\n"
                   "        (ident \"level\")\n"
                   "        (args\n"
                   "          (string \"x\")\n"
                   "          (int \"1\")))\n"
                   "      (endon\n"
                   "        (ident \"self\")\n"
                   "        (args\n"
                   "          (string \"death\")))\n"
                   "      (waittillmatch\n"
                   "        (ident \"self\")\n"
                   "        (args\n"
                   "          (string \"a\")\n"
                   "          (string \"b\")))\n"
                   "      (prof \"prof_begin\"\n"
                   "        (string \"p\"))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"x\")\n"
                   "        (binary \"+\"\n"
                   "          (binary \"+\"\n"
                   "            (size\n"
                   "              (ident \"a\"))\n"
                   "            (entity \"e1\"))\n"
                   "          (breakon\n"
                   "            (ident \"a\")\n"
                   "            (ident \"b\"))))\n"
                   "      (expr_stmt\n"
                   "        (pointer_call\n"
                   "          (ident \"f\")\n"
                   "          (args))))))\n");
}
END_TEST

/* Issue 7's cascades: each mistake gives exactly one error, at its place. */
START_TEST(one_error_per_mistake)
{
    assert_diag_p(ATRC_PROFILE_COD2, "f()\n{\n\tself f(,a[0]);\n\tx = 1;\n}\n",
                  "3:9: error: expected expression before ','; cod1 and uo accept this (--profile uo or "
                  "--profile cod1)\n");
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tx = self endnode.origin + (0,0,1);\n\ty = ;\n}\n",
                  "3:18: error: expected '(' before '.'\n"
                  "4:6: error: expected expression before ';'\n");
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tfor (i=0); i<3; i++)\n\t\tg();\n}\n",
                  "3:10: error: expected ';' before ')'\n");
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tfoo()\n\twait 1;\n\tself bar()\n\tself.x = 1;\n\tbaz(1, 2)\n\tif (x) y();\n}\n",
                  "3:7: error: expected ';' before 'wait'\n"
                  "5:12: error: expected ';' before 'self'\n"
                  "7:11: error: expected ';' before 'if'\n");
    assert_diag_p(ATRC_PROFILE_UO, "a()\n{\n\tif (x)\n\t{\n\t\ty();\n}\n\nb(p)\n{\n\tz();\n}\n\nc()\n{\n\tw();\n}\n",
                  "8:1: error: expected '}' before 'b': function 'a' (line 1) is not closed\n");
    assert_diag_p(ATRC_PROFILE_UO, "a()\n{\n\tx();\n\nb()\n{\n\t/#\n\tz();\n\nc()\n{\n}\n",
                  "5:1: error: expected '}' before 'b': function 'a' (line 1) is not closed\n"
                  "10:1: error: expected '}' before 'c': function 'b' (line 5) is not closed\n");
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tiprintln(\"hello);\n\twait 1;\n\tx = \"a\";\n}\n",
                  "3:11: error: missing terminating '\"' character\n");
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tx = 1;\n}\n}\ng()\n{\n}\n",
                  "5:1: error: expected function definition before '}'\n");
    /* A header without its '{'; statements between functions are one mistake. */
    assert_diag_p(ATRC_PROFILE_UO, "f()\n\tx = 1;\n\twait 1;\n}\n\ng()\n{\n}\n",
                  "2:2: error: expected '{' before 'x'\n");
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tx = 1;\n}\n\nx = 2;\ny = 3;\n\ng()\n{\n\ta = ;\n}\n",
                  "6:3: error: expected '(' before '='\n"
                  "11:6: error: expected expression before ';'\n");
    /* A block's '{' missing: the function closes early, one error where it shows. */
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tif (x)\n\t\ty = 1;\n\t\tz = 2;\n\t}\n\treturn 0;\n}\n\ng()\n{\n}\n",
                  "7:2: error: expected function definition before 'return' (a statement outside any function: is a '{' missing above?)\n");
    /* An opening quote missing: the lone quote later on the line is no news. */
    assert_diag_p(ATRC_PROFILE_UO, "f()\n{\n\tg(prone\", \"stop\");\n\twait 1;\n}\n",
                  "3:9: error: expected ')' before '\", \"'\n");
}
END_TEST

/* Constructs from other languages: the message says what GSC has instead. */
START_TEST(other_language_hints)
{
    assert_diag_p(ATRC_PROFILE_UO, "f(a)\n{\n\tx = a ? b : c;\n}\n",
                  "3:8: error: GSC has no '?:' operator: use if/else\n");
    assert_diag_p(ATRC_PROFILE_UO, "f(a)\n{\n\tx = %\"walk\";\n}\n",
                  "3:7: error: an animation name is written without quotes: %name, not %\"name\"\n");
    assert_diag_p(ATRC_PROFILE_UO, "f(a)\n{\n\tforeach (x in a) f();\n}\n",
                  "3:2: error: GSC has no foreach: use for (i = 0; i < a.size; i++)\n");
    assert_diag_p(ATRC_PROFILE_UO, "f(a)\n{\n\tx = 0x1F + 1e5 + 5. + 1.5e3;\n}\n",
                  "3:6: error: GSC has no hexadecimal numbers: write '0x1F' in decimal\n"
                  "3:13: error: GSC has no exponents: write '1e5' out in full\n"
                  "3:19: error: a number cannot end with '.' in GSC: write '5.0'\n"
                  "3:24: error: GSC has no exponents: write '1.5e3' out in full\n");
    assert_diag_p(ATRC_PROFILE_COD4, "#include maps/mp/_utility;\nf() {}\n",
                  "1:14: error: #include paths separate folders with '\\', not '/'\n");
    assert_diag_p(ATRC_PROFILE_UO, "\xEF\xBB\xBF" "f() {}\n",
                  "1:1: error: UTF-8 byte order mark: the game's compiler rejects it (save the file without BOM)\n");
}
END_TEST

Suite *make_grammar_suite(void)
{
    Suite *s = suite_create("grammar");
    TCase *tc = tcase_create("constructs");
    tcase_add_loop_test(tc, construct_table, 0, (int)(sizeof constructs / sizeof constructs[0]));
    tcase_add_test(tc, profile_construct_shapes);
    tcase_add_test(tc, one_error_per_mistake);
    tcase_add_test(tc, other_language_hints);
    suite_add_tcase(s, tc);
    return s;
}
