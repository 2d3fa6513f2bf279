/*
 * probe.c -- C side of the build probes.  fprobe.f calls these; each
 * definition prints one line of the generated configuration header, so the
 * header records how this Fortran compiler names external symbols, the type
 * of the hidden string lengths, the size of INTEGER, and how a Fortran MPI
 * communicator handle becomes a C MPI_Comm.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <mpi.h>

static void say_mangle(const char *how) { printf("#define BI_F77_%s 1\n", how); }
static void say_under(const char *how) { printf("#define BI_F77_UNDERSCORED_%s 1\n", how); }

/* names without an underscore */
void bprobe_(int *x) { (void)x; say_mangle("ADD_"); }
void bprobe(int *x) { (void)x; say_mangle("NOCHANGE"); }
void BPROBE(int *x) { (void)x; say_mangle("UPCASE"); }
/* names with an underscore: f2c convention adds a second one */
void b_probe_(int *x) { (void)x; say_under("ONE"); }
void b_probe__(int *x) { (void)x; say_under("TWO"); }
void b_probe(int *x) { (void)x; say_under("NONE"); }
void B_PROBE(int *x) { (void)x; say_under("UPCASE"); }

static void intsize(const int32_t *ia)
{
    /* INTEGER IA(2) = (1,2): 4-byte integers put 2 in the second word */
    printf("#define BI_F77_INTSIZE %d\n", ia[1] == 2 ? 4 : 8);
}
void bprint_(const int32_t *ia) { intsize(ia); }
void bprint(const int32_t *ia) { intsize(ia); }
void BPRINT(const int32_t *ia) { intsize(ia); }

static void chlen(uint64_t l1, uint64_t l2)
{
    /* read as 64-bit: exact values only if the compiler passes size_t */
    if (l1 == 3 && l2 == 5)
        printf("#define BI_F77_CHARLEN_T size_t\n");
    else
        printf("#define BI_F77_CHARLEN_T int\n");
}
#define CHLEN_ARGS void *a, void *b, void *c, void *d, void *e, void *f, char *s1, char *s2, \
                   uint64_t l1, uint64_t l2
#define CHLEN_BODY { (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; (void)s1; (void)s2; chlen(l1, l2); }
void bchlen_(CHLEN_ARGS) CHLEN_BODY
void bchlen(CHLEN_ARGS) CHLEN_BODY
void BCHLEN(CHLEN_ARGS) CHLEN_BODY

static void comm(const void *h)
{
    MPI_Fint f;
    memcpy(&f, h, sizeof f);
    MPI_Comm c = MPI_Comm_f2c(f);
    int r;
    MPI_Comm_compare(c, MPI_COMM_WORLD, &r);
    printf("#define BI_F77_COMM_F2C %d /* MPI_Comm_f2c of the Fortran handle works */\n",
           r == MPI_IDENT);
    printf("#define BI_F77_COMM_WORLD_HANDLE %ld /* Fortran MPI_COMM_WORLD */\n", (long)f);
    printf("#define BI_F77_COMM_IS_INT %d /* MPI_Comm is an integer handle (cast works) */\n",
           sizeof(MPI_Comm) == sizeof(int) && (MPI_Fint)(intptr_t)MPI_COMM_WORLD == f);
}
void bcomm_(const void *h) { comm(h); }
void bcomm(const void *h) { comm(h); }
void BCOMM(const void *h) { comm(h); }
