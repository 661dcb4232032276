/* probe_short: an instrumented program that runs for about 5 ms (one kernel
 * that sleeps 5 ms), for the test that `prophecy-upload exec` stores a short
 * run's time as it is, not the probe's exit-time calibration. */
#include "probe.h"

#include <time.h>

int main(void)
{
    struct timespec ts = {0, 5 * 1000000L};
    probe_begin("nap");
    while (nanosleep(&ts, &ts) != 0)
        ;
    probe_end("nap");
    return 0;
}
