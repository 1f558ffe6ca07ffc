# The command that made sweep.csv, run from the source folder: the points of
# experiments/comm-split.yaml with n <= 1048576 (--max-n; the sweep resumes, so a
# larger --max-n adds the missing points).  wall_s is the only column that
# varies between runs.
experiments/comm-split.sh --max-n 1048576
