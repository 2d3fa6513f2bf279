/*
 * bt_run.c -- the tester's driver: MPI and a private duplicate of
 * MPI_COMM_WORLD for the tester's own traffic; process 0 reads the decks and
 * broadcasts them; the families run in the reference's order; process 0
 * prints the summary and the final "N passed, M failed" line.
 * Arguments: [--abort] [--bt=FILE] [deck directory (default .)]; --bt names
 * the main deck inside the directory (default bt.dat), so one directory can
 * hold several selections of families.
 */
#include "bt.h"
#include <stdlib.h>
#include <string.h>

static void echo_list_c(const char *what, int n, const char *v)
{
    fprintf(bt_out, "  %-10s:", what);
    for (int k = 0; k < n; k++) fprintf(bt_out, " '%c'", v[k]);
    fputc('\n', bt_out);
}

static void echo_list_i(const char *what, int n, const blacs_int *v)
{
    fprintf(bt_out, "  %-10s:", what);
    for (int k = 0; k < n; k++) fprintf(bt_out, " %ld", (long)v[k]);
    fputc('\n', bt_out);
}

static void echo(const char *fam, const bt_deck *d, int comb)
{
    if (bt_iam != 0) return;
    fprintf(bt_out, "%s PARAMETERS:\n", fam);
    if (comb) echo_list_c("OPS", d->nop, d->op);
    if (d->nscope) echo_list_c("SCOPES", d->nscope, d->scope);
    if (comb) fprintf(bt_out, "  %-10s: %d\n  %-10s: %d\n", "REPEAT", d->repeat, "COHERENT", d->coherent);
    if (d->ntop) echo_list_c("TOPS", d->ntop, d->top);
    if (d->nshape) { echo_list_c("UPLO", d->nshape, d->uplo); echo_list_c("DIAG", d->nshape, d->diag); }
    echo_list_i("M", d->nmat, d->m);
    echo_list_i("N", d->nmat, d->n);
    echo_list_i("LDASRC", d->nmat, d->ldas);
    echo_list_i("LDADEST", d->nmat, d->ldad);
    if (comb) echo_list_i("LDI", d->nmat, d->ldi);
    if (!comb) { echo_list_i("RSRC", d->npair, d->rsrc); echo_list_i("CSRC", d->npair, d->csrc); }
    if (d->rdest[0] || d->cdest[0] || comb || d->npair) {
        if (comb || fam[0] == 'S') {
            echo_list_i("RDEST", d->npair, d->rdest);
            echo_list_i("CDEST", d->npair, d->cdest);
        }
    }
    echo_list_i("NPROW", d->ngrid, d->nprow);
    echo_list_i("NPCOL", d->ngrid, d->npcol);
    fflush(bt_out);
}

static void path(char *buf, size_t cap, const char *dir, const char *file)
{
    snprintf(buf, cap, "%s/%s", dir, file);
}

