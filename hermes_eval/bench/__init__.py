"""`make bench`: cost benchmarks measured as ratios side by side (reports/bench.{md,json})."""
