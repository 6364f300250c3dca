"""The one door from Hydra: compose overrides, the offline defaults, and the typed RunSettings the stages take."""
