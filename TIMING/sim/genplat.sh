#!/bin/sh
# genplat.sh -- regenerates the explicit-topology platforms in TIMING/platforms/
# (run by hand; make simulate uses the committed files).  The comments are
# the source figures of each platform.
set -e
cd "$(dirname "$0")/../.."
G="python3 TIMING/sim/genplat.py"
P=TIMING/platforms
CM02="network/model=CM02 network/crosstraffic=0"

SPEED=2857142.857f $G hypercube 6 262.5us 100GBps 0us 2MBps $P/ipsc860_lawn29_64.xml "
  Intel iPSC/860, 64 nodes (a 6-dimensional hypercube), LAWN 29 (van de
  Geijn, 'On global combine operations', 1991), section 6 and figure 7:
    raw network (Dunigan, ORNL/TM-11491): alpha = 136 us, beta = 1.6 us per
      single-precision item (4 bytes: 0.4 us/byte, 2.5 MB/s);
    effective, with the subroutine calls and bookkeeping of the combine
      codes (the figures of figure 7): alpha = 525 us, beta = 2.0 us per
      item (0.5 us/byte, 2 MB/s);  gamma = 0.35 us per item added.
  Model: the effective figures are the network's, because the model of
  figure 7 is stated with them: each hypercube edge is a split-duplex link
  of 2 MB/s, and each node interface (nic-i) adds 262.5 us (distance-
  independent latency: circuit switching), so a node sends to and receives
  from a neighbour at once (assumption 3) and an exchange between
  neighbours costs 525 + 2.0 n us (assumption 5).  The interfaces have no
  bandwidth limit: a node may drive several of its channels at once, as the
  iPSC/860's direct-connect modules can.  (With one shared port, SimGrid's fair
  sharing makes the concurrent sends of the binomial broadcast of Version 1
  all finish late: 2x the model at n = 2048.)  The software share of that, 525 - 136 =
  389 us and 0.4 us/item, is not separated as SMPI send/receive overheads
  (smpi/os, smpi/or): SMPI applies those only to some protocols.
  gamma is computation: host speed 1/0.35us = 2857142.857 flop/s, and a
  simulated combine of n items executes n flops (TIMING/sim/simops.c), so
  0.35 n us (assumption 6).  All other host code is free
  (smpi/simulate-computation:no, set with the other options in
  TIMING/sim/run.sh, which also selects network/model CM02)." \
  $CM02

# LAWN 73 (Whaley 1994), system fits per double (8 bytes), N = 0..50000:
#   T_c table 5, T_s table 6, T_o table 14.  The network carries T_c: alpha
#   as latency (two interfaces), 8/beta bytes/us as bandwidth; the host speed
#   is 1/beta(T_o) items/s (T_o's negative alpha is dropped).  T_s is used by
#   the predictions only (SMPI's sender overheads smpi/os, smpi/ois apply to
#   some protocols only, so they are left at 0).
SPEED=2412545.235f $G hypercube 5 100us 100GBps 0us 2.79955MBps $P/lawn73_i860_32.xml "
  Intel iPSC/860, 32 nodes (5-dimensional hypercube), LAWN 73 tables 5, 6, 14
  (system, NX 3.3.2): T_c = 200 + 2.8576 N us, T_s = 48 + 2.8573 N us,
  T_o = -14 + 0.4145 N us, N doubles.
  Model: T_c(0) = 200 us is the two interfaces (100 us each, no per-hop
  latency: circuit switching); 8 / 2.8576 = 2.79955 MB/s on every hypercube
  edge, the interfaces unlimited (a node drives its channels at once, as in
  the LAWN 29 platform); host speed 1/0.4145us = 2412545.235 flop/s (one flop per
  item combined, TIMING/sim/simops.c)." \
  $CM02

SPEED=2219263.204f $G mesh 4 8 105.98us 39.0434MBps 0.04us 39.0434MBps $P/lawn73_paragon_32.xml "
  Intel Paragon XP/S, 32 nodes as a 4 x 8 2-D mesh (no wrap-around), LAWN 73
  tables 5, 6, 14 (system, OSF/1 1.2): T_c = 212 + 0.2049 N us,
  T_s = 109 + 0.1957 N us, T_o = -45 + 0.4506 N us, N doubles.
  Model: T_c(0) = 212 us is the two interfaces (105.98 us each) plus
  0.04 us per mesh hop (wormhole routing);
  8 bytes / 0.2049 us = 39.0434 MB/s on interfaces and mesh links (the
  paper gives no separate link figure, so the links are no faster than a
  node: this is where link contention shows); host speed
  1/0.4506us = 2219263.204 flop/s." \
  $CM02
