"""Source of the sandbox's init helper, a small C program built once per machine.

The helper is the direct child of veriscale and the parent of the untrusted
process. Algorithm:

1. block SIGCHLD/SIGTERM/SIGINT/SIGHUP/SIGQUIT (they are taken with
   ``sigwaitinfo``, so none is lost between checks);
2. ask for SIGTERM when veriscale dies (``PR_SET_PDEATHSIG``) and exit if it
   is already gone;
3. start a new session, become a *child subreaper* (``PR_SET_CHILD_SUBREAPER``):
   every orphaned descendant, including one that called ``setsid`` or
   double-forked, is re-parented to the helper instead of to init;
4. count the tasks the target's uid already runs (``-p``: the process limit
   is set on top of them; see "Process limit" below), then optionally enter
   new namespaces (with a new user namespace when not root): network
   (``-N``: no interface but loopback) and mount (``-W DIR``: every mount is
   made read-only — one recursive ``mount_setattr`` where the kernel has it,
   else a remount per mount — except a bind mount of the private directory
   DIR, which becomes the working directory; ``/tmp`` and ``/dev/shm``
   included). ``-Q`` prints what was obtained and exits;
5. fork the target: set its rlimits (address space, CPU, file size, open
   files, processes, core 0), niceness, optionally drop to another uid/gid,
   ``PR_SET_NO_NEW_PRIVS``, death signal SIGKILL, then ``execvp``;
6. wait for the target, or for SIGTERM (a time limit or veriscale's end);
7. kill every descendant: scan ``/proc``, take the closure of the parent
   relation from the helper's pid, SIGKILL all, reap; repeat until the helper
   has no child left. Because orphans come back to the helper, "no child"
   means "no descendant";
8. exit with the target's status (same exit code, or die of the same signal).

Exit status 125 with a ``veriscale-sandbox:`` line on stderr is a setup
failure of the helper itself.

Process limit (``-p N``): RLIMIT_NPROC is N plus the tasks the kernel already
counts for the target's uid in the scope where it checks the limit, so the
target's tree gets N tasks whatever else that uid runs. Root dropping to
another uid: every task of that uid on the host, counted by one ``fstatat``
per process and a ``status`` read only for the processes whose ``/proc``
entry that uid owns (the owner is the effective uid of a dumpable process):
a task of the uid that is not dumpable at that instant (another sandbox's
child between its ``setuid`` and its ``execve``) is not counted, which makes
the limit lower, never higher. A target that stays root (veriscale as root
keeping its uid, e.g. for ``rustc``): nothing to count, the kernel never
applies the limit to root of the initial user namespace. Not root with a new
user namespace on Linux >= 5.14 (RLIMIT_NPROC counted per namespace): 1, the
helper itself. Without
a user namespace, or on older kernels: the uid's host tasks, counted before
the namespace is entered (inside it every host uid reads as the overflow
uid; the old helper counted there and so added every task of the machine).

Server mode (``-Z FD``, used by ``sandbox.server``): steps 1-4 as above (the
namespaces and the read-only view are set up once), then the helper serves
requests on the inherited ``SOCK_SEQPACKET`` unix socket FD instead of
running one program. Signals are taken through a ``signalfd`` polled with the
socket. A start request (NUL-separated text: rlimits, niceness, uid/gid,
argv, environment; the target's stdin/stdout/stderr as ``SCM_RIGHTS``) forks
a per-target init that plays the one-shot helper's part for that target alone
(parent-death SIGTERM, subreaper of the target's tree, steps 5-8: the same
child set-up, the same kill of every descendant when the target ends or on
SIGTERM) and replies ``P <pid of that init>``; when an init ends the server
reaps it and sends ``X <pid> <wait status> <user us> <sys us>`` (``wait4``'s
rusage: the target's whole tree, waited for by its init). ``K <pid> <sig>``
sends SIGTERM (or SIGKILL) to a live init — never to a reaped pid, so never to
a reused one. An orphan reaching the server (an init killed from outside) is
killed with its tree. At the socket's end (veriscale closed it or died) or on
SIGTERM (veriscale's death) the server kills every descendant, reaps, exits.
The process limit's base is counted by each target's init when the target
starts: the uid's host tasks (as in the one-shot path, other targets
included), or in a per-namespace count (Linux >= 5.14, not root) every task
of the server's tree (the server, its inits and every target's tree: all of
the namespace). Where the kernel counts host tasks inside a user namespace
(older kernels, not root) that count is impossible from inside, so the server
refuses to start (status 125) and veriscale falls back to one-shot helpers.
"""

