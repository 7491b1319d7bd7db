/* fuzz_tmj.c - libFuzzer harness for the Tiled .tmj loader and saver
 * (src/game/tiled.c); the checks are in fuzz_tiled.h. */
#include "fuzz_tiled.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_tiled(data, size, TN_TILED_TMJ, "tests/data/tiled/fuzz.tmj");
}
