# doc/man/man.mk -- the section-3 man pages; included by the top-level
# GNU Makefile (-include doc/man/man.mk), self-contained otherwise.
#
#   make man           build/man/man3: one page per routine family (and the
#                      overview blacs(3)), a ".so" link page for every other
#                      routine name, Fortran in lower case and C; the same
#                      for every build variant
#   make install-man   those into $(DESTDIR)$(PREFIX)/share/man/man3
#                      (make install does it too)
#
# The pages come from one source, doc/man/blacs.man.in, through
# INSTALL/mkman.sh (bash, awk, sed); TESTING/man_check.sh checks them.

PREFIX     ?= /usr/local
MAN_SRC    := doc/man/blacs.man.in
MAN_OUT    := build/man
MAN_LIST   := $(MAN_OUT)/man3/.mkman.list
MAN_DESTDIR = $(DESTDIR)$(PREFIX)/share/man/man3

.PHONY: man install-man

man: $(MAN_LIST)

# the generator writes the list of its files last: it stands for them all
$(MAN_LIST): $(MAN_SRC) INSTALL/mkman.sh
	bash INSTALL/mkman.sh -o $(MAN_OUT) $(MAN_SRC)

install-man: $(MAN_LIST)
	install -d $(MAN_DESTDIR)
	install -m 644 $(MAN_OUT)/man3/*.3 $(MAN_DESTDIR)/