int bt_run(const bt_api *api, int argc, char **argv)
{
    int up, doabort = 0;
    const char *dir = ".", *btfile = "bt.dat";
    bt = api;
    MPI_Initialized(&up);
    if (!up) MPI_Init(NULL, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &bt_comm);
    MPI_Comm_rank(bt_comm, &bt_iam);
    MPI_Comm_size(bt_comm, &bt_np);
    bt_out = stdout;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--abort") == 0) doabort = 1;
        else if (strncmp(argv[k], "--bt=", 5) == 0) btfile = argv[k] + 5;
        else dir = argv[k];
    }
    if (doabort) {
        bt_abort_test();
        MPI_Comm_free(&bt_comm);
        bt->exit_(0);
        return 1;
    }
    blacs_int me, np, ctxt;
    bt->pinfo(&me, &np);
    /* a first grid over everybody, as the reference's driver does */
    bt->get(0, 0, &ctxt);
    bt->gridinit(&ctxt, "c", 1, np);
    if (ctxt >= 0) bt->gridexit(ctxt);

    /* decks: read on process 0, broadcast */
    bt_main_deck md;
    bt_deck sd, bd, cd;
    int okdeck[4] = {0, 0, 0, 0};         /* main, sdrv, bsbr, comb */
    memset(&sd, 0, sizeof sd);
    memset(&bd, 0, sizeof bd);
    memset(&cd, 0, sizeof cd);
    if (bt_iam == 0) {
        char p[4096];
        path(p, sizeof p, dir, btfile);
        okdeck[0] = bt_read_main(p, &md) == 0;
        if (okdeck[0]) {
            path(p, sizeof p, dir, "sdrv.dat");
            okdeck[1] = !md.sdrv || bt_read_sdrv(p, &sd) == 0;
            path(p, sizeof p, dir, "bsbr.dat");
            okdeck[2] = !md.bsbr || bt_read_bsbr(p, &bd) == 0;
            path(p, sizeof p, dir, "comb.dat");
            okdeck[3] = !(md.comb || md.aux) || bt_read_comb(p, &cd) == 0;
            if (!okdeck[3] && !md.comb) {          /* AUX alone: default TOPs */
                okdeck[3] = 1;
                memset(&cd, 0, sizeof cd);
            }
        }
    }
    MPI_Bcast(okdeck, 4, MPI_INT, 0, bt_comm);
    if (!(okdeck[0] && okdeck[1] && okdeck[2] && okdeck[3])) {
        if (bt_iam == 0) {
            fprintf(stderr, "BLACS tester: cannot read the decks in %s\n", dir);
            printf("0 passed, 1 failed\n");
        }
        MPI_Comm_free(&bt_comm);
        bt->exit_(0);
        return 1;
    }
    MPI_Bcast(&md, (int)sizeof md, MPI_BYTE, 0, bt_comm);
    MPI_Bcast(&sd, (int)sizeof sd, MPI_BYTE, 0, bt_comm);
    MPI_Bcast(&bd, (int)sizeof bd, MPI_BYTE, 0, bt_comm);
    MPI_Bcast(&cd, (int)sizeof cd, MPI_BYTE, 0, bt_comm);
    bt_verb = md.verb;
    if (bt_iam == 0) {
        if (md.outunit == 0) bt_out = stderr;
        else if (md.outunit != 6) {
            bt_out = fopen(md.outfile, "w");
            if (!bt_out) {
                fprintf(stderr, "BLACS tester: cannot open %s, writing to stdout\n", md.outfile);
                bt_out = stdout;
            }
        }
    }
    blacs_int dbg = 0;
    bt->get(0, 2, &dbg);
    bt_say("BEGINNING BLACS TESTING, BLACS DEBUG LEVEL = %ld\n", (long)dbg);
    bt_say("INTERFACE TESTED: %s, %d PROCESSES, DECKS IN %s\n\n", bt->name, bt_np, dir);
    if (bt_verb >= 1) {
        if (md.sdrv) echo("SDRV", &sd, 0);
        if (md.bsbr) echo("BSBR", &bd, 0);
        if (md.comb) echo("COMB", &cd, 1);
    }
    if (md.sdrv)
        for (int k = 0; k < md.ntype; k++) bt_sdrv(&sd, md.types[k]);
    if (md.bsbr)
        for (int k = 0; k < md.ntype; k++) bt_bsbr(&bd, md.types[k]);
    if (md.comb)
        for (int o = 0; o < cd.nop; o++)
            for (int k = 0; k < md.ntype; k++) bt_comb(&cd, cd.op[o], md.types[k]);
    if (md.aux) {
        char tops[BT_MAXL + 1];
        int n = 0;
        for (int k = 0; k < cd.ntop; k++)
            if (!memchr(tops, cd.top[k], (size_t)n)) tops[n++] = cd.top[k];
        if (n == 0) { memcpy(tops, " FTH", 4); n = 4; }
        tops[n] = 0;
        bt_aux(tops);
    }
    int rc = 0;
    if (bt_iam == 0) {
        rc = bt_nfail != 0;
        fprintf(bt_out, "\n==============================================================\n");
        fprintf(bt_out, "THERE WERE %s FAILURES IN THIS TEST RUN\n", rc ? "" : "NO");
        fprintf(bt_out, "==============================================================\n");
        char line[128];
        if (bt_nskip)
            snprintf(line, sizeof line, "%ld passed, %ld failed, %ld skipped\n", bt_npass, bt_nfail,
                     bt_nskip);
        else
            snprintf(line, sizeof line, "%ld passed, %ld failed\n", bt_npass, bt_nfail);
        fputs(line, bt_out);
        if (bt_out != stdout) fputs(line, stdout);
        fflush(stdout);
        if (bt_out != stdout && bt_out != stderr) fclose(bt_out);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, bt_comm);
    MPI_Comm_free(&bt_comm);
    bt->exit_(0);
    return rc;
}
