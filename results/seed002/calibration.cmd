COLLSIM=./collsim scripts/calibrate-seed002.sh results/seed002/calibration.csv
