"""Security primitives below the serving layer: API keys (:mod:`cluster.security.keys`)."""
