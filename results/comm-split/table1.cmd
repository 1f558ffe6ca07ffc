# table1.csv: from the rows of sweep.csv and sweep-large.csv (see their .cmd
# files for the runs), made by
# experiments/comm-split.sh --plots-only, which also draws the PNGs.
experiments/comm-split.sh --plots-only
