"""The one door from Hydra: compose overrides, the offline defaults, and the typed RunSettings the stages take."""
from hermes_eval.config.resolvers import register as _register_resolvers

_register_resolvers()