from __future__ import annotations

__all__ = ["HELPER_C", "HELPER_VERSION"]

HELPER_VERSION = "9"

HELPER_C = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static pid_t self_pid;
static pid_t *pids, *ppids;
static long *nthreads;
static char *marks;
static size_t cap;
/* server mode: the per-target inits alive (children of the server) */
static pid_t *live;
static size_t n_live, cap_live;

static void fail(const char *what) {
    dprintf(2, "veriscale-sandbox: %s: %s\n", what, strerror(errno));
    _exit(125);
}

static int is_live(pid_t p) {
    for (size_t i = 0; i < n_live; i++)
        if (live[i] == p) return 1;
    return 0;
}

/* Every process of /proc with its parent and thread count; returns how many (-1: no /proc). */
static long scan_proc(void) {
    size_t n = 0;
    DIR *d = opendir("/proc");
    if (!d) return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end != 0 || pid <= 0 || pid == self_pid) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (k <= 0) continue;
        buf[k] = 0;
        char *rp = strrchr(buf, ')');
        char state;
        int ppid;
        long threads = 1;
        /* fields 3 (state), 4 (ppid) ... 20 (num_threads) of proc_pid_stat(5) */
        if (!rp || sscanf(rp + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %ld",
                          &state, &ppid, &threads) < 2) continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 1024;
            pid_t *a = realloc(pids, nc * sizeof *a), *b;
            if (!a) break;
            pids = a;
            b = realloc(ppids, nc * sizeof *b);
            if (!b) break;
            ppids = b;
            long *t = realloc(nthreads, nc * sizeof *t);
            if (!t) break;
            nthreads = t;
            char *m = realloc(marks, nc);
            if (!m) break;
            marks = m;
            cap = nc;
        }
        pids[n] = (pid_t)pid;
        ppids[n] = (pid_t)ppid;
        nthreads[n] = threads;
        marks[n] = 0;
        n++;
    }
    closedir(d);
    return (long)n;
}

/* Mark the descendants of `root` among the n scanned processes (skip_live: not the server's live
   per-target inits, nor so their trees); returns how many. */
static int mark_tree(size_t n, pid_t root, int skip_live) {
    int changed = 1, count = 0;
    while (changed) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            if (marks[i] || (skip_live && is_live(pids[i]))) continue;
            int hit = ppids[i] == root;
            for (size_t j = 0; !hit && j < n; j++) hit = marks[j] && pids[j] == ppids[i];
            if (hit) {
                marks[i] = 1;
                changed = 1;
                count++;
            }
        }
    }
    return count;
}

/* SIGKILL every descendant of the helper (skip_live: except the live per-target inits' trees);
   returns how many were signalled. */
static int kill_tree(int skip_live) {
    long n = scan_proc();
    if (n < 0) return -1;
    int count = mark_tree((size_t)n, self_pid, skip_live);
    for (long i = 0; i < n; i++)
        if (marks[i]) kill(pids[i], SIGKILL);
    return count;
}

static int kill_descendants(void) { return kill_tree(0); }

/* Tasks (threads) of `root` and its descendants (root's own count included). */
static long subtree_tasks(pid_t root) {
    pid_t keep = self_pid;
    self_pid = 0; /* (scan_proc skips self_pid: here every process is wanted) */
    long n = scan_proc();
    self_pid = keep;
    if (n < 0) return -1;
    mark_tree((size_t)n, root, 0);
    long total = 0;
    for (long i = 0; i < n; i++)
        if (marks[i] || pids[i] == root) total += nthreads[i];
    return total;
}

/* Kill and reap every descendant until the helper has no child left (orphans come back to it, so
   "no child" means "no descendant"). */
