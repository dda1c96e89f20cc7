/* The link stage (link.c). */
#ifndef ATRC_LINK_H
#define ATRC_LINK_H
#include "atrc.h"

/* After all scripts: build and check every registered tree, bind every reference. */
void link_trees(atrc_ctx *ctx);

#endif
