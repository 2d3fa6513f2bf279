/*
 * t_rev_exit.c MODE ... -- the way out of the library: statistics, the
 * MPI_COMM_SELF attribute, and the user's error handlers.
 *
 *   partial [exit]  (3) ranks 0 and 1 make a 1 x 2 grid over a communicator
 *                of their own (Csys2blacs_handle), sum, exit the grid and
 *                (with exit) call BLACS_EXIT(1); rank 2 never calls the
 *                BLACS; everybody ends with MPI_Finalize.  Run with
 *                BLACS_STATS=1: the statistics must not wait for rank 2
 *                (a watchdog turns a hang into a message and exit 3)
 *   selfattr before|after  (any) an attribute of the program's own on
 *                MPI_COMM_SELF, set before or after BLACS_PINFO, whose
 *                delete callback calls BLACS_EXIT(1) inside MPI_Finalize
 *                (MPI deletes them in the reverse order of setting: before
 *                runs it after the library's own callback); a sum, then
 *                MPI_Finalize.  TESTING/rev_exit_stats.sh counts the tables
 *   errh sendrecv|sum  (2, MPI_THREAD_MULTIPLE) on each process a second
 *                thread reads MPI_COMM_WORLD's error handler again and
 *                again and soon sets one of its own, while the main thread
 *                waits in Cdsendrecv or a '1' DGSUM2D for process 1, who
 *                sleeps first: the handler is never MPI_ERRORS_RETURN and
 *                afterwards still the thread's own
 *   dlopen LIB [exit]  (any; only in the binary t_rev_exit_dl, which is
 *                not linked with the library) loads LIB (libblacs.so),
 *                calls Cblacs_pinfo (and with exit Cblacs_exit(1)),
 *                unloads it and calls MPI_Finalize: MPI must not call into
 *                the unloaded library.  Prints "dlopen ok"
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#ifdef REV_EXIT_DLHOST
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blacs.h" /* the types only: nothing of the library is linked in */
#else
#include "tutil.h"
#endif

/* ---- a watchdog: a hang is a failure with a message, not a timeout ----- */
#ifdef REV_EXIT_DLHOST
/* the host links neither the library nor the test helpers (tu_util.c) */
static void on_alarm(int sig)
{
    (void)sig;
    static const char m[] = "t_rev_exit: HANG: the operation did not finish within the watchdog time\n";
    ssize_t w = write(2, m, sizeof m - 1);
    (void)w;
    _exit(3);
}
static void watchdog(unsigned s)
{
    signal(SIGALRM, on_alarm);
    alarm(s);
}
#else
static void watchdog(unsigned s) { tu_watchdog("t_rev_exit", s); }
#endif

#ifdef REV_EXIT_DLHOST
/* ---- dlopen --------------------------------------------------------------- */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3 || strcmp(argv[1], "dlopen")) {
        fprintf(stderr, "t_rev_exit_dl: usage: dlopen LIB [exit]\n");
        return 2;
    }
    int do_exit = argc > 3 && !strcmp(argv[3], "exit");
    watchdog(60);
    void *lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "t_rev_exit_dl: %s\n", dlerror());
        return 1;
    }
    void (*pinfo)(blacs_int *, blacs_int *) =
        (void (*)(blacs_int *, blacs_int *))dlsym(lib, "Cblacs_pinfo");
    void (*bexit)(blacs_int) = (void (*)(blacs_int))dlsym(lib, "Cblacs_exit");
    if (!pinfo || !bexit) {
        fprintf(stderr, "t_rev_exit_dl: Cblacs_pinfo or Cblacs_exit missing\n");
        return 1;
    }
    blacs_int me = -1, np = -1;
    pinfo(&me, &np);
    if (do_exit) bexit(1);
    if (dlclose(lib)) {
        fprintf(stderr, "t_rev_exit_dl: dlclose: %s\n", dlerror());
        return 1;
    }
    MPI_Finalize();
    printf("dlopen ok\n");
    return 0;
}
#else

/* ---- partial -------------------------------------------------------------- */
static int partial(int do_exit)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm two;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &two);
    watchdog(60);
    if (rank < 2) {
        blacs_int ctxt = Csys2blacs_handle(two);
        Cblacs_gridinit(&ctxt, "Row", 1, 2);
        double a[4] = {1, 2, 3, 4};
        Cdgsum2d(ctxt, "All", " ", 4, 1, a, 4, -1, -1);
        TU_CHECK(a[3] == 8.0, "the sum over the two gave %g", a[3]);
        Cblacs_gridexit(ctxt);
        Cfree_blacs_system_handle(Csys2blacs_handle(two));
        if (do_exit) Cblacs_exit(1);
        MPI_Comm_free(&two);
    }
    int fails = tu_fail;
    MPI_Finalize();
    alarm(0);
    if (!fails) printf("partial ok on %d\n", rank);
    return fails ? 1 : 0;
}