static void reap_all(void) {
    for (;;) {
        int st, reaped = 0;
        pid_t w;
        while ((w = waitpid(-1, &st, WNOHANG)) > 0) reaped = 1;
        if (w < 0 && errno == ECHILD) break;
        int killed = kill_descendants();
        if (!reaped && killed <= 0) {
            struct timespec ts = {0, 500000};
            nanosleep(&ts, NULL);
        }
    }
}

/* Tasks (threads) whose real uid is `uid`: the count RLIMIT_NPROC compares with its limit (outside a
   new user namespace). Reading every process's `status` (the kernel formats 1-4 KB of text each) was
   most of the helper's start-up, so a process is first tested cheaply: one fstatat of /proc/<pid>,
   whose owner is the process's EFFECTIVE uid while it is dumpable, and root while it is not.
   Only processes the uid owns are read (status gives the real uid and the thread count).
   Skipped although their real uid is `uid` (so not counted): the uid's NON-DUMPABLE tasks (a
   sandbox's child between its setuid and its execve — execve makes it dumpable again — or a
   program that made itself non-dumpable) and a process whose effective uid differs from its real
   one. Not counting a task makes the limit (nproc + this count) LOWER by one, never higher: the
   imprecision only ever tightens the limit, by at most the number of such tasks at this instant. */
static long tasks_of(uid_t uid) {
    long total = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    int dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *c = e->d_name;
        while (*c >= '0' && *c <= '9') c++;
        if (*c != 0 || c == e->d_name) continue; /* not a pid */
        struct stat st;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != uid) continue;
        char path[sizeof e->d_name + 8], buf[4096];
        snprintf(path, sizeof path, "%s/status", e->d_name);
        int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (k <= 0) continue;
        buf[k] = 0;
        char *u = strstr(buf, "\nUid:");
        char *t = strstr(buf, "\nThreads:");
        if (!u || !t) continue;
        if ((uid_t)strtol(u + 5, NULL, 10) == uid) total += strtol(t + 9, NULL, 10);
    }
    closedir(d);
    return total;
}

/* Since Linux 5.14 RLIMIT_NPROC is counted per (user namespace, uid) and checked against the limit
   in the task's own namespace (the counts of the enclosing namespaces are checked against the limit
   their creator had). In a user namespace the helper created, the uid's only task before the fork is
   the helper itself. Older kernels count every task of the uid, namespaces or not. */
static int nproc_per_userns(void) {
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2) return 0;
    return major > 5 || (major == 5 && minor >= 14);
}

/* The caller is global root: uid 0 in the initial user namespace (its uid_map is the identity over
   every uid). The kernel never applies RLIMIT_NPROC to global root, so a target that stays root needs
   no count (the count would read every process's status: they are nearly all root's). Anything else
   (a container's root in its own user namespace, where root may be an ordinary uid of the host) is
   counted. */
static int global_root(void) {
    if (getuid() != 0) return 0;
    char buf[256];
    int fd = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) return 0;
    buf[k] = 0;
    unsigned long inside, outside, count;
    int used = 0;
    if (sscanf(buf, " %lu %lu %lu %n", &inside, &outside, &count, &used) != 3) return 0;
    return inside == 0 && outside == 0 && count == 4294967295UL && buf[used] == 0;
}

/* Undo the octal escapes (\040 ...) of a mountinfo path in place. */
static void unescape(char *p) {
    char *w = p;
    for (char *r = p; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] && r[3]) {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = 0;
}

/* mount_setattr(2) (Linux 5.12): one call changes one flag of a whole mount tree, keeping the others. */
struct vs_mount_attr { unsigned long long attr_set, attr_clr, propagation, userns_fd; };
#define VS_MOUNT_ATTR_RDONLY 0x1ULL
#define VS_AT_RECURSIVE 0x8000

static int set_rdonly(const char *path, int recursive, int on) {
#ifdef __NR_mount_setattr
    struct vs_mount_attr a = {on ? VS_MOUNT_ATTR_RDONLY : 0, on ? 0 : VS_MOUNT_ATTR_RDONLY, 0, 0};
    return (int)syscall(__NR_mount_setattr, AT_FDCWD, path, recursive ? VS_AT_RECURSIVE : 0, &a, sizeof a);
#else
    (void)path; (void)recursive; (void)on;
    errno = ENOSYS;
    return -1;
#endif
}

