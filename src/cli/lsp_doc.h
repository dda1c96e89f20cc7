/* The language server's documents: what the editor has open (by URI, with
** its text and version), URIs to and from paths, and positions in the
** negotiated encoding (UTF-16 code units or UTF-8 bytes) to and from atrc's
** byte columns. */
#ifndef ATRC_CLI_LSP_DOC_H
#define ATRC_CLI_LSP_DOC_H
#include "base/hashtab.h"
#include "base/outbuf.h"
#include "base/vec.h"
#include "os/os.h"

#include <stddef.h>
#include <stdint.h>

typedef struct lsp_doc {
    char *uri;
    char *path;        /* file-system path (file: URIs); NULL for others */
    char *real;        /* its real path (the path itself when it has none); the key of by_path */
    char *archive_file; /* atrc-archive: URIs: "ARCHIVE:ENTRY" as atrc names it; else NULL */
    char *text;
    size_t len;
    int64_t version;
    int open;          /* 0: a closed slot (kept for the index's numbering) */
    struct lsp_project *project; /* the project it belongs to (open documents) */
    int by_flags;      /* how it came to its project (lsp_project.c): by what its compilation read, an atrc.flags above it, the workspace root's */
} lsp_doc;

typedef struct lsp_docs {
    VEC(lsp_doc) list; /* in the order first opened; a closed one keeps its slot */
    hashtab by_uri;
    hashtab by_path;   /* entries in step with list (unlinked: no path) */
    size_t open_count;
} lsp_docs;

/* The open document with uri, or NULL. */
lsp_doc *lsp_docs_find(lsp_docs *d, const char *uri);
/* The open document of a file-system path (its real path), or NULL. */
lsp_doc *lsp_docs_find_path(lsp_docs *d, const char *path);
/* Opens (or reopens) uri with text; the document is returned. */
lsp_doc *lsp_docs_open(lsp_docs *d, const char *uri, const char *text, size_t len, int64_t version);
void lsp_docs_close(lsp_docs *d, lsp_doc *doc);
void lsp_docs_free(lsp_docs *d);

/* file:///a%20b/c.gsc -> "/a b/c.gsc" (malloc'ed); NULL when uri is not a
** file: URI or does not decode.  On Windows file:///c%3A/x and file:///C:/x
** -> "C:/x". */
char *lsp_uri_to_path(const char *uri);

/* How the client spells a Windows drive in its file: URIs (VS Code
** file:///c%3A/x, Neovim and Emacs file:///C:/x): the URIs the server builds
** follow it, so that a file has one identity in the client.  Learnt from the
** first client URI that has a drive; until then VS Code's spelling. */
typedef struct lsp_uri_style {
    int known;
    int upper;          /* the drive letter upper case */
    int colon_escaped;  /* ':' as %3A */
} lsp_uri_style;
void lsp_uri_style_learn(lsp_uri_style *st, const char *uri);
/* The file: URI of an absolute path, appended to b (percent-encoded).  A
** drive path ("C:\x\y", "c:/x") becomes file:///c%3A/x/y or file:///C:/x/y
** as st says and backslashes are separators when windows is set (a Windows
** build); else a backslash is an ordinary character of a name. */
void lsp_path_to_uri(outbuf *b, const char *path, const lsp_uri_style *st, int windows);
/* The build's own value for lsp_path_to_uri's windows. */
#define LSP_WINDOWS_PATHS OS_WINDOWS
/* An archive entry's URI: atrc-archive: then the archive's path as its
** file: URI spells it (st and windows as for lsp_path_to_uri), "!/" and the
** entry (both percent-encoded; '!' too).  And back: the archive path (on
** Windows C:/x, as lsp_uri_to_path gives it) and entry (malloc'ed), 0 or -1. */
void lsp_entry_to_uri(outbuf *b, const char *archive, const char *entry, const lsp_uri_style *st, int windows);
int lsp_uri_to_entry(const char *uri, char **archive, char **entry);

/* Positions.  A line of text: its bytes from the start of line `line`
** (0-based).  lsp_to_column: an LSP character offset on that line in the
** encoding (utf8: bytes; else UTF-16 code units) -> a 1-based byte column;
** lsp_from_column: the reverse.  Offsets past the line's end clamp to it;
** an offset inside a character goes to its start. */
typedef struct lsp_lines {
    const char *text;
    size_t len;
    VEC(size_t) starts; /* byte offset of each line */
} lsp_lines;
void lsp_lines_index(lsp_lines *l, const char *text, size_t len);
void lsp_lines_free(lsp_lines *l);
int lsp_to_column(const lsp_lines *l, int line, int64_t character, int utf8);
int64_t lsp_from_column(const lsp_lines *l, int line, int column, int utf8);

/* Applies a change of the text in [start, end) (LSP positions) to doc:
** replaced by text[0, n).  0, or -1 when the range is not in the document
** (start after end). */
int lsp_doc_edit(lsp_doc *doc, int start_line, int64_t start_char, int end_line, int64_t end_char, const char *text,
                 size_t n, int utf8);

#endif
