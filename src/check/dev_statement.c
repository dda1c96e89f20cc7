/* Developer builtin statements dropped in retail (dev_statement.h): the one
** decision the checks, the load walk and the compile records share. */
#include "check/dev_statement.h"
#include "check/check_stage.h"

int dev_statement_dropped(const profile_rules *rules, const builtin_set *set, const atrc_options *opts,
                          const char *name, int method)
{
    if (!name || !rules->dev_statement_drops_args || opts->developer_script) return 0;
    int certain;
    const builtin_entry *b = profile_builtin_lookup(rules, set, opts->game_mode,
                                                  method ? BUILTIN_METHOD : BUILTIN_FUNCTION, name, &certain);
    return b && b->dev;
}