/* In a fresh mount namespace: the private directory stays writable, everything else is read-only.
   Fast path: every mount read-only in one recursive mount_setattr (all or nothing), then the bind
   mount of the private directory writable again (that mount only: mounts below it stay read-only,
   as in the slow path). Slow path (older kernels, or a tree the call refuses as a whole): remount
   each mount of /proc/self/mountinfo read-only, passing its other flags on (a bind remount replaces
   them); only a failure on "/" is fatal. */
static int confine_fs(const char *work) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    if (mount(work, work, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    if (set_rdonly("/", 1, 1) == 0) {
        if (set_rdonly(work, 0, 0) != 0) return -1;
        return chdir(work);
    }
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) return -1;
    char line[4096];
    int failed = 0;
    while (fgets(line, sizeof line, f)) {
        char *save = NULL, *tok = strtok_r(line, " ", &save);
        for (int k = 0; tok && k < 4; k++) tok = strtok_r(NULL, " ", &save);
        if (!tok) continue;
        unescape(tok);
        if (strcmp(tok, work) == 0) continue;
        struct statvfs sv;
        if (statvfs(tok, &sv) != 0) continue;
        unsigned long fl = MS_REMOUNT | MS_BIND | MS_RDONLY;
        if (sv.f_flag & ST_NOSUID) fl |= MS_NOSUID;
        if (sv.f_flag & ST_NODEV) fl |= MS_NODEV;
        if (sv.f_flag & ST_NOEXEC) fl |= MS_NOEXEC;
        if (sv.f_flag & ST_NOATIME) fl |= MS_NOATIME;
        if (sv.f_flag & ST_NODIRATIME) fl |= MS_NODIRATIME;
        if (sv.f_flag & ST_RELATIME) fl |= MS_RELATIME;
        if (mount(NULL, tok, NULL, fl, NULL) != 0 && strcmp(tok, "/") == 0) failed = 1;
    }
    fclose(f);
    if (failed) return -1;
    return chdir(work);
}

static void limit(int res, long long v) {
    if (v < 0) return;
    /* CPU: SIGXCPU at the soft limit, SIGKILL one second later */
    struct rlimit r = {(rlim_t)v, (rlim_t)(res == RLIMIT_CPU ? v + 1 : v)};
    if (setrlimit(res, &r) != 0) fail("setrlimit");
}

/* What one target gets: rlimits (-1: unset), niceness, uid/gid (-1: kept), argv, and its environment
   (NULL: the helper's own). */
struct target {
    long long as, cpu, fsize, nofile, nproc;
    long uid, gid, niceness;
    char **argv, **envp;
};

static sigset_t waitset, old_mask;

/* In the forked child: the target's set-up, then execvp (never returns). */
static void exec_target(const struct target *t, pid_t parent) {
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    setpgid(0, 0);
    limit(RLIMIT_AS, t->as);
    limit(RLIMIT_CPU, t->cpu);
    limit(RLIMIT_FSIZE, t->fsize);
    limit(RLIMIT_NOFILE, t->nofile);
    if (t->niceness > 0 && nice((int)t->niceness) == -1 && errno != 0) fail("nice");
    if (t->gid >= 0) {
        if (setgroups(0, NULL) != 0) fail("setgroups");
        if (setgid((gid_t)t->gid) != 0) fail("setgid");
    }
    if (t->uid >= 0 && setuid((uid_t)t->uid) != 0) fail("setuid");
    limit(RLIMIT_NPROC, t->nproc); /* after setuid: the limit is checked against the new uid */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail("PR_SET_PDEATHSIG");
    if (getppid() != parent) _exit(125);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("PR_SET_NO_NEW_PRIVS");
    if (t->envp) environ = t->envp;
    execvp(t->argv[0], t->argv);
    dprintf(2, "veriscale-sandbox: cannot run %s: %s\n", t->argv[0], strerror(errno));
    _exit(127);
}

/* Wait for the target `child`, or for SIGTERM (a time limit or veriscale's end: the tree is killed);
   then kill every descendant. Returns the target's wait status. */
