/* uffd_on_hook: what a process left by an earlier tool call runs inside `hookwise run`. It
   polls /proc; as soon as a hook's shell has exec'd (its command line is the registered
   command), a vfork'd child of it (same memory) execs a path kept in a userfaultfd page
   never filled. The exec watch's one thread reads that path from /proc/<child>/mem and
   waits on the fault, HOLD seconds; meanwhile the hook's shell's own exec of the launcher
   waits behind it. No signal, no write, no CPU: one exec per hook call.
   usage: uffd_on_hook HOLD SECONDS */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int uffd, hold;
static char *page;
static long size;

static void *handler(void *unused) {
  (void)unused;
  struct pollfd p = {uffd, POLLIN, 0};
  char *src = aligned_alloc(size, size);
  memset(src, 0, size);
  strcpy(src, "/bin/true");
  while (poll(&p, 1, -1) > 0) {
    struct uffd_msg msg;
    if (read(uffd, &msg, sizeof msg) != sizeof msg) continue;
    fprintf(stderr, "uffd_on_hook: the exec watch faulted on the path; held %d s\n", hold);
    sleep(hold);
    struct uffdio_copy copy = {(unsigned long)page, (unsigned long)src, size, 0, 0};
    ioctl(uffd, UFFDIO_COPY, &copy);
  }
  return NULL;
}

static char stack[65536];
static int child(void *unused) {
  (void)unused;
  char *argv[] = {page, NULL};
  execv(page, argv);
  _exit(1);
}

static int is_hook_shell(const char *pid) {
  char path[64], line[4096];
  snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t n = read(fd, line, sizeof line - 1);
  close(fd);
  if (n <= 0) return 0;
  line[n] = 0;
  for (ssize_t i = 0; i < n; i++) if (!line[i]) line[i] = ' ';
  return strstr(line, "uid_map") && strstr(line, "hookwise");
}

int main(int argc, char **argv) {
  if (argc < 3) return 64;
  hold = atoi(argv[1]);
  time_t end = time(NULL) + atoi(argv[2]);
  size = sysconf(_SC_PAGESIZE);
  uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
  if (uffd < 0) {
    int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
    if (dev >= 0) uffd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC);
  }
  if (uffd < 0) { perror("userfaultfd"); return 1; }
  struct uffdio_api api = {UFFD_API, 0, 0};
  if (ioctl(uffd, UFFDIO_API, &api)) { perror("UFFDIO_API"); return 1; }
  page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  struct uffdio_register reg = {{(unsigned long)page, size}, UFFDIO_REGISTER_MODE_MISSING, 0};
  if (ioctl(uffd, UFFDIO_REGISTER, &reg)) { perror("UFFDIO_REGISTER"); return 1; }
  pthread_t t;
  pthread_create(&t, NULL, handler, NULL);
  int seen[4096], nseen = 0;
  while (time(NULL) < end) {
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
      int pid = atoi(e->d_name), known = 0;
      if (pid <= 0) continue;
      for (int i = 0; i < nseen; i++) known |= seen[i] == pid;
      if (known || !is_hook_shell(e->d_name)) continue;
      if (nseen < 4096) seen[nseen++] = pid;
      fprintf(stderr, "uffd_on_hook: hook shell %d\n", pid);
      madvise(page, size, MADV_DONTNEED);  /* the page missing again */
      pid_t c = clone(child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
      if (c > 0) waitpid(c, NULL, 0);
    }
    if (d) closedir(d);
    usleep(1000);
  }
  return 0;
}
