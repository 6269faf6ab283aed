/* uffd_exec: execve() a path that lives in a page registered with userfaultfd and never
   filled, so whoever reads the path from this process's memory (the exec watch, through
   /proc/<pid>/mem) faults on it and waits for this process to answer the fault.
   usage: uffd_exec HOLD_SECONDS PROGRAM [ARGS...]: the fault is answered (the path copied
   in) after HOLD_SECONDS, so the stall ends. Prints which userfaultfd mode it got. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int uffd;
static char *page;
static long size;
static int hold;
static const char *program;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void *handler(void *unused) {
  (void)unused;
  struct pollfd p = {uffd, POLLIN, 0};
  while (poll(&p, 1, -1) > 0) {
    struct uffd_msg msg;
    if (read(uffd, &msg, sizeof msg) != sizeof msg) continue;
    fprintf(stderr, "uffd_exec: fault at %llx (%s) at %.2f; answering in %d s\n",
            (unsigned long long)msg.arg.pagefault.address,
            msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WRITE ? "write" : "read", now(),
            hold);
    sleep(hold);
    char *src = aligned_alloc(size, size);
    memset(src, 0, size);
    strcpy(src, program);
    struct uffdio_copy copy = {(unsigned long)page, (unsigned long)src, size, 0, 0};
    ioctl(uffd, UFFDIO_COPY, &copy);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3) return 64;
  hold = atoi(argv[1]);
  program = argv[2];
  size = sysconf(_SC_PAGESIZE);
  const char *mode = "full";
  uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
  if (uffd < 0) { /* the device: its file mode decides, no capability */
    int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
    if (dev >= 0) {
      mode = "device";
      uffd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC);
      close(dev);
    }
  }
  if (uffd < 0) {
    mode = "user-mode-only";
    uffd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
  }
  if (uffd < 0) { perror("userfaultfd"); return 1; }
  struct uffdio_api api = {UFFD_API, 0, 0};
  if (ioctl(uffd, UFFDIO_API, &api)) { perror("UFFDIO_API"); return 1; }
  page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  struct uffdio_register reg = {{(unsigned long)page, size}, UFFDIO_REGISTER_MODE_MISSING, 0};
  if (ioctl(uffd, UFFDIO_REGISTER, &reg)) { perror("UFFDIO_REGISTER"); return 1; }
  pthread_t t;
  pthread_create(&t, NULL, handler, NULL);
  fprintf(stderr, "uffd_exec: userfaultfd %s; execve at %.2f\n", mode, now());
  execv(page, argv + 2);
  fprintf(stderr, "uffd_exec: execve failed at %.2f: %s\n", now(), strerror(errno));
  return 1;
}
