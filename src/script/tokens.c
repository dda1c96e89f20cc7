/* The token table (lexer.h): each token code's name in dumps and its
** spelling in messages. */
#include "script/lexer.h"
#include "gsc_parser.h"

typedef struct token_info {
    const char *name;     /* in dumps */
    const char *spelling; /* in messages */
} token_info;

/* Designated initializers keep this right whatever order Lemon numbers the
** tokens in; a unit test checks that every token code has an entry. */
static const token_info tokens[] = {
    [0] = {"EOF", "end of file"},
    [TK_IDENT] = {"IDENT", "identifier"},
    [TK_PATH] = {"PATH", "script path"},
    [TK_INT] = {"INT", "integer"},
    [TK_FLOAT] = {"FLOAT", "number"},
    [TK_STRING] = {"STRING", "string"},
    [TK_ISTRING] = {"ISTRING", "localized string"},
    [TK_ANIMTREE] = {"ANIMTREE", "'#animtree'"},
    [TK_CAST] = {"CAST", "cast"},
    [TK_INCLUDE] = {"INCLUDE", "'#include'"},
    [TK_USING_ANIMTREE] = {"USING_ANIMTREE", "'#using_animtree'"},
    [TK_DEVOPEN] = {"DEVOPEN", "'/#'"},
    [TK_DEVCLOSE] = {"DEVCLOSE", "'#/'"},
    [TK_IF] = {"IF", "'if'"},
    [TK_ELSE] = {"ELSE", "'else'"},
    [TK_WHILE] = {"WHILE", "'while'"},
    [TK_FOR] = {"FOR", "'for'"},
    [TK_SWITCH] = {"SWITCH", "'switch'"},
    [TK_CASE] = {"CASE", "'case'"},
    [TK_DEFAULT] = {"DEFAULT", "'default'"},
    [TK_BREAK] = {"BREAK", "'break'"},
    [TK_CONTINUE] = {"CONTINUE", "'continue'"},
    [TK_RETURN] = {"RETURN", "'return'"},
    [TK_WAIT] = {"WAIT", "'wait'"},
    [TK_WAITTILLFRAMEEND] = {"WAITTILLFRAMEEND", "'waittillframeend'"},
    [TK_BREAKPOINT] = {"BREAKPOINT", "'breakpoint'"},
    [TK_THREAD] = {"THREAD", "'thread'"},
    [TK_TRUE] = {"TRUE", "'true'"},
    [TK_FALSE] = {"FALSE", "'false'"},
    [TK_UNDEFINED] = {"UNDEFINED", "'undefined'"},
    [TK_DO] = {"DO", "'do'"},
    [TK_SELF] = {"SELF", "'self'"},
    [TK_LEVEL] = {"LEVEL", "'level'"},
    [TK_GAME] = {"GAME", "'game'"},
    [TK_ANIM] = {"ANIM", "'anim'"},
    [TK_WAITTILL] = {"WAITTILL", "'waittill'"},
    [TK_WAITTILLMATCH] = {"WAITTILLMATCH", "'waittillmatch'"},
    [TK_NOTIFY] = {"NOTIFY", "'notify'"},
    [TK_ENDON] = {"ENDON", "'endon'"},
    [TK_PROF_BEGIN] = {"PROF_BEGIN", "'prof_begin'"},
    [TK_PROF_END] = {"PROF_END", "'prof_end'"},
    [TK_BREAKON] = {"BREAKON", "'breakon'"},
    [TK_SIZE] = {"SIZE", "'.size'"},
    [TK_DOLLAR] = {"DOLLAR", "'$'"},
    [TK_HASH] = {"HASH", "'#'"},
    [TK_QUESTION] = {"QUESTION", "'?'"},
    [TK_LP] = {"LP", "'('"},
    [TK_RP] = {"RP", "')'"},
    [TK_LBRACKET] = {"LBRACKET", "'['"},
    [TK_RBRACKET] = {"RBRACKET", "']'"},
    [TK_LBRACE] = {"LBRACE", "'{'"},
    [TK_RBRACE] = {"RBRACE", "'}'"},
    [TK_SEMI] = {"SEMI", "';'"},
    [TK_COMMA] = {"COMMA", "','"},
    [TK_COLON] = {"COLON", "':'"},
    [TK_DCOLON] = {"DCOLON", "'::'"},
    [TK_DOT] = {"DOT", "'.'"},
    [TK_ASSIGN] = {"ASSIGN", "'='"},
    [TK_PLUSEQ] = {"PLUSEQ", "'+='"},
    [TK_MINUSEQ] = {"MINUSEQ", "'-='"},
    [TK_STAREQ] = {"STAREQ", "'*='"},
    [TK_SLASHEQ] = {"SLASHEQ", "'/='"},
    [TK_PERCENTEQ] = {"PERCENTEQ", "'%='"},
    [TK_ANDEQ] = {"ANDEQ", "'&='"},
    [TK_OREQ] = {"OREQ", "'|='"},
    [TK_XOREQ] = {"XOREQ", "'^='"},
    [TK_SHLEQ] = {"SHLEQ", "'<<='"},
    [TK_SHREQ] = {"SHREQ", "'>>='"},
    [TK_INC] = {"INC", "'++'"},
    [TK_DEC] = {"DEC", "'--'"},
    [TK_OROR] = {"OROR", "'||'"},
    [TK_ANDAND] = {"ANDAND", "'&&'"},
    [TK_BITOR] = {"BITOR", "'|'"},
    [TK_BITXOR] = {"BITXOR", "'^'"},
    [TK_BITAND] = {"BITAND", "'&'"},
    [TK_EQ] = {"EQ", "'=='"},
    [TK_NE] = {"NE", "'!='"},
    [TK_LT] = {"LT", "'<'"},
    [TK_GT] = {"GT", "'>'"},
    [TK_LE] = {"LE", "'<='"},
    [TK_GE] = {"GE", "'>='"},
    [TK_SHL] = {"SHL", "'<<'"},
    [TK_SHR] = {"SHR", "'>>'"},
    [TK_PLUS] = {"PLUS", "'+'"},
    [TK_MINUS] = {"MINUS", "'-'"},
    [TK_STAR] = {"STAR", "'*'"},
    [TK_SLASH] = {"SLASH", "'/'"},
    [TK_PERCENT] = {"PERCENT", "'%'"},
    [TK_BANG] = {"BANG", "'!'"},
    [TK_TILDE] = {"TILDE", "'~'"},
};

#define N_TOKENS ((int)(sizeof tokens / sizeof tokens[0]))
/* Tables indexed by token code elsewhere are GSC_TOKEN_CODES long. */
typedef char token_codes_fit[N_TOKENS <= GSC_TOKEN_CODES ? 1 : -1];

const char *gsc_token_name(int code)
{
    return code >= 0 && code < N_TOKENS ? tokens[code].name : NULL;
}

const char *gsc_token_spelling(int code)
{
    return code >= 0 && code < N_TOKENS ? tokens[code].spelling : NULL;
}

int gsc_token_count(void)
{
    return N_TOKENS;
}