/* ---- selfattr --------------------------------------------------------------- */
static int calls_in_callback;

static int exit_in_callback(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    calls_in_callback++;
    Cblacs_exit(1);
    return MPI_SUCCESS;
}

static int selfattr(int before)
{
    int key;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, exit_in_callback, &key, NULL);
    if (before) MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
    blacs_int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    if (!before) MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    double a[4] = {1, 2, 3, 4};
    for (int i = 0; i < 3; i++) Cdgsum2d(ctxt, "All", " ", 4, 1, a, 4, -1, -1);
    Cblacs_gridexit(ctxt);
    MPI_Comm_free_keyval(&key); /* the attribute keeps it until MPI_Finalize */
    watchdog(60);
    MPI_Finalize();
    alarm(0);
    if (calls_in_callback != 1) {
        fprintf(stderr, "t_rev_exit: the program's delete callback ran %d times\n",
                calls_in_callback);
        return 1;
    }
    return 0;
}

/* ---- errh --------------------------------------------------------------------- */
static atomic_int waiting_done;
static MPI_Errhandler mine;
static long seen_return, seen_other, checks;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

static void *checker(void *arg)
{
    (void)arg;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int set = 0;
    while (!atomic_load(&waiting_done)) {
        MPI_Errhandler h;
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
        checks++;
        if (h == MPI_ERRORS_RETURN) seen_return++;
        else if (set && h != mine) seen_other++;
        MPI_Errhandler_free(&h);
        clock_gettime(CLOCK_MONOTONIC, &t);
        /* half a second into the wait: the program's own handler */
        if (!set && (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 500000000L) {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
            set = 1;
        }
        struct timespec d = {0, 100000};
        nanosleep(&d, NULL);
    }
    return NULL;
}

static void errh(const char *what)
{
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 2);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    MPI_Comm_create_errhandler(my_handler, &mine);
    watchdog(60);
    pthread_t th;
    atomic_store(&waiting_done, 0);
    pthread_create(&th, NULL, checker, NULL);
    if (c == 1) sleep(2); /* the other one waits for this process meanwhile */
    double a[4] = {1 + (double)c, 2, 3, 4}, b[4] = {0, 0, 0, 0};
    if (!strcmp(what, "sendrecv")) {
        Cdsendrecv(ctxt, 4, 1, a, 4, 0, 1 - c, 4, 1, b, 4, 0, 1 - c);
        TU_CHECK(b[0] == 2 - (double)c, "Cdsendrecv brought %g", b[0]);
    } else {
        Cdgsum2d(ctxt, "All", "1", 4, 1, a, 4, -1, -1);
        TU_CHECK(a[0] == 3.0, "the '1' sum gave %g", a[0]);
    }
    if (c == 0) sleep(1); /* the waiter: the thread looks a while longer */
    atomic_store(&waiting_done, 1);
    pthread_join(th, NULL);
    alarm(0);
    MPI_Errhandler h;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    TU_CHECK(h == mine, "after the wait MPI_COMM_WORLD's handler is not the one the program's "
             "thread set during it");
    MPI_Errhandler_free(&h);
    TU_CHECK(seen_return == 0, "MPI_COMM_WORLD's handler was MPI_ERRORS_RETURN in %ld of %ld "
             "looks during the wait", seen_return, checks);
    TU_CHECK(seen_other == 0, "the thread's handler was replaced in %ld of %ld looks",
             seen_other, checks);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&mine);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "errh")) {
        int got = 0;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &got);
        if (got < MPI_THREAD_MULTIPLE) {
            printf("t_rev_exit: no MPI_THREAD_MULTIPLE here; nothing to test\n");
            MPI_Finalize();
            return 0;
        }
    }
    tu_init(&argc, &argv);
    if (!strcmp(mode, "partial")) return partial(argc > 2 && !strcmp(argv[2], "exit"));
    if (!strcmp(mode, "selfattr")) return selfattr(argc > 2 && !strcmp(argv[2], "before"));
    if (!strcmp(mode, "errh")) errh(argc > 2 ? argv[2] : "sendrecv");
    else {
        fprintf(stderr, "t_rev_exit: unknown mode '%s'\n", mode);
        return 2;
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
#endif