static int supervise(pid_t child) {
    close(0); /* a writer to the target's stdin sees EPIPE as soon as the target is gone */
    int status = 0, have = 0;
    while (!have) {
        int st;
        pid_t w;
        while ((w = waitpid(-1, &st, WNOHANG)) > 0)
            if (w == child) { status = st; have = 1; }
        if (have) break;
        int s = sigwaitinfo(&waitset, NULL);
        if (s == SIGTERM || s == SIGINT || s == SIGHUP || s == SIGQUIT) kill_descendants();
    }
    /* The target is gone: nothing it started may outlive it. As a subreaper the helper
       has no descendant once it has no child, so the usual case costs no /proc scan. */
    reap_all();
    return status;
}

/* Exit with the target's status: the same exit code, or death by the same signal. */
static void exit_like(int status) {
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    kill(self_pid, sig);
    _exit(128 + sig);
}

/* How RLIMIT_NPROC's "already" is counted (see the module docstring): decided before the namespaces
   are entered, where the host's uids are still visible. */
static uid_t real_uid;
static int is_global_root, userns, per_ns;
static pid_t server_pid;

static long already_for(uid_t counted) {
    if (userns && per_ns) /* every task of this namespace descends from the helper (or the server) */
        return server_pid ? subtree_tasks(server_pid) : 1;
    return counted == 0 && !userns && is_global_root ? 0 : tasks_of(counted);
}

/* ---- server mode (-Z FD): targets started on request over a SOCK_SEQPACKET unix socket ---- */

static int sock_fd = -1, sig_fd = -1;

/* One message to veriscale (a failure means it is gone: the main loop then sees the socket's end). */
static void reply(const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k > 0) (void)send(sock_fd, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1, MSG_NOSIGNAL);
}

/* The next NUL-terminated field of a request, or NULL past its end. */
static char *field(char **p, char *end) {
    if (*p >= end) return NULL;
    char *f = *p;
    char *z = memchr(f, 0, (size_t)(end - f));
    if (!z) return NULL;
    *p = z + 1;
    return f;
}

/* A start request: "S" as cpu fsize nofile nproc nice uid gid argc argv... env... (NUL-separated),
   with the target's stdin, stdout and stderr as SCM_RIGHTS. Replies "P pid" (the target's init) or
   "E message". */
static void start_request(char *p, char *end, const int *fds) {
    struct target t;
    long long *num[] = {&t.as, &t.cpu, &t.fsize, &t.nofile, &t.nproc};
    char *f;
    for (size_t i = 0; i < 5; i++) {
        if (!(f = field(&p, end))) { reply("E bad request\n"); return; }
        *num[i] = atoll(f);
    }
    long *lnum[] = {&t.niceness, &t.uid, &t.gid};
    for (size_t i = 0; i < 3; i++) {
        if (!(f = field(&p, end))) { reply("E bad request\n"); return; }
        *lnum[i] = atol(f);
    }
    long argc = (f = field(&p, end)) ? atol(f) : 0;
    size_t nf = 0;
    for (char *q = p; q < end; q++) nf += *q == 0;
    if (argc <= 0 || (size_t)argc > nf) { reply("E bad request\n"); return; }
    char **arr = calloc(nf + 2, sizeof *arr);
    if (!arr) { reply("E out of memory\n"); return; }
    t.argv = arr;
    for (long i = 0; i < argc; i++) arr[i] = field(&p, end);
    t.envp = arr + argc + 1;
    for (size_t i = 0; (f = field(&p, end)) != NULL; i++) t.envp[i] = f;
    if (n_live == cap_live) {
        size_t nc = cap_live ? cap_live * 2 : 16;
        pid_t *l = realloc(live, nc * sizeof *l);
        if (!l) { free(arr); reply("E out of memory\n"); return; }
        live = l;
        cap_live = nc;
    }
    pid_t init = fork();
    if (init < 0) {
        free(arr);
        reply("E fork failed\n");
        return;
    }
    if (init == 0) {
        /* the target's own init: the one-shot helper's role for this target alone (subreaper of its
           tree, killed with it when the target ends, SIGTERM from the server or the server's death) */
        close(sock_fd);
        close(sig_fd);
        self_pid = getpid();
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) fail("PR_SET_PDEATHSIG");
        if (getppid() != server_pid) _exit(125);
        if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) fail("PR_SET_CHILD_SUBREAPER");
        for (int i = 0; i < 3; i++)
            if (dup2(fds[i], i) < 0) fail("dup2");
        for (int i = 0; i < 3; i++)
            if (fds[i] > 2) close(fds[i]);
        if (t.nproc >= 0) t.nproc += already_for(t.uid >= 0 ? (uid_t)t.uid : real_uid);
        pid_t child = fork();
        if (child < 0) fail("fork");
        if (child == 0) exec_target(&t, self_pid);
        exit_like(supervise(child));
    }
    free(arr);
    live[n_live++] = init;
    reply("P %ld\n", (long)init);
}

