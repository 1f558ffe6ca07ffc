# time.csv: columns of sweep.csv (see sweep.cmd for the runs), picked by
# experiments/comm-split.sh --plots-only, which also draws time.png.
experiments/comm-split.sh --plots-only
