/* Placeholder until this benchmark is written; owned by its module's issue. */
#include "bench.h"

#include <stdio.h>

int bench_flow(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tilenav-bench flow: not written yet\n");
    return 1;
}
