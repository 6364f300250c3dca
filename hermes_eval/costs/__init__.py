"""What the parts cost: speed and memory measured as ratios side by side, run by `make costs` /
`hermes-eval costs` into reports/costs.{md,json}. Not the published benchmark boards (CoSQA, SWE-bench,
RepoEval: `make benchmarks`, reports/benchmarks/), which are runs judged like any other."""
