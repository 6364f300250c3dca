"""The gate's exit codes and what each means (``hermes-eval gate --help`` prints them without loading the gate)."""

PASS, REGRESSION, CANNOT, INCONCLUSIVE = 0, 1, 2, 3
EXIT_CODES = {
    PASS: "pass: every quality rule holds and every latency rule rules out a slowdown",
    REGRESSION: "regression: a quality metric dropped beyond its tolerance, or this tree is slower than the "
                "baseline's code (median per-query ratio >= min_ratio, Wilcoxon p < alpha, its CI above the A/A "
                "spread)",
    CANNOT: "could not evaluate: bad spec or overrides, missing or corrupt baseline, a failed arm, or the "
            "baseline ref cannot be measured (not in the local history, probe failed)",
    INCONCLUSIVE: "inconclusive: no regression, but a latency rule could neither show nor rule out a slowdown "
                  "(the machine was too noisy); a warning, not a failure",
}
