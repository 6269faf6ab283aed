/* Inside a session: a write lease on FILE through every fcntl entry the kernel has on
 * x86_64: the native fcntl (72), the compat int 0x80 fcntl (55) and fcntl64 (221), and the
 * x32 fcntl (0x40000000 | 72). Each should fail (EPERM, or ENOSYS for x32); a 0 is a lease.
 * usage: lease_abi FILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long compat(long nr, long a, long b, long c) {
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
    return ret;
}

int main(int argc, char **argv) {
    int fd = open(argc > 1 ? argv[1] : "/proc/self/exe", O_RDONLY);
    if (fd < 0) { perror("open"); return 1; }
    long r = syscall(72, fd, 1024 /* F_SETLEASE */, 1 /* F_WRLCK */);
    printf("native fcntl:   %ld %s\n", r, r ? strerror(errno) : "LEASE TAKEN");
    if (!r) syscall(72, fd, 1024, 2);
    r = compat(55, fd, 1024, 1);
    printf("compat fcntl:   %ld %s\n", r, r ? strerror((int)-r) : "LEASE TAKEN");
    if (!r) compat(55, fd, 1024, 2);
    r = compat(221, fd, 1024, 1);
    printf("compat fcntl64: %ld %s\n", r, r ? strerror((int)-r) : "LEASE TAKEN");
    if (!r) compat(221, fd, 1024, 2);
    r = syscall(0x40000000 | 72, fd, 1024, 1);
    printf("x32 fcntl:      %ld %s\n", r, r ? strerror(errno) : "LEASE TAKEN");
    return 0;
}
