"""The `hermes-eval` command line and the Hydra job; nothing else imports this package."""
