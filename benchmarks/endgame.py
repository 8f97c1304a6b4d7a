"""The endgame solver on real empty-bag positions: how often it is exact within a time limit.

    python benchmarks/endgame.py [--positions 60] [--limits 1 5] [--lexicon twl06] [--save FILE]
                                 [--solver compiled|python] [--clock wall|cpu] [--seeds 24 29 ...]

Positions: games of ``static`` against ``static`` (seeds 0, 1, 2, ...; classic rules, the
lexicon's words auto-challenged) played until the bag is empty; each game gives the position
at the first turn with the bag empty (games that end before are skipped). For each time limit
the solver runs once per position (one process) and the script prints, for all positions and
grouped by the tiles of the opponent (the player to move holds 7 tiles: the bag was not
empty at their last draw):

* exact: the fraction solved exactly (the whole game tree searched within the limit);
* depth: the mean depth of the deepest finished search;
* nodes/s: all nodes searched divided by all time spent;
* t exact: the mean time of the positions solved exactly.

``--clock cpu`` makes the limits (and the times shown) the CPU time of the searching thread
instead of wall-clock time, so that other jobs on a shared machine change the figures less (a
loaded machine still slows a core down: caches and memory are shared); players always use
wall-clock time.

``--save FILE`` writes one line per position and limit (seed, racks, exact, value, depth,
nodes, seconds, CPU seconds) so that two versions of the solver can be compared position by
position (their exact values must agree). ``--seeds`` keeps only the positions of those
games (for quick checks; the groups' figures are then of those positions only).

MAGPIE's endgame solver on the same 60 positions, for reference (2026-11-26; built from its
public sources with its release flags outside the repository, its word graph made from TWL06 by
its own converter; one thread, ``endgame -eplies 25 -etlim 5``: iterative deepening to at most
25 plies, stopping after the first depth that ends past 5 s; the machine shared with two other
jobs, load 3-5). It searched the full 25 plies in 13 positions (9 within 1 s of CPU, all 13
within 5 s); elsewhere it stopped at depth 4 or 5 (median 3.1 s of CPU a position; seed 29's
depth 4 alone took 64 s). qiza just after (``--limits 5 --clock cpu``): exact in 54 of the 60
within 5 s, 48 of them in at most 1 s. The 13 values MAGPIE found at full depth equal qiza's exact ones.
The issue's target (every position exact within 5 s on one core) is beyond MAGPIE here too.

Measured on the 2-core development machine while other jobs ran (load 3-5, so times are
noisy); "nodes" count every position searched, those at the depth limit included:

===================  ============  ============  ============  ============
exact (1 s / 5 s)    all           opp 1-3       opp 4-6       opp 7
===================  ============  ============  ============  ============
before (2026-11-22)  0.10 / 0.18   0.67 / 1.00   0.00 / 0.06   0.00 / 0.00
after                0.38 / 0.55   1.00 / 1.00   0.38 / 0.53   0.11 / 0.37
===================  ============  ============  ============  ============

Mean depth 2.8 / 3.6 before, 5.0 / 6.1 after; 3,700-4,400 nodes/s before, 235,000-255,000
after; every position solved exactly by two versions had the same value.

The search compiled from the root (2026-11-25, ``--solver compiled``, the default) against the
Python-driven search (``--solver python``), run back to back; the machine was shared with other
agents' self-play and compiles (1-minute load averages in brackets):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
python, quiet (0.9-2.4)     0.48 / 0.68   0.75 / 0.81   0.50 / 0.72   0.08 / 0.42
python (5.2-9.1)            0.43 / 0.63   0.69 / 0.81   0.44 / 0.66   0.08 / 0.33
compiled (5.2-12.2)         0.68 / 0.82   0.81 / 0.88   0.72 / 0.88   0.42 / 0.58
==========================  ============  ============  ============  ============

Nodes per second: compiled 930,000 / 631,000, python 240,000 / 169,000 (at 1 s / 5 s, loaded).
Every position solved exactly by both (and by every run of the session: 50 positions) had the
same value. Of the eleven positions not exact within 5 s, five have a blank on the rack of the
player to move or of the opponent (thousands of moves a list), two are long endgames against
stuck tiles (EEORSTU against RSV or NV, still open at depth 6-10), four are 7 against 5-7 tiles
without a blank. With small racks the time goes to generating moves (seed 24: a list every six
nodes, 70% of the time in the generator, a fifth of that the cross-checks of the whole board).

Incremental move lists, forced passes that do not use up a ply and table rows in pairs
(2026-11-25, branch ``endgame``) against main just before them, run back to back twice on the
shared machine (1-minute load averages in brackets):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
before, run 1 (7.5-8.6)     0.63 / 0.83   0.81 / 0.88   0.69 / 0.88   0.25 / 0.67
after, run 1 (7.6-8.2)      0.63 / 0.85   0.81 / 0.94   0.69 / 0.88   0.25 / 0.67
before, run 2 (7.4-7.8)     0.63 / 0.83   0.81 / 0.88   0.69 / 0.88   0.25 / 0.67
after, run 2 (7.0-7.6)      0.63 / 0.85   0.81 / 0.94   0.69 / 0.88   0.25 / 0.67
==========================  ============  ============  ============  ============

Nodes per second about the same (before 627,000-646,000 / 621,000-635,000, after
612,000-663,000 / 593,000-627,000 at 1 s / 5 s): a node costs less generating but more
merging lists, and the forced passes make lists where the depth limit used to cut. The 50
positions exact within 5 s in both runs took 16% less time in all (35.7 s -> 29.9 s, 36.8 s ->
31.2 s); the long stuck-tile endgames gain most (seed 9, EEORSTU against RSV, now exact in
2.8 s; seed 12 in 1.7 s instead of 3.6 s, exact at depth 9 instead of 13). Every value equal
where both were exact (51 positions over all runs). Still not exact within 5 s: seeds 1, 55,
59 (7 against 5-7 tiles), 24 (EEORSTU against NV) and the five with a blank (7, 25, 29, 34,
36). With a blank the time is in the nodes and in copying lists of thousands of moves, not
in generating them (seed 8: 7,000 lists for 1.8 million nodes).

A move failed low unsearched when the opponent's best (or, if the move blocks it, next best)
way out survives it and refutes it; scans of lists that skip most rows unread (per-row tiles
placed, tile-multiset key and tile kinds) and a list's best way out reused down the line
(2026-11-25, branch ``endgame``) against main, back to back, on the searching thread's CPU
clock (``--clock cpu``) and then on the wall clock; the machine was shared with other helpers'
jobs (1-minute load averages in brackets):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
before, CPU (3.2-3.6)       0.70 / 0.85   0.81 / 0.94   0.72 / 0.88   0.50 / 0.67
after, CPU (3.3-3.4)        0.82 / 0.90   0.88 / 0.94   0.84 / 0.94   0.67 / 0.75
before, wall (3.3-5.4)      0.63 / 0.85   0.81 / 0.94   0.69 / 0.88   0.25 / 0.67
after, wall (4.5-5.5)       0.80 / 0.88   0.88 / 0.94   0.81 / 0.91   0.67 / 0.75
==========================  ============  ============  ============  ============

The CPU figures hold under load: main gave the same 0.70 / 0.85 on the CPU clock at load
7-11 (when its wall figures fell to 0.52 / 0.63), and on the wall clock at load 1.6-2.7, when
the refutation alone gave 0.78 / 0.87. The positions exact in both CPU runs took 7.2 s -> 2.1 s
of CPU (42 positions, 1 s limit) and 21.5 s -> 8.3 s (51 positions, 5 s limit). Nodes per
second fell (1,002,000 -> 640,000 at 1 s, 957,000 -> 520,000 at 5 s): the refuted moves are
not nodes (seed 1 is exact at depth 6 with 0.83 million nodes in 2.0 s of CPU, instead of 13.3
million nodes in 10.6 s on the wall clock at load 1.7). Every value equal where both were
exact (54 positions over all runs). Still not exact within 5 s of CPU: seeds 25, 29, 34, 36 (a
blank), 24 (EEORSTU against NV) and 59 (AEHILMN against EEFLLSV); within 1 s also 1, 7, 9, 12
and 55. Where the time goes (perf, with a map of the compiled symbols): with a blank (seed 29)
a third in making lists (``_store_list``: checking and copying the earlier list's thousands of
rows) and a third in the node loop; against stuck tiles (seed 24) half in generating the stuck
side's lists at the depth limit (cross-checks of whole rows in ``_gen_dir_near``). Searching
positions with a long earlier list without a list of their own (the earlier list's
still-legal moves, then only the new ones) cost more than the copies it saved (0.70 / 0.80 on
the CPU clock) and was dropped; so was copying pool rows element by element instead of by
slices (no change).

Two plies above the depth limit, lists of only the new moves, and iterative deepening two plies
at a time from depth 6 (2026-11-25, branch ``eg9``) against main, back to back on the CPU
clock, twice; the machine was shared with another helper's jobs (1-minute load averages in
brackets):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
before, run 1 (3.7-4.7)     0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
after, run 1 (2.2-2.6)      0.83 / 0.92   0.88 / 0.94   0.88 / 0.94   0.67 / 0.83
before, run 2 (2.1-2.3)     0.83 / 0.88   0.88 / 0.94   0.88 / 0.91   0.67 / 0.75
after, run 2 (2.1-2.6)      0.83 / 0.92   0.88 / 0.94   0.88 / 0.94   0.67 / 0.83
==========================  ============  ============  ============  ============

The positions exact in both took 6.2 s -> 4.4 s and 6.8 s -> 5.3 s of CPU in all (49 and 50
positions, 1 s limit), 15.0 s -> 10.4 s and 14.4 s -> 10.8 s (53 positions, 5 s limit).
Two plies above the depth limit every still-legal move of the earlier list is searched first;
when none cut off, the position's whole list used to be made (a merge copying the earlier
list's rows, thousands with a blank) and searched from its start, the earlier moves a second
time: now only the moves near the tiles placed since are generated there, into a temporary
list (seed 29 at depth 6: 207,000 such lists of 269,000 generated). From depth 6 on the
iterations go two plies at a time (seed 55: exact at depth 12 in 2.6 s instead of 3.9 s; from
depth 4 on, short endgames lost more, seed 0 0.4 s -> 0.9 s; from depth 2 on 0.82 / 0.90).
Seeds 7 and 25 are now exact within 5 s (3.8 s, 4.0 s; 25 at depth 10 with value -5, as main
gives after 5.1 s). Every value equal where both were exact (every run of the session
against main's: 49-53 positions a limit). Still not exact within 5 s: seeds 24
(EEORSTU against NV: 1.6 million lists generated in 10 s at depth 4, the list table full at
131,072 lists so that later lists are made again at each visit; main is at depth 5 after 30 s),
29 (ADFSWX? against AACDIU: main exact at depth 8 after 6.9 s; here 5 s reach depth 6-7), 34
and 36 (a blank: not exact after 30 s on main), 59 (AEHILMN against EEFLLSV: not exact after 30
s); within 1 s also 1, 7, 9, 25 and 55 (1.3, 3.8, 1.3, 4.0, 2.6 s). Where the time goes with a
blank (perf, seed 29): the node loop a third, generating the near moves and storing them
(``_gen_dir_near``, ``_rec``, ``_store_list``) a third. Tried and dropped: not searching the
new moves of a position whose earlier moves had already met the depth limit (hardly any: those
moves are mostly refuted by the opponent's way out, exact); passing over unread the rows of a
list past the point where every move that does not block the opponent's way out is refuted
(same nodes, no faster); an aspiration window at the root (the same nodes: the root's first
move goes out, or null windows decide); cross-checks of the near generation only within reach
of the rack (seed 24 5% faster, seed 1 5% slower); a pool of 2**21 rows and a list table of
2**20 (no gain; seed 24 16% more nodes a second, seed 1 slower).

Cheaper nodes and lists, the same search (2026-11-26, branch ``eg10``): a move's squares to
keep empty as bits checked against the occupied squares (kept by ``_play``), and the blocking
of a way out likewise; the near generation's cross-checks kept by square and the tiles across,
and the near generation and the list maker without allocations or reference counts (in perf,
a quarter of ``_gen_dir_near`` was reference counting); tight loops past the moves no longer
legal; a 512 KB filter of the table's keys that spares most probes of positions never stored
(a cache miss in the 48 MB table, a fifth of ``_node``'s samples); the rack keys kept by
``_play`` instead of loops over the 27 tile kinds. Every position searched visits the same
nodes as on main (the same counts), so values and exactness change only through time. Against
main, back to back on the CPU clock, on a machine shared with two other jobs (1-minute load
averages in brackets; the figures of main are lower than the earlier sessions' at load 2-3,
e.g. seed 1 exact in 1.9-3.1 s of CPU instead of 1.3 s):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
main, run 1 (2.9-5.0)       0.80 / 0.87   0.88 / 0.94   0.81 / 0.91   0.67 / 0.67
branch, run 1 (5.2-7.5)     0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
main, run 2 (2.1-2.2)       0.80 / 0.87   0.88 / 0.94   0.81 / 0.91   0.67 / 0.67
branch, run 2 (2.2-2.8)     0.82 / 0.90   0.88 / 0.94   0.84 / 0.94   0.67 / 0.75
==========================  ============  ============  ============  ============

The 52 positions exact within 5 s in both took 14.1 s -> 13.3 s of CPU (run 1, the branch's
at load 7.5) and 16.0 s -> 10.7 s (run 2); two earlier pairs at load 3-5, with the branch's
first commits, gave 17.4 s -> 13.0 s and 18.2 s -> 14.1 s (53 positions). Per position (run 2): seed 1 3.05 -> 1.82 s, seed 9 2.72 ->
1.46 s, seed 12 1.33 -> 1.22 s; seeds 7 (4.3 s) and 55 (3.9 s) exact within 5 s only on the
branch, 25 in two of four runs (4.2-4.8 s); within 1 s the branch adds seed 12 or 57, each
just under the line (0.95 s, 1.00 s). Every exact value of every run of the session (five of
main, four of the branch: 55 positions exact in some run) equal to every other's. Still not
exact within 5 s: seeds 24 (EEORSTU against NV), 29, 34, 36 (a blank), 59 (AEHILMN against
EEFLLSV), and 25 (a blank) in two runs of four; over 1 s also 1, 7, 9, 12, 55, 57. Where the
time goes now (perf, seeds 1 and 9): the node loop a third, the near generation a quarter
(``_gen_dir_near``: scanning the rows for near squares and the cross-checks not yet kept), the
word search ``_rec`` a tenth, ``_store_list`` a tenth; passing the 34 arrays of ``E`` by value
at each recursive call shows too (a few per cent). Cutoffs come at the first move searched in
all but 0.1% of the nodes that cut off (``st[S_CUT_FIRST]``, ``st[S_CUT_LATER]``), so killer
moves or history ordering would gain little here; the time is in the nodes that search every
move (seed 1: 82,000 of them, 6.6 million moves refuted by the opponent's way out, 81,000 near
lists made two plies above the depth limit). Seed 1 is exact at depth 6, its last iteration
1.4 s of its 1.7 s (depth 5: 0.15 s); seed 9's iteration at depth 8 costs most and is not
exact, depth 10 is. Not done: skipping the table at the depth limit, where seeds 1 and 7 never
find an entry (``st[S_LEAF_SEEN]``, ``st[S_LEAF_HITS]``) but seeds 9 and 55 decide 128,000 and
75,000 nodes from it (exact values among them: skipping would cost exactness); the filter
spares the reads instead.

Tried and dropped (2026-11-26, branch ``eg11``; its code reverted, main's search unchanged).
Seed 24 (EEORSTU against NV) at 5 s of CPU on main: 1.56 million nodes, 802,000 lists
generated, depth 4, and only 531 lists cached at the end: no list is cached while a temporary
list of new moves (two plies above the depth limit) is in use, which is most of the time
there. With those temporary lists on a stack of their own above the pool (so that the lists
below them are cached) the list table fills instead (131,072 lists; 728,000 generated for 1.40
million nodes, still depth 4); with a table of 2**20 lists too, the pool's cacheable rows fill
(786,000 rows, 279,000 lists) and 700,000 lists are still generated: the stuck side's lists
at the depth limit are of boards met once. Seeds 34 and 59 fill the pool (and 59 the list table)
within 5 s as well; the transposition table is not full on the hard seeds (150,000-600,000 of
2 million rows), and 2**23 rows changed seed 1's nodes by 1% and its time within the noise.
Second, the temporary lists of new moves left out the moves that the opponent's best way out
refutes at the node's alpha unblocked (only that node reads the list; the best value left out
counted towards the node's value): the same nodes, fewer rows stored and scanned. Best of four
on seeds 1, 12, 57 (CPU seconds in all): main 3.09 and 3.11, own stack 3.49 and 3.32, both
3.13 and 3.19, then main 3.12, the filter alone 2.96, both 3.05. Full runs, back to back on
the CPU clock (1-minute load averages in brackets; "both" and "filter" the branch):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
main, run 1 (2.4-3.4)       0.83 / 0.88   0.88 / 0.94   0.88 / 0.91   0.67 / 0.75
both, run 1 (3.6-3.7)       0.80 / 0.90   0.88 / 0.94   0.81 / 0.94   0.67 / 0.75
main, run 2 (3.1-3.8)       0.80 / 0.88   0.88 / 0.94   0.81 / 0.91   0.67 / 0.75
both, run 2 (2.9-5.4)       0.80 / 0.87   0.88 / 0.94   0.81 / 0.91   0.67 / 0.67
main, run 3 (2.0-2.1)       0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
filter, run 3 (2.1-2.2)     0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
main, run 4 (2.1-2.2)       0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
filter, run 4 (2.0-2.4)     0.80 / 0.90   0.88 / 0.94   0.81 / 0.91   0.67 / 0.83
==========================  ============  ============  ============  ============

The positions exact within 5 s in all four runs of a pair took 11.8 s and 12.1 s of CPU on
main against 12.2 s and 13.5 s with both (52 positions), 14.3 s and 16.2 s against 17.3 s and
18.1 s with the filter (53 positions; seeds 12, 55 and 57 slower in both runs): no gain, the
branch's commits were reverted. Every exact value of the eight runs equal (54 positions).
Earlier work's ideas not retried: an aspiration window at the root (the same nodes). A
profile with ``NUMBA_ENABLE_PROFILING=1`` recompiles everything with debug information (the
samples were the compiler's), so there is no new one here.

Tried and dropped (2026-11-26, branch ``eg12``; its code reverted, main's search unchanged).
Where the time goes (perf with a map of the compiled symbols, main): with a blank (seed 29, 10 s)
``_node`` 30% of the search's samples, the near generation ``_gen_dir_near`` 23%,
``_store_list`` 15%, the word search ``_rec`` 13%, ``_best_out`` 10%; without (seeds 0, 1, 7, 9,
12, 55) ``_node`` 30%, ``_gen_dir_near`` 26%, ``_rec`` 12%, ``_store_list`` 11%,
``_frontier`` 7%, ``_best_out`` 4%. Seed 29 to depth 6: 1.41 million nodes, 269,000 lists
generated (207,000 of them near lists two plies above the limit), 12.8 million moves refuted by
the opponent's way out; a bigger pool and list table (2**21 rows, 2**19 lists) generate as many
lists (500,859 -> 500,288 to depth 8): the lists are of boards met once. Blank designations
grouped: moves that differ only in the letters their blanks stand for (the same squares, rack
tiles, squares to keep empty and face value) made a group, its later moves (scoring less)
right after its first in the list (the order held between the groups' first moves); scans
passed over a whole group when its first move was not legal or lacked the rack's tiles, and the
search when the opponent's way out refuted its first move (the rest score less, with the same
refutation). The root lists of seeds 29, 34, 36 hold 5,260, 3,935 and 1,970 moves in 2,232,
1,651 and 777 groups; to a fixed depth the search visits the same nodes (seed 29 at depth 6:
1,414,899 on both; 21% of the refuted moves passed over unread), but the row scans that it
spares are a small part of the time and grouping costs the list maker a hash table per list.
Full runs, back to back on the CPU clock (1-minute load averages in brackets; the branch's
first version grouped every move, the second only moves with a blank):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
main, run 1 (2.0-2.1)       0.83 / 0.92   0.88 / 0.94   0.88 / 0.94   0.67 / 0.83
groups v1, run 1 (2.0)      0.82 / 0.92   0.88 / 0.94   0.84 / 0.94   0.67 / 0.83
main, run 2 (2.0)           0.83 / 0.92   0.88 / 0.94   0.88 / 0.94   0.67 / 0.83
groups v1, run 2 (2.0-2.1)  0.80 / 0.90   0.88 / 0.94   0.81 / 0.91   0.67 / 0.83
main, run 3 (1.2-1.8)       0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
groups v2, run 3 (1.9-2.1)  0.80 / 0.88   0.88 / 0.94   0.81 / 0.91   0.67 / 0.75
main, run 4 (2.0-2.1)       0.82 / 0.90   0.88 / 0.94   0.84 / 0.94   0.67 / 0.75
groups v2, run 4 (2.0)      0.80 / 0.90   0.88 / 0.94   0.81 / 0.94   0.67 / 0.75
==========================  ============  ============  ============  ============

The positions exact in all four runs 1-2 took 4.5 s and 4.9 s of CPU on main against 5.5 s
and 7.0 s with v1 (48 positions, 1 s limit), 16.7 s and 18.0 s against 19.0 s and 20.8 s (54,
5 s limit); in all four runs 3-4, 6.5 s and 5.1 s on main against 7.3 s and 7.6 s with v2
(48), 17.0 s and 16.0 s against 19.4 s and 15.1 s (53). Nodes per second at 1 s: main 352,000-547,000,
the branch 309,000-449,000. Main's own runs differ by up to 45% (4.5 s to 6.5 s on the same 48
positions): load 2 on the 2 cores (another job's match) shares the caches. Per seed at 5 s
(main, main, v1, v1, main, main, v2, v2; * not exact): seed 25 4.0, 4.4, 4.7, 4.99, 5.0*,
5.0*, 5.0*, 5.0*; seed 7 4.0, 4.0, 4.6, 5.0*, 5.0*, 4.7, 5.0*, 4.8; seed 55 2.9, 3.1, 3.8, 3.0,
3.7, 4.2, 4.9, 3.5; seed 1 1.5, 1.5, 1.6, 2.5, 2.6, 1.5, 2.5, 2.1; seeds 24, 29, 34, 36, 59 not
exact in any run (to fixed depths, seed 29 needs 5.2-7.2 s for depth 6 and 34 13-17 s, on
both). Every exact value of the eight runs equal (55 positions). Also tried: every still-legal
move of the earlier list before generating three plies above the depth limit too (not only
two): fewer lists generated but far more nodes (seed 25 at depth 6 after 5 s instead of exact at
depth 10, seed 29 at depth 5). Kept from the branch: the plain-minimax tests with a blank
(``E?`` against ``IIU``, both ways), which main's solver passes.

Passes proven forced and one tile valued without a list (2026-11-26, branch ``eg13``). When
none of a player's earlier moves is still legal, a new placement must cover a square next to
the tiles placed since; ``endgame_gen.stuck`` reads the two lines through each such square for
the rack's letters (a letter must make a word with the tiles across and, along, at least a
substring of some word; one tile must make words both ways) and, when none fits, the pass is
forced without a generation, at the depth limit and above (``st[S_STUCK]``). A player with one
tile (not a blank) goes out with its best placement, valued from the earlier list and
``endgame_gen.single_best`` (those squares scored directly): exact at any depth without a list
(``st[S_SINGLE]``), where the depth limit used to return the earlier list's best as a guess and
the nodes above it searched the pass too. Both checked against generation on real boards
(``tests/test_endgame_lists.py``: the one-tile check is exact, the other never proves a pass
that is not forced). The stuck proof alone changes no node: seed 24 to depth 4, the same 209,804
nodes in 0.85 s instead of 1.42 s (67,725 proofs, 22,918 lists generated instead of 89,709),
and about twice the nodes in 5 s (1.8-3.2 million against 0.8-1.4 million); still not exact
(depth 5 takes 14.8 s, value 59; depth 6 is not done after 100 s: a rack playing out against a
stuck V has no refutation to fail its lines low). The one-tile rule takes 1-5% of the nodes
off most positions. Full runs back to back on the CPU clock (1-minute load averages in
brackets; pair 1 the stuck proof alone, pairs 2-3 both):

==========================  ============  ============  ============  ============
exact (1 s / 5 s)           all           opp 1-3       opp 4-6       opp 7
==========================  ============  ============  ============  ============
main, run 1 (2.0-2.1)       0.80 / 0.87   0.88 / 0.94   0.81 / 0.91   0.67 / 0.67
stuck, run 1 (2.1-2.2)      0.80 / 0.87   0.88 / 0.94   0.81 / 0.91   0.67 / 0.67
main, run 2 (2.1-2.2)       0.82 / 0.87   0.88 / 0.94   0.84 / 0.91   0.67 / 0.67
both, run 2 (2.0-2.1)       0.82 / 0.90   0.88 / 0.94   0.84 / 0.91   0.67 / 0.83
main, run 3 (1.1-1.7)       0.83 / 0.88   0.88 / 0.94   0.88 / 0.91   0.67 / 0.75
both, run 3 (1.7-2.4)       0.82 / 0.88   0.88 / 0.94   0.84 / 0.91   0.67 / 0.75
==========================  ============  ============  ============  ============

The positions exact in both runs of a pair took 8.72 s -> 8.70 s (48, 1 s limit) and 17.03 s
-> 16.70 s (52, 5 s) of CPU in pair 1; 4.87 s -> 6.53 s (48) and 12.95 s -> 9.73 s (52) in
pair 2; 6.18 s -> 8.34 s (49) and 18.02 s -> 17.25 s (53) in pair 3. The 1 s and 5 s figures
pull opposite ways because the machine's speed drifts within a run: the same searches (the same
nodes) took 5.76 s in main's 1 s pass of run 2 and 7.95 s in its 5 s pass, 7.15 s and 5.69 s
on the branch. Alternating shorter runs (ten positions exact in 5 s: seeds 0, 1, 9, 12, 21,
38, 44, 52, 55, 57; three of each version, one after the other) took 12.63, 10.43 and 13.32 s
on main (seed 55 not exact in the first) against 12.95, 8.96 and 10.54 s (all exact), 3.74
against 3.66 million nodes. Per seed at 5 s (pairs 2 and 3, main -> branch): seed 9 1.31 ->
1.06 and 2.39 -> 1.60 s, 12 0.94 -> 0.75 and 1.56 -> 1.29, 57 1.38 -> 0.57 and 1.25 -> 0.72
(the stuck tiles' gain), 55 not exact -> 2.52 and 3.61 -> 3.62, 1 2.31 -> 2.23 and 2.28 ->
2.68, 25 not exact -> 4.83 and not exact in both. Every exact value of the session's thirteen
runs equal (54 positions). Still not exact within 5 s: seeds 24, 29, 34, 36, 59, 7 and (in
three runs of four) 25; over 1 s also 1, 9, 55 and, in some runs, 12 (main under 1 s in both
pairs, the branch in neither) and 57 (the branch under 1 s in both, main in one).
Checked again before the merge (2026-11-26, load 0.3-0.9, ``--limits 1 --clock cpu``, main and
the branch alternated twice): exact 0.83 and 0.82 on main, 0.82 and 0.85 on the branch; the 49
positions exact in all four took 6.00 and 5.96 s of CPU on main, 7.38 and 6.20 s on the branch.
Six short positions (seeds 0, 21, 22, 38, 44, 52; 1.05 million nodes on main, 1.03 on the
branch), five runs of each alternated: main 2.42-2.71 s, the branch 2.49-3.57 s; the fastest of
five per seed equal within 0.06 s but for seed 52 (0.44 s -> 0.53 s). So the branch is merged
for the stuck-tile endgames (seeds 9, 12, 57, 24's node rate), at a possible small cost on
short endgames that this machine's noise does not settle.

Main at f7e11b2 (2026-11-27, load 0.8, ``--limits 1 5 --clock cpu``): exact 0.83 / 0.92; not
exact within 5 s seeds 24, 29, 34, 36, 59 (7 in 4.99 s, 25 in 4.35 s); over 1 s also 1 (1.8
s), 9 (1.01 s), 55 (2.9 s). Tried and dropped the same day: other iteration schedules
(``STEP2_FROM`` and, in scratch code, steps of four plies). The value settles early (seeds 9,
12, 55, 57 have their final value from depth 4) and the last iterations cost most (seed 9: depth
8 443,000 nodes, depth 10, exact, 84,000), so fewer iterations were tried. Nodes on seeds 1, 9,
55, 12, 57, 0, 21, 22, 44, 52 (then seeds 7 and 25): the default (1-6, 8, 10, ...) 3.72 million
(1.83, 1.27); 1-4, 6, 8, ... (``STEP2_FROM = 4``) 3.00 (0.97, 1.13); 1-4, 6, 10, 14, ... 2.69
(0.97, 0.99); 1-4, 8, 12, ... 2.65 (0.97, and seed 25 not exact after 30 s: 17.9 million);
every value equal. But a node of the deeper lines costs more (their boards are met once: lists
generated, not cached): on the full 60 (CPU clock, load 2: both cores busy) 1-4, 6, 10, ...
took seed 1 to 3.1 s against 1.65 s and seed 0 to 1.64 s against 0.62 s, exact within 1 s 0.78
against 0.83. The lists generated, not the nodes, are this search's cost.

Tried and dropped (2026-11-27, branch ``exactcut``): a node that cuts off on an exact move
counted as exact even when moves searched before it met the depth limit (they do not bear on a
lower bound), so that more table rows keep an exact value and an iteration may be exact before
every line ends. The full benchmark (``--limits 1 5 --clock cpu``), main and the branch
alternated twice at load 1-2: exact 0.80 / 0.88 and 0.82 / 0.88 on main, 0.82 / 0.88 twice on
the branch; the positions exact in all four runs took 7.0 and 8.0 s of CPU on main against 8.3
and 7.1 s (1 s limit), 18.1 and 16.8 s against 17.7 and 17.0 s (5 s). The branch reached a
deeper iteration on seeds 25 (8 against 6) and 36 (6 against 5) but made no position exact that
main is not (a first run of ten hard seeds, both versions side by side, had seeds 7 and 25 exact
within 5 s on the branch only: 4.81 s and 4.78 s, not repeated); seeds 1, 9 and 55 searched the
same nodes. Every exact value equal. Here the lines
that meet the depth limit lie in nodes that search every move (their upper bounds need every
move's), not in the moves searched before a cutoff.

Main at eb77dcd (2026-11-27, load 0.6-1.0, ``--limits 1 5 --clock cpu``; the search as above):
exact 0.83 / 0.88 (opponent with 7 tiles 0.67 / 0.75). Not exact within 5 s: seeds 7, 24, 25,
29, 34, 36, 59; over 1 s also 1 (2.3 s), 9 (1.18 s) and 55 (4.15 s); seeds 12, 52 and 57 just
under it (0.76, 0.89, 0.80 s).

The same search on another day's machine (2026-11-27, main at 964ae5e, load 1.3-1.5, the same
command): exact 0.85 / 0.92 (opponent with 1-3 tiles 0.94 / 0.94, 4-6 0.88 / 0.94, 7 0.67 /
0.83). Not exact within 5 s: seeds 24, 29, 34, 36, 59; over 1 s also 1, 7, 25 and 55. Counted
on seeds 0, 1, 9, 12, 55 and 59: of the nodes that cut off, 99.9% or more cut off on their first
move (the rest after 12-18 moves), so the search's cost lies in the nodes that search every move
(seed 1: 78,000 of them against 167,000 cut off; seed 59 at depth 5: 25,000 against 87,000),
where no move ordering helps: killer moves or a history table would not shorten it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import dataclass

import numpy as np

from qiza.analysis import board_array, counts_text, generator, rack_counts
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.players import make_player
from qiza.players.endgame import Solution, scoreless_streak, solve_position, solve_position_py
from qiza.rules import CLASSIC


@dataclass
class Position:
    seed: int
    board: np.ndarray
    me: np.ndarray
    opp: np.ndarray
    streak: int


def positions(lexicon: Lexicon, count: int | None, seeds: list[int] | None = None) -> list[Position]:
    """``count`` empty-bag positions from static self-play (seeds 0, 1, 2, ...), or those of
    the games ``seeds`` (a game that ends before the bag is empty gives none)."""
    rules = CLASSIC.with_options(challenge="auto")
    out: list[Position] = []
    todo = sorted(seeds) if seeds else []
    seed = todo.pop(0) if todo else 0
    while (len(out) < count) if count is not None else seed >= 0:
        players = [make_player("static", lexicon, seed=seed), make_player("static", lexicon, seed=seed + 10_000)]
        game = Game(rules, lexicon=lexicon, seed=seed)
        while game.bag and not game.over:
            seat = game.to_move
            game.play(players[seat].choose(game.view(seat)))
        if not game.over:
            seat = game.to_move
            out.append(Position(seed, board_array(game.board).copy(), rack_counts(game.racks[seat]),
                                rack_counts(game.racks[1 - seat]), scoreless_streak(game.history, rules)))
        seed = seed + 1 if count is not None else todo.pop(0) if todo else -1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--limits", type=float, nargs="*", default=[1.0, 5.0])
    parser.add_argument("--lexicon", default="twl06")
    parser.add_argument("--save", help="write per-position results to this file")
    parser.add_argument("--solver", choices=["compiled", "python"], default="compiled",
                        help="the search compiled from the root (solve_position) or the Python-driven one "
                             "(solve_position_py), to compare the two under the same load")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="time limits in wall-clock time or in the searching thread's CPU time")
    parser.add_argument("--seeds", type=int, nargs="*", help="only the positions of these games' seeds")
    args = parser.parse_args()
    lexicon = load_lexicon(args.lexicon)
    start = time.perf_counter()
    posns = positions(lexicon, args.positions if not args.seeds else None, args.seeds)
    sizes = [int(p.me.sum()) for p in posns]
    opp_sizes = [int(p.opp.sum()) for p in posns]
    print(f"{len(posns)} positions in {time.perf_counter() - start:.0f}s; tiles of the player to move: "
          f"mean {statistics.mean(sizes):.1f} ({sizes.count(7)} with 7), opponent: mean "
          f"{statistics.mean(opp_sizes):.1f} ({opp_sizes.count(7)} with 7)")
    gen = generator(lexicon, CLASSIC)
    if args.solver == "python" and args.clock == "cpu":
        parser.error("--clock cpu needs the compiled solver")
    options = {"cpu_time": True} if args.clock == "cpu" else {}
    solve = solve_position if args.solver == "compiled" else solve_position_py
    solve(gen, CLASSIC, posns[0].board, posns[0].me, posns[0].opp, time_limit=0.5)  # warm-up

    def seconds(sol: Solution) -> float:
        return sol.cpu_seconds if args.clock == "cpu" else sol.seconds
    lines: list[str] = []
    groups = {"all": lambda p: True, "opp 1-3": lambda p: p.opp.sum() <= 3,
              "opp 4-6": lambda p: 4 <= p.opp.sum() <= 6, "opp 7": lambda p: p.opp.sum() == 7}
    print(f"{'limit':>5} {'group':<11} {'n':>3} {'exact':>6} {'depth':>6} {'nodes/s':>8} {'t exact':>8}")
    for limit in args.limits:
        results: list[tuple[Position, Solution]] = []
        load_before = os.getloadavg()[0]
        for p in posns:
            sol = solve(gen, CLASSIC, p.board, p.me, p.opp, time_limit=limit, streak=p.streak, **options)
            results.append((p, sol))
            lines.append(f"{limit} {p.seed} {counts_text(p.me) or '-'} {counts_text(p.opp) or '-'} {int(sol.exact)} "
                         f"{sol.value:g} {sol.depth} {sol.nodes} {sol.seconds:.3f} {sol.cpu_seconds:.3f}")
        for name, keep in groups.items():
            rs = [(p, s) for p, s in results if keep(p)]
            if not rs:
                continue
            exact = [s for _, s in rs if s.exact]
            nodes = sum(s.nodes for _, s in rs)
            secs = sum(seconds(s) for _, s in rs)
            t_exact = f"{statistics.mean(seconds(s) for s in exact):8.3f}" if exact else f"{'-':>8}"
            print(f"{limit:>5g} {name:<11} {len(rs):>3} {len(exact) / len(rs):>6.2f} "
                  f"{statistics.mean(s.depth for _, s in rs):>6.2f} {nodes / max(secs, 1e-9):>8.0f} {t_exact}",
                  flush=True)
        print(f"{limit:>5g} ({args.clock} clock; 1-minute load average {load_before:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after)", flush=True)
    if args.save:
        with open(args.save, "w") as f:
            f.write("limit seed rack opp exact value depth nodes seconds cpu\n")
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