/* Children of the server that are not live per-target inits: orphans of a tree whose init died
   (killed from outside). Reading the children list is one small file; a full scan only when it
   names an orphan (or cannot be read). */
static int has_orphans(void) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)self_pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k < 0 || k == (ssize_t)sizeof buf - 1) return 1;
    buf[k] = 0;
    for (char *q = buf, *end; *q; q = end) {
        long pid = strtol(q, &end, 10);
        if (end == q) break;
        if (!is_live((pid_t)pid)) return 1;
    }
    return 0;
}

static int serve(void) {
    int sfd = sig_fd = signalfd(-1, &waitset, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) fail("signalfd");
    server_pid = self_pid;
    reply("R %ld\n", (long)self_pid);
    static char buf[1 << 16];
    int running = 1;
    while (running) {
        struct pollfd pf[2] = {{sock_fd, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (poll(pf, 2, -1) < 0 && errno != EINTR) break;
        if (pf[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
                if (si.ssi_signo != SIGCHLD) running = 0;
        }
        if (running && (pf[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            union { struct cmsghdr h; char b[CMSG_SPACE(8 * sizeof(int))]; } cb;
            struct iovec iov = {buf, sizeof buf - 1};
            struct msghdr m;
            memset(&m, 0, sizeof m);
            m.msg_iov = &iov;
            m.msg_iovlen = 1;
            m.msg_control = cb.b;
            m.msg_controllen = sizeof cb.b;
            ssize_t k = recvmsg(sock_fd, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
            if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
                running = 0; /* veriscale closed its end or is gone */
            } else if (k > 0) {
                int fds[8], nfds = 0;
                for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
                    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                        int cnt = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
                        for (int i = 0; i < cnt && nfds < 8; i++) memcpy(&fds[nfds++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                    }
                buf[k] = 0;
                char *p = buf, *end = buf + k;
                char *kind = field(&p, end);
                if (kind && strcmp(kind, "S") == 0) {
                    if (nfds == 3 && !(m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) start_request(p, end, fds);
                    else reply("E a start request needs 3 descriptors and at most 64 KiB\n");
                } else if (kind && strcmp(kind, "K") == 0) {
                    /* end a target: SIGTERM to its init (which kills the tree), SIGKILL when asked; only
                       a live init (not reaped yet: its pid cannot have been reused) */
                    char *a = field(&p, end), *b = field(&p, end);
                    pid_t pid = a ? (pid_t)atol(a) : 0;
                    int sig = b && atoi(b) == SIGKILL ? SIGKILL : SIGTERM;
                    if (pid > 0 && is_live(pid)) kill(pid, sig);
                }
                for (int i = 0; i < nfds; i++) close(fds[i]);
            }
        }
        /* reap: a per-target init's end is reported with the CPU of its whole tree (wait4's rusage
           covers the children it reaped); anything else is an orphan, killed with its tree */
        int st, reaped = 0;
        struct rusage ru;
        pid_t w;
        while ((w = wait4(-1, &st, WNOHANG, &ru)) > 0) {
            reaped = 1;
            for (size_t i = 0; i < n_live; i++)
                if (live[i] == w) {
                    live[i] = live[--n_live];
                    reply("X %ld %ld %lld %lld\n", (long)w, (long)st,
                          (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
                          (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec);
                    break;
                }
        }
        if (reaped && has_orphans()) kill_tree(1);
    }
    /* the end: every descendant killed and reaped */
    reap_all();
    return 0;
}

int main(int argc, char **argv) {
    struct target t = {-1, -1, -1, -1, -1, -1, -1, 0, NULL, NULL};
    long parent = -1;
    int want_net = 0, probe = 0, opt;
    const char *work = NULL;
    while ((opt = getopt(argc, argv, "+a:c:f:n:p:u:g:y:P:W:Z:NQ")) != -1) {
        switch (opt) {
        case 'a': t.as = atoll(optarg); break;
        case 'c': t.cpu = atoll(optarg); break;
        case 'f': t.fsize = atoll(optarg); break;
        case 'n': t.nofile = atoll(optarg); break;
        case 'p': t.nproc = atoll(optarg); break;
        case 'u': t.uid = atol(optarg); break;
        case 'g': t.gid = atol(optarg); break;
        case 'y': t.niceness = atol(optarg); break;
        case 'P': parent = atol(optarg); break;
        case 'N': want_net = 1; break;
        case 'W': work = optarg; break;
        case 'Z': sock_fd = atoi(optarg); break;
        case 'Q': probe = 1; break;
        default: dprintf(2, "veriscale-sandbox: bad option\n"); _exit(125);
        }
    }
    int server = sock_fd >= 0;
    if (!probe && !server && optind >= argc) { dprintf(2, "veriscale-sandbox: no program\n"); _exit(125); }
    self_pid = getpid();
    sigemptyset(&waitset);
    int sigs[] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaddset(&waitset, sigs[i]);
    if (sigprocmask(SIG_BLOCK, &waitset, &old_mask) != 0) fail("sigprocmask");
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) fail("PR_SET_PDEATHSIG");
    if (parent > 0 && getppid() != (pid_t)parent) _exit(125);
    setsid();
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) fail("PR_SET_CHILD_SUBREAPER");
    limit(RLIMIT_CORE, 0);
    int net = 0, fs = 0;
    int flags = (want_net ? CLONE_NEWNET : 0) | (work ? CLONE_NEWNS : 0);
    int user = flags && geteuid() != 0 ? CLONE_NEWUSER : 0;
    /* RLIMIT_NPROC is set on top of what the target's uid already runs (other sandboxes of the same uid
       run beside this one), counted in the host's view: before a new user namespace, where every host
       uid would read as the overflow uid (and not at all when that namespace will be the count's scope) */
    per_ns = user && nproc_per_userns();
    real_uid = getuid();
    is_global_root = real_uid == 0 && global_root();
    long already = -1;
    uid_t counted = t.uid >= 0 ? (uid_t)t.uid : real_uid;
    if (t.nproc >= 0 && !probe && !server && !per_ns)
        already = counted == 0 && !user && is_global_root ? 0 : tasks_of(counted);
    if (flags) {
        if (unshare(flags | user) == 0) {
            net = want_net;
            fs = work != NULL;
            userns = user != 0;
        } else if (want_net && unshare(CLONE_NEWNET | user) == 0) {
            net = 1;
            userns = user != 0;
        }
        if (fs && confine_fs(work) != 0) fail("read-only file system view");
    }
    if (probe) {
        printf("subreaper=1 net=%d fs=%d euid=%d\n", net, fs, (int)geteuid());
        return 0;
    }
    if (server) {
        /* a server counts each target's RLIMIT_NPROC base when the target starts: impossible from inside
           a user namespace where the kernel counts the uid's host tasks (every host uid reads as the
           overflow uid there) */
        if (userns && !per_ns) {
            errno = ENOSYS;
            fail("server mode: RLIMIT_NPROC cannot be counted inside this kernel's user namespace");
        }
        return serve();
    }
    if (t.nproc >= 0) {
        if (userns && per_ns) already = 1; /* the helper: its uid's one task in the new namespace */
        else if (already < 0) already = tasks_of(counted); /* no user namespace after all: the host view */
        t.nproc += already;
    }
    t.argv = argv + optind;
    pid_t child = fork();
    if (child < 0) fail("fork");
    if (child == 0) exec_target(&t, self_pid);
    exit_like(supervise(child));
    return 0;
}
"""
