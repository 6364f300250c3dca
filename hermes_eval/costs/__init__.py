"""What the parts cost: speed and memory benchmarks measured as ratios side by side, run by `make bench` /
`hermes-eval bench` into reports/bench.{md,json}. Not the published benchmark boards (CoSQA, SWE-bench,
RepoEval: `make benchmarks`, reports/benchmarks/), which are runs judged like any other."""
