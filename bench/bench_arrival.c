/* Placeholder until this benchmark is written; owned by its module's issue. */
#include "bench.h"

#include <stdio.h>

int bench_arrival(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tilenav-bench arrival: not written yet\n");
    return 1;
}
